#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

extension PDFObjectEditing {
    /// `file` with an incremental update written over this document's objects (which must be
    /// `file`'s, unchanged) that adds `data` to the document security store (ISO 32000-2,
    /// 12.8.4.3): each item a stream, appended to the store's `/Certs`, `/CRLs` or `/OCSPs`;
    /// the store is made in the catalog when there is none. An item is written once: not when
    /// it is given twice, nor when the store holds it already.
    package func prepareValidationDataUpdate(_ data: ValidationData, of file: Data) throws -> Data {
        var update = try IncrementalUpdate(file: file, trailer: try trailer(), rendererID: rendererID)
        let catalogReference = try catalogReference()
        let catalog = try object(catalogReference.number)
        let storeReference: PDFReference? = if case .reference(let reference) = catalog["DSS"] { reference } else { nil }
        var store = try resolved(catalog["DSS"])
        if case .dictionary = store {} else { store = .dictionary(["Type": .name("DSS")]) }
        for (key, items) in [("Certs", data.certificates), ("CRLs", data.crls), ("OCSPs", data.ocspResponses)] {
            // What the store holds longer than the longest item cannot equal one.
            var seen = Set(try streams(in: store[key], longest: items.map(\.count).max() ?? 0))
            let added = items.filter { seen.insert($0).inserted }.map { item -> PDFObject in
                let reference = update.reserve()
                update.setStream(reference, dictionary: [:], contents: item)
                return .reference(reference)
            }
            if !added.isEmpty { store = try appending(added, toArrayAt: key, of: store, in: &update) }
        }
        if let storeReference {
            update.set(storeReference, to: store)
        } else {
            update.set(catalogReference, to: catalog.setting("DSS", to: store))
        }
        return update.written().data
    }

    /// What the document security store holds, each item's stream decoded (an item of more
    /// than 16 MB, or that cannot be decoded, is left out); empty without a store.
    package func readValidationData() throws -> ValidationData {
        let catalog = try object(try catalogReference().number)
        let store = try resolved(catalog["DSS"])
        let items = { (key: String) in try self.streams(in: store[key], longest: Self.largestStoreItem) }
        return ValidationData(certificates: try items("Certs"), crls: try items("CRLs"), ocspResponses: try items("OCSPs"))
    }

    /// The largest item of a document security store read.
    private static var largestStoreItem: Int { 16 << 20 }

    /// The decoded streams the array `entry` (a store's `/Certs`, `/CRLs` or `/OCSPs`) holds,
    /// in its order, those longer than `longest` bytes left out. A stream that cannot be
    /// decoded is left out too: it does not stop reading or updating the store.
    private func streams(in entry: PDFObject?, longest: Int) throws -> [Data] {
        try resolved(entry).items.compactMap { item in
            guard case .reference(let reference) = item else { return nil }
            return (try? streamContents(reference.number, limit: longest, decoded: true)) ?? nil
        }
    }
}
