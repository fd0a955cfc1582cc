// swift-tools-version: 6.0
// Coverage-guided fuzz targets (libFuzzer) in their own package, so users' builds never compile
// them. Build and run them with `scripts/fuzz.sh` (it passes the sanitizer flags); see Fuzz/README.md.
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the clone was called.
let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "GraphEngineFuzz",
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // One executable holds every target (`GRAPH_FUZZ_TARGET` picks one). `GraphCLI` is a link
        // to the CLI's sources, compiled in so the recipe decoder and builder can be fuzzed; its
        // `@main` is renamed so libFuzzer's `main` runs instead.
        .executableTarget(
            name: "graph-fuzz",
            dependencies: [
                .product(name: "GraphEngine", package: engine),
                .product(name: "Kernels", package: engine),
                .product(name: "GraphCodecs", package: engine),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-entry-point-function-name", "-Xfrontend", "graph_cli_main"])]),
    ],
    swiftLanguageModes: [.v6]
)
