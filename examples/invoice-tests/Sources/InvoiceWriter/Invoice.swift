import Foundation
import MuPDFRenderer
import RendererProvider

/// An invoice: who buys, what, and for how much.
public struct Invoice: Sendable {
    /// One line of the invoice.
    public struct Line: Sendable {
        public var item: String
        public var amount: Decimal

        public init(item: String, amount: Decimal) {
            self.item = item
            self.amount = amount
        }
    }

    public var number: Int
    public var customer: String
    public var lines: [Line]

    public init(number: Int, customer: String, lines: [Line]) {
        self.number = number
        self.customer = customer
        self.lines = lines
    }

    /// The invoice as a one-page A4 PDF: a blank page with the heading, the customer, each
    /// line and the total written on it as free-text annotations, drawn by MuPDF.
    public func pdfData() throws -> Data {
        let registry = RendererRegistry([MuPDFRenderer()])
        let document = try registry.open(.memory(Self.emptyDocument), password: nil, renderer: .id("mupdf"))
        try document.insertBlankPage(at: 0, size: PageSize(width: 595, height: 842))
        _ = try document.deletePages([1])
        var texts: [(String, Double, Double)] = [("Invoice \(number)", 24, 60), ("Bill to: \(customer)", 12, 110)]
        for (index, line) in lines.enumerated() {
            texts.append(("\(line.item): \(line.amount) EUR", 12, 150 + Double(index) * 20))
        }
        let total = lines.map(\.amount).reduce(0, +)
        texts.append(("Total: \(total) EUR", 14, 170 + Double(lines.count) * 20))
        for (text, size, y) in texts {
            try document.addAnnotation(Annotation(
                kind: .freeText, pageIndex: 0, rect: PageRect(x: 60, y: y, width: 475, height: size * 1.6), contents: text,
                textStyle: TextStyle(fontSize: size)))
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("invoice-\(UUID().uuidString).pdf")
        defer { try? FileManager.default.removeItem(at: file) }
        try document.saveCopy(to: file)
        return try Data(contentsOf: file)
    }

    /// A PDF of one empty US Letter page, the document the invoice's page is added to.
    static let emptyDocument: Data = {
        var pdf = "%PDF-1.7\n"
        var offsets: [Int] = []
        for object in [
            "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        ] {
            offsets.append(pdf.utf8.count)
            pdf += "\(offsets.count) 0 obj\n\(object)\nendobj\n"
        }
        let xref = pdf.utf8.count
        pdf += "xref\n0 4\n0000000000 65535 f \n" + offsets.map { String(format: "%010d 00000 n \n", $0) }.joined()
        pdf += "trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(pdf.utf8)
    }()
}
