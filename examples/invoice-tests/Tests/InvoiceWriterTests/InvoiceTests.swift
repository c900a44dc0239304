import Foundation
import InvoiceWriter
import RendererSnapshotTesting
import RendererTesting
import SnapshotTesting
import Testing

let invoice = Invoice(
    number: 1001, customer: "Ada Lovelace",
    lines: [Invoice.Line(item: "Analytical engine", amount: 120), Invoice.Line(item: "Punched cards", amount: 30)])

/// The Swift Testing form: a reference in __References__/InvoiceTests/invoice-1001.
@Test func theInvoiceMatchesItsReference() throws {
    expectPDF(try invoice.pdfData(), matchesReference: "invoice-1001")
}

/// The swift-snapshot-testing form: snapshots in __Snapshots__/InvoiceTests.
@Test func theInvoiceMatchesItsSnapshots() throws {
    let pdf = try invoice.pdfData()
    assertSnapshot(of: pdf, as: .pdfPages(), named: "invoice")
    assertSnapshot(of: pdf, as: .pdfText(), named: "invoice")
}

/// One word changed: both forms fail on page 1, and the difference image is written where
/// the failure says.
@Test func aChangedWordFailsAndWritesTheDifferenceImage() throws {
    var changed = invoice
    changed.customer = "Ada Byron"
    let pdf = try changed.pdfData()
    withKnownIssue {
        expectPDF(pdf, matchesReference: "invoice-1001", recording: .never)
    } matching: { issue in
        // "invoice-1001: page 1: 0.0273% of its pixels ...", then the annotation's text.
        issue.comments.map(\.rawValue).joined().hasPrefix("invoice-1001: ")
    }
    let artifacts = ProcessInfo.processInfo.environment[ReferenceCheck.artifactsVariable].map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("RendererTesting")
    let difference = artifacts.appendingPathComponent("InvoiceTests/invoice-1001/page-001-difference.png")
    #expect(FileManager.default.fileExists(atPath: difference.path))
    let message = verifySnapshot(of: pdf, as: .pdfPages(), named: "invoice", record: .never, testName: "theInvoiceMatchesItsSnapshots")
    #expect(message?.contains("\npage 1: ") == true)
}
