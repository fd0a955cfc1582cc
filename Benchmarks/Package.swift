// swift-tools-version: 6.0
// Benchmarks live in their own package so users' builds never compile them (as swift-collections does).
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which is whatever the clone was called.
let engine = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "GraphEngineBenchmarks",
    dependencies: [.package(path: "..")],
    targets: [
        .executableTarget(name: "codec-bench", dependencies: [.product(name: "GraphCodecs", package: engine)]),
        .executableTarget(name: "concurrency-bench", dependencies: [.product(name: "GraphEngine", package: engine), .product(name: "Kernels", package: engine)]),
        .executableTarget(
            name: "engine-bench",
            dependencies: [
                .product(name: "GraphEngine", package: engine),
                .product(name: "Kernels", package: engine),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
