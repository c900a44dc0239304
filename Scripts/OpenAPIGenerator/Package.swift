// swift-tools-version:6.1
import PackageDescription

// swift-openapi-generator, in a package of its own so that building the project does not
// build it: `make openapi` runs it to write the server's generated types and routes
// (Sources/RendererServer/Generated) from the OpenAPI document.
let package = Package(
    name: "OpenAPIGenerator",
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3")
    ],
    targets: []
)
