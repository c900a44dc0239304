// swift-tools-version:6.1
import PackageDescription

// Built and tested on Linux (Debian 12), where the engines come from Debian's packages. The
// API modules that link no engine (RendererProvider and the vault, store, XFDF, metadata and
// comparison modules) declare the Apple floor their Foundation and concurrency use needs; they
// import FoundationXML, Linux's home of XMLParser, only where it exists. The engines, the
// isolation, the server and the command line are Linux's (Glibc, Debian's libraries).
let package = Package(
    name: "RendererProvider",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RendererProvider", targets: ["RendererProvider"]),
        .library(name: "RendererEngine", targets: ["RendererEngine"]),
        .library(name: "RendererFormats", targets: ["RendererFormats"]),
        .library(name: "MuPDFRenderer", targets: ["MuPDFRenderer"]),
        .library(name: "PopplerRenderer", targets: ["PopplerRenderer"]),
        .library(name: "GhostscriptRenderer", targets: ["GhostscriptRenderer"]),
        .library(name: "RendererProviderXFDF", targets: ["RendererProviderXFDF"]),
        .library(name: "RendererProviderMetadata", targets: ["RendererProviderMetadata"]),
        .library(name: "RendererComparison", targets: ["RendererComparison"]),
        .library(name: "RendererProviderVault", targets: ["RendererProviderVault"]),
        .library(name: "RendererProviderStore", targets: ["RendererProviderStore"]),
        .library(name: "RendererIsolation", targets: ["RendererIsolation"]),
        .library(name: "RendererServer", targets: ["RendererServer"]),
        .library(name: "RendererCollaboration", targets: ["RendererCollaboration"]),
        .library(name: "RendererSync", targets: ["RendererSync"]),
        .library(name: "RendererDesktop", targets: ["RendererDesktop"]),
        .library(name: "RendererPrinting", targets: ["RendererPrinting"]),
        .library(name: "RendererSignatures", targets: ["RendererSignatures"]),
        .library(name: "RendererOptimize", targets: ["RendererOptimize"]),
        .library(name: "RendererFonts", targets: ["RendererFonts"]),
        .library(name: "RendererStamps", targets: ["RendererStamps"]),
        .library(name: "RendererConversion", targets: ["RendererConversion"]),
        .library(name: "RendererOCR", targets: ["RendererOCR"]),
        .library(name: "RendererTesting", targets: ["RendererTesting"]),
        .library(name: "RendererSnapshotTesting", targets: ["RendererSnapshotTesting"]),
        .executable(name: "hostapp", targets: ["HostApp"]),
        .executable(name: "hostapp-full", targets: ["HostAppFull"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.65.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.20.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.3.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        // The server's metrics (RendererServer only): swift-metrics' API, Prometheus' format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        // The server's traces: swift-distributed-tracing's API (RendererServer), exported over
        // OTLP/HTTP by swift-otel (HostAppFull only; its gRPC exporter is left out).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.1.0"),
        // The server's OpenAPI document, written in YAML, read once to serve it as JSON
        // (RendererServer only).
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // The server's HTTP contract: the runtime of the types and routes `make openapi`
        // generates from its OpenAPI document (the generator is Scripts/OpenAPIGenerator's).
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.11.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.0.0", traits: ["OTLPHTTP"]),
        // The sync client's (and the server tests') HTTP client.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The snapshot strategies' host library (RendererSnapshotTesting only).
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
        // The Model Context Protocol server of `hostapp mcp` (HostMCP only).
        .package(url: "https://github.com/modelcontextprotocol/swift-sdk", from: "0.12.1"),
    ],
    targets: [
        // The engine contract: the protocols an engine implements and the values that cross
        // them, on Foundation alone. An engine module depends on this and EngineSupport only.
        .target(name: "RendererEngine"),
        // The application API over the contract and the formats (which it re-exports): documents,
        // the registry, sessions, file systems, concurrency; no engine, cheap to embed.
        .target(name: "RendererProvider", dependencies: ["RendererEngine", "RendererFormats"]),
        // The file formats the provider reads and writes itself, apart from the engines: PNG,
        // JPEG and Netpbm images, a stamp's JPEG or PNG picture, form values as JSON and FDF.
        .target(name: "RendererFormats", dependencies: ["RendererEngine", "CFastPNG", "CImageFiles"]),
        // The fast PNG encoder: row filters and chunks in C, compressed by Debian's libdeflate.
        .target(name: "CFastPNG", linkerSettings: [.linkedLibrary("deflate")]),
        // JPEG files written, and JPEG and PNG files read (image stamps' pictures), by Debian's
        // libjpeg (libjpeg-turbo) and libpng.
        .target(name: "CImageFiles", linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]),
        // The one reader of XML from outside (no DTD, no external entity), for XFDF and XMP.
        .target(name: "SafeXML", dependencies: ["RendererProvider"]),
        // XFDF import and export, apart so that the API stays free of an XML parser.
        .target(name: "RendererProviderXFDF", dependencies: ["RendererProvider", "EngineSupport", "SafeXML"]),
        // Metadata written into the Info dictionary and the XMP packet alike, apart for the same reason.
        .target(name: "RendererProviderMetadata", dependencies: ["RendererProvider", "SafeXML"]),
        // An encrypted file system (AES-GCM in chunks) that both engines read documents from.
        .target(name: "RendererProviderVault", dependencies: ["RendererProvider", .product(name: "Crypto", package: "swift-crypto")]),
        // A reader's local state in SQLite (bookmarks, last pages, viewing states) and content fingerprints.
        .target(
            name: "RendererProviderStore",
            dependencies: ["RendererProvider", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Crypto", package: "swift-crypto")]),
        // Comparing what several engines make of one document: pixels, text, structure.
        .target(name: "RendererComparison", dependencies: ["RendererProvider", "CPixelMetrics"]),
        // The pixel-by-pixel comparison's loop, in C: as fast in the tests' unoptimised build
        // as in an optimised one.
        .target(name: "CPixelMetrics"),
        // PDFs in other people's tests: references beside the test file, checked with Swift
        // Testing (and the renderers' agreement), drawn by the three engines.
        .target(name: "RendererTesting", dependencies: ["RendererProvider", "RendererComparison", "MuPDFRenderer", "PopplerRenderer", "GhostscriptRenderer"]),
        // The same as swift-snapshot-testing strategies, apart so that RendererTesting needs no other library.
        .target(
            name: "RendererSnapshotTesting",
            dependencies: ["RendererTesting", "RendererComparison", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")]),
        // Documents whose engine runs in a child process, and that process's serving loop.
        .target(name: "RendererIsolation", dependencies: ["RendererProvider", "ProcessSpawning"]),
        // Child processes that inherit no descriptor but the three they are given, over
        // glibc's closing of every inherited descriptor, which Swift's Glibc module leaves out.
        .target(name: "ProcessSpawning", dependencies: ["CProcessSpawn"]),
        .target(name: "CProcessSpawn"),

        // What both backends share and the API does not show: the annotation record both
        // engines' C layers fill and its conversion to and from the API's Annotation,
        // positional identities, PDF dates, page labels and alpha conversions.
        .target(name: "CAnnotationRecord"),
        // How both engines' C layers read a document from, and write one to, an
        // application's file system instead of a path.
        .target(name: "CDocumentStream"),
        .target(name: "EngineSupport", dependencies: ["RendererEngine", "RendererFormats", "CAnnotationRecord", "CDocumentStream"]),

        // MuPDF is shipped by Debian as static archives whose pkg-config file is wrong
        // (ARCHITECTURE.md, "Where an engine forced the design"), so the libraries are listed here, MuPDF first.
        .target(
            name: "CMuPDF",
            dependencies: ["CAnnotationRecord", "CDocumentStream"],
            linkerSettings: [
                "mupdf", "mupdf-third", "mujs", "gumbo", "openjp2", "jbig2dec",
                "jpeg", "harfbuzz", "freetype", "z", "m",
            ].map { .linkedLibrary($0) }
        ),
        .target(
            name: "MuPDFRenderer",
            dependencies: ["RendererEngine", "EngineSupport", "CMuPDF", .product(name: "Logging", package: "swift-log")]
        ),

        // Ghostscript (Debian's libgs, its gsapi interface): opening, drawing through the display
        // device, text through the txtwrite device. CGhostscript runs one instance per call and
        // holds the display device's callbacks.
        .target(name: "CGhostscript", linkerSettings: [.linkedLibrary("gs")]),
        .target(
            name: "GhostscriptRenderer",
            dependencies: ["RendererEngine", "EngineSupport", "CGhostscript", "ProcessSpawning", .product(name: "Logging", package: "swift-log")]
        ),

        // poppler-glib, over cairo: opening, drawing, text with boxes, outline and links.
        // GIO: the desktop's MIME types and applications (DocumentInteraction).
        .systemLibrary(name: "CGio", pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "RendererDesktop", dependencies: ["RendererProvider", "CGio"]),
        // libcups: printing over IPP to a CUPS server (PrintService, ReadingSession.print).
        .systemLibrary(name: "CCups", providers: [.apt(["libcups2-dev"])]),
        .target(name: "RendererPrinting", dependencies: ["RendererProvider", "CCups"]),
        // OpenSSL's libcrypto: the CMS signatures of signed PDFs and their certificates
        // (Document.verifySignatures), in a C layer of its own.
        .target(name: "CSignatureCrypto", linkerSettings: [.linkedLibrary("crypto")]),
        // HarfBuzz (shaping and subsetting), FriBidi (the order of mixed-direction text) and
        // fontconfig (finding an installed font): the fonts text stamps and visible signatures
        // embed, apart from the core.
        .systemLibrary(name: "CHarfBuzzSubset", pkgConfig: "harfbuzz-subset", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFribidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .target(name: "RendererFonts", dependencies: ["RendererEngine", "CHarfBuzzSubset", "CFontconfig", "CFribidi"]),
        // Watermarks, headers, footers and Bates numbers written onto pages as text.
        .target(name: "RendererStamps", dependencies: ["RendererProvider", "RendererFonts"]),
        // Documents of other kinds made into PDF: Office and OpenDocument files by a warm
        // LibreOffice, apart so that nothing else starts one.
        .target(name: "RendererConversion", dependencies: ["RendererProvider", "ProcessSpawning"]),
        .target(name: "RendererSignatures", dependencies: ["RendererProvider", "CSignatureCrypto", "RendererFonts"]),
        .systemLibrary(
            name: "CPopplerGlib",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"])]
        ),
        // poppler-glib hides facts the API reports (a page's /Rotate, whether the file is
        // encrypted, text as pdftotext writes it), cannot edit annotations fully or rewrite
        // a file; Poppler's core C++ API can. CPopplerBridge is the C layer over it;
        // CLibPoppler only links the core library and gives the bridge its headers.
        .systemLibrary(
            name: "CLibPoppler",
            pkgConfig: "poppler",
            providers: [.apt(["libpoppler-private-dev"])]
        ),
        .target(
            name: "CPopplerBridge",
            dependencies: ["CLibPoppler", "CPopplerGlib", "CAnnotationRecord", "CDocumentStream"],
            linkerSettings: [.linkedLibrary("gio-2.0")]
        ),
        .target(
            name: "PopplerRenderer",
            dependencies: ["RendererEngine", "EngineSupport", "CPopplerGlib", "CPopplerBridge", .product(name: "Logging", package: "swift-log")]
        ),

        // Collaboration: document descriptors and signed tokens (JWT), shared by the server
        // and the sync client.
        .target(
            name: "RendererCollaboration",
            dependencies: ["RendererProvider", "RendererCollaborationMessages", .product(name: "JWTKit", package: "jwt-kit")]),
        // The collaboration wire protocol's messages (JSON over the provider API's types), apart
        // from tokens so that clients and the formats fuzz target read them without JWTKit.
        .target(name: "RendererCollaborationMessages", dependencies: ["RendererProvider"]),
        // The collaboration layers' backend, apart from HTTP: the stores (SQLite, PostgreSQL) and
        // the rules every change is applied under, the events each layer's listeners are sent,
        // and the token revocation list's reloading.
        .target(
            name: "RendererLayers",
            dependencies: [
                "RendererProvider", "RendererCollaboration",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The document server and browser viewer (`hostapp serve`): Hummingbird over both engines.
        // What the server and the route collections it mounts share over HTTP: the JSON
        // errors, the rate limiter, file downloads, reading requests and answering them.
        .target(
            name: "RendererServerHTTP",
            dependencies: [
                "RendererProvider", "RendererPrinting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]),
        // Collaboration's HTTP side, a route collection the server mounts: the layers' REST
        // routes and exports, and their WebSocket, over `RendererLayers`.
        .target(
            name: "RendererCollaborationServer",
            dependencies: [
                "RendererProvider", "RendererProviderXFDF", "RendererCollaboration", "RendererLayers", "RendererSignatures",
                "RendererServerHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
            ],
            exclude: ["OpenAPI"]),
        .target(
            name: "RendererServer",
            dependencies: [
                "RendererProvider", "RendererProviderStore", "RendererProviderXFDF", "RendererComparison", "RendererCollaboration",
                "RendererCollaborationServer", "RendererLayers", "RendererServerHTTP", "RendererPrinting", "RendererSignatures", "RendererOptimize", "RendererStamps", "RendererConversion",
                "RendererIsolation",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
            ],
            exclude: ["OpenAPI/openapi-generator-config.yaml"],
            resources: [.copy("Viewer"), .copy("OpenAPI/openapi.yaml")]
        ),

        // The sync client: a reader's local copy of a layer, kept in step with the server.
        .target(
            name: "RendererSync",
            dependencies: [
                "RendererProvider", "RendererCollaboration",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]),

        // hostapp's commands that need only the provider API and an engine (info, render, text,
        // search, outline, links, signatures, manifest), with the global options and the root command
        // both executables share.
        .target(
            name: "HostCommands",
            dependencies: [
                "RendererProvider", "RendererIsolation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // SHA-256 of the files a sharded run records in its manifest.
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // `hostapp`: runs those commands with MuPDF itself, in an executable that maps neither
        // Poppler's libraries nor the server stack, and hands every other run to hostapp-full.
        .executableTarget(
            name: "HostApp",
            dependencies: ["HostCommands", "MuPDFRenderer", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Tesseract's C API (declared by Debian's libtesseract-dev), loaded when first used.
        .target(name: "CTesseract", linkerSettings: [.linkedLibrary("dl")]),
        // Text recognition of scanned pages by Tesseract, plugged into the provider's
        // TextRecognizer, apart so that the API links no OCR library.
        .target(name: "RendererOCR", dependencies: ["RendererProvider", "CTesseract"]),
        // qpdf's C API, from Debian's libqpdf-dev.
        .systemLibrary(name: "CQPDF", pkgConfig: "libqpdf"),
        // PDFs rewritten for fast web view and size (linearised, object streams), by qpdf's library.
        .target(name: "RendererOptimize", dependencies: ["RendererProvider", "CQPDF"]),
        // `hostapp mcp`: a folder's documents offered to AI agents over the Model Context
        // Protocol, through the command line's options and editing path.
        .target(
            name: "HostMCP",
            dependencies: ["HostCommands", "RendererProvider", .product(name: "MCP", package: "swift-sdk")]
        ),
        // `hostapp-full`: every command, both engines, the server, sync and the vault.
        .executableTarget(
            name: "HostAppFull",
            dependencies: [
                "HostCommands", "RendererProvider", "RendererProviderXFDF", "RendererProviderMetadata", "RendererIsolation", "RendererComparison",
                "RendererProviderVault",
                "RendererProviderStore", "RendererServer", "RendererCollaboration", "RendererSync", "MuPDFRenderer", "PopplerRenderer",
                "GhostscriptRenderer", "RendererDesktop", "RendererPrinting", "RendererSignatures", "ProcessSpawning", "HostMCP", "RendererOptimize",
                "RendererOCR", "RendererStamps", "RendererConversion", "RendererLayers",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),

        // libFuzzer targets, one per engine (`make fuzz`), over what a caller does with an
        // input; built normally they replay the files they are given.
        .target(name: "FuzzSupport", dependencies: ["RendererProvider", .product(name: "Logging", package: "swift-log")]),
        .executableTarget(name: "FuzzMuPDF", dependencies: ["FuzzSupport", "MuPDFRenderer"]),
        .executableTarget(name: "FuzzPoppler", dependencies: ["FuzzSupport", "PopplerRenderer"]),
        .executableTarget(name: "FuzzGhostscript", dependencies: ["FuzzSupport", "GhostscriptRenderer"]),
        // libFuzzer target over the parsers the project wrote itself (FDF, XFDF, XMP, content sniffing).
        .executableTarget(
            name: "FuzzFormats", dependencies: ["RendererProvider", "RendererProviderXFDF", "RendererProviderMetadata", "RendererCollaborationMessages"]),

        // Helpers the test targets share: fixture paths, running reference tools, reading Netpbm.
        .target(
            name: "TestSupport",
            dependencies: ["RendererProvider", "RendererIsolation", "MuPDFRenderer", "PopplerRenderer", "GhostscriptRenderer", "ProcessSpawning"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "RendererProviderTests", dependencies: ["RendererProvider"]),
        .testTarget(name: "EngineSupportTests", dependencies: ["EngineSupport"]),
        .testTarget(name: "RendererComparisonTests", dependencies: ["RendererComparison"]),
        .testTarget(name: "RendererOCRTests", dependencies: ["RendererOCR", "RendererProvider"]),
        .testTarget(name: "RendererStampsTests", dependencies: ["RendererStamps", "RendererFonts", "RendererProvider", "TestSupport"]),
        .testTarget(name: "RendererConversionTests", dependencies: ["RendererConversion", "RendererProvider", "TestSupport"]),
        .testTarget(
            name: "RendererTestingTests",
            dependencies: ["RendererTesting", "RendererSnapshotTesting", "TestSupport", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
            exclude: ["__References__", "__Snapshots__"]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: ["RendererProvider", "EngineSupport", "MuPDFRenderer", "PopplerRenderer", "RendererProviderMetadata", "RendererSignatures", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "StoreTests", dependencies: ["RendererProviderStore", "TestSupport"]),
        .testTarget(name: "PrintingTests", dependencies: ["RendererPrinting", "RendererProvider", "TestSupport"]),
        .testTarget(name: "VaultTests", dependencies: ["RendererProvider", "RendererProviderVault", "TestSupport"]),
        .testTarget(name: "SessionTests", dependencies: ["RendererProvider", "RendererProviderVault", "RendererProviderMetadata", "RendererSignatures", "TestSupport"]),
        .testTarget(
            name: "BackendComparisonTests",
            dependencies: ["RendererProvider", "RendererProviderXFDF", "RendererComparison", "TestSupport", "MuPDFRenderer", "PopplerRenderer", "GhostscriptRenderer"]),
        .testTarget(
            name: "ServerTests",
            dependencies: [
                "RendererServer", "RendererProviderXFDF", "RendererIsolation", "RendererCollaboration", "RendererCollaborationServer", "RendererSync", "RendererPrinting", "RendererSignatures", "RendererOCR", "RendererConversion", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["validate_schema.py"]  // checks the server's messages against Protocol/schemas
        ),
        .testTarget(
            name: "CollaborationTests", dependencies: ["RendererCollaboration", "TestSupport"],
            exclude: ["jwt_witness.py"]  // the independent signer and verifier the tests run
        ),
        .testTarget(
            name: "HostAppTests", dependencies: ["HostApp", "HostAppFull", "RendererIsolation", "RendererSignatures", "ProcessSpawning", "TestSupport"],
            exclude: ["independent_metrics.py", "html_structure.py"]  // run by the tests as separate programs
        ),
    ],
    swiftLanguageModes: [.v6]
)
