import CAnnotationRecord
import RendererProvider

extension SignatureField {
    /// The fields both engines' C layers read, with whether each covers the whole of a file
    /// of `fileSize` bytes.
    package static func fields(from records: UnsafeBufferPointer<signature_record>, fileSize: Int64) -> [SignatureField] {
        records.map { record in
            let numbers = record.ranges.map { Array(UnsafeBufferPointer(start: $0, count: Int(record.range_count) * 2)) } ?? []
            let ranges = stride(from: 0, to: numbers.count, by: 2).map { ByteRange(offset: Int(numbers[$0]), length: Int(numbers[$0 + 1])) }
            let text = { (pointer: UnsafeMutablePointer<CChar>?) in pointer.map { String(cString: $0) } }
            return SignatureField(
                name: text(record.field) ?? "", pageIndex: record.page >= 0 ? Int(record.page) : nil, isSigned: record.is_signed != 0,
                signerName: text(record.signer), signingTime: text(record.date).flatMap(PDFDate.parse), reason: text(record.reason),
                location: text(record.location), subFilter: text(record.sub_filter), byteRanges: ranges,
                coversWholeFile: record.is_signed != 0 && rangesCoverWholeFile(ranges, fileSize: Int(fileSize)))
        }
    }
}
