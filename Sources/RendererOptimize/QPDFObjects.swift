#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CQPDF

#if canImport(Glibc)
import Glibc
#endif

/// Reading qpdf's object handles: what the passes over a document qpdf has read share.
enum QPDFObjects {
    /// The keys of a dictionary (none for anything else), read before any other iteration.
    static func keys(of dictionary: qpdf_oh, in qpdf: qpdf_data?) -> [String] {
        guard qpdf_oh_is_dictionary(qpdf, dictionary) != 0 else { return [] }
        var keys: [String] = []
        qpdf_oh_begin_dict_key_iter(qpdf, dictionary)
        while qpdf_oh_dict_more_keys(qpdf) != 0 {
            if let key = qpdf_oh_dict_next_key(qpdf) { keys.append(String(cString: key)) }
        }
        return keys
    }

    /// The stream's data as stored (`qpdf_dl_none`, decrypted) or decoded (`qpdf_dl_all`);
    /// nil when qpdf cannot read it as asked. A stream qpdf cannot read is not an error of
    /// the whole document: its error is taken, so that the copy goes on without that change.
    static func streamData(_ stream: qpdf_oh, in qpdf: qpdf_data?, decoding level: qpdf_stream_decode_level_e) -> [UInt8]? {
        var filtered: QPDF_BOOL = QPDF_FALSE
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        guard qpdf_oh_get_stream_data(qpdf, stream, level, &filtered, &buffer, &length) & QPDF_ERRORS == 0, let buffer else {
            _ = qpdf_get_error(qpdf)
            return nil
        }
        defer { free(buffer) }
        guard level == qpdf_dl_none || filtered != 0 else { return nil }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }
}
