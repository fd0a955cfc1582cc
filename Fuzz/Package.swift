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
    ],
    targets: [
        // One executable holds every target (`GRAPH_FUZZ_TARGET` picks one); the recipe target
        // reaches the recipe format through the `GraphRecipes` library.
        .executableTarget(
            name: "graph-fuzz",
            dependencies: [
                .product(name: "GraphEngine", package: engine),
                .product(name: "Kernels", package: engine),
                .product(name: "GraphCodecs", package: engine),
                .product(name: "GraphRecipes", package: engine),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
