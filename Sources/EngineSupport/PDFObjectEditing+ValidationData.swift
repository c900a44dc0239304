import Foundation
import RendererProvider

extension PDFObjectEditing {
    /// `file` with an incremental update written over this document's objects (which must be
    /// `file`'s, unchanged) that adds `data` to the document security store (ISO 32000-2,
    /// 12.8.4.3): each item a stream, appended to the store's `/Certs`, `/CRLs` or `/OCSPs`;
    /// the store is made in the catalog when there is none. Items given twice are written
    /// once; the store's own streams are not read, so an item it holds already is written
    /// again.
    package func prepareValidationDataUpdate(_ data: ValidationData, of file: Data) throws -> Data {
        var update = try IncrementalUpdate(file: file, trailer: try trailer(), backend: backendID)
        let catalogReference = try catalogReference()
        let catalog = try object(catalogReference.number)
        let storeReference: PDFReference? = if case .reference(let reference) = catalog["DSS"] { reference } else { nil }
        var store = try resolved(catalog["DSS"])
        if case .dictionary = store {} else { store = .dictionary(["Type": .name("DSS")]) }
        for (key, items) in [("Certs", data.certificates), ("CRLs", data.crls), ("OCSPs", data.ocspResponses)] {
            var seen: Set<Data> = []
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
}
