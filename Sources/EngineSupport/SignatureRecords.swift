import CAnnotationRecord
import RendererProvider

extension SignatureField {
    /// The fields both engines' C layers read, with whether each covers the whole of a file
    /// of `fileSize` bytes.
    package static func fields(from records: UnsafeBufferPointer<signature_record>, fileSize: Int64) -> [SignatureField] {
        records.map { record in
            let numbers = record.ranges.map { Array(UnsafeBufferPointer(start: $0, count: Int(record.range_count) * 2)) } ?? []
            let ranges = stride(from: 0, to: numbers.count, by: 2).map { ByteRange(offset: Int(numbers[$0]), length: Int(numbers[$0 + 1])) }
            return SignatureField(
                name: String(optionalCString: record.field) ?? "", pageIndex: record.page >= 0 ? Int(record.page) : nil, isSigned: record.is_signed != 0,
                signerName: String(optionalCString: record.signer), signingTime: String(optionalCString: record.date).flatMap(PDFDate.parse), reason: String(optionalCString: record.reason),
                location: String(optionalCString: record.location), subFilter: String(optionalCString: record.sub_filter), byteRanges: ranges,
                coversWholeFile: record.is_signed != 0 && rangesCoverWholeFile(ranges, fileSize: Int(fileSize)))
        }
    }
}
