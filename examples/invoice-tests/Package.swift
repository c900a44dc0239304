// swift-tools-version:6.0
import PackageDescription

// A project that writes PDFs (invoices) with RendererProvider and tests them as any outside
// package would: RendererProvider as a dependency (by path here), its testing products in
// the test target. CI builds and tests it (`make example-tests`).
let package = Package(
    name: "InvoiceWriter",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "RendererProvider", path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .target(
            name: "InvoiceWriter",
            dependencies: [
                .product(name: "RendererProvider", package: "RendererProvider"),
                .product(name: "MuPDFRenderer", package: "RendererProvider"),
            ]),
        .testTarget(
            name: "InvoiceWriterTests",
            dependencies: [
                "InvoiceWriter",
                .product(name: "RendererTesting", package: "RendererProvider"),
                .product(name: "RendererSnapshotTesting", package: "RendererProvider"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__References__", "__Snapshots__"]),
    ],
    swiftLanguageModes: [.v6]
)
