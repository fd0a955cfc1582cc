// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "GraphEngine",
    products: [
        .library(name: "GraphEngine", targets: ["GraphEngine"]),
        .library(name: "Kernels", targets: ["Kernels"]),
        .library(name: "GraphCodecs", targets: ["GraphCodecs"]),
        .library(name: "GraphRecipes", targets: ["GraphRecipes"]),
        .library(name: "GraphVideo", targets: ["GraphVideo"]),
        .executable(name: "graph", targets: ["GraphCLI"]),
        // The C ABI (Sources/GraphEngineC/graphengine.h) as a shared library: libGraphEngineC.so, which
        // the Python package `graphengine` loads with ctypes.
        .library(name: "GraphEngineC", type: .dynamic, targets: ["GraphEngineC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --enable-experimental-combined-documentation` (the
        // DocC catalogue in GraphEngine links into the layer targets' archives: README, "Library").
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Thin C shims.
        .target(name: "CHalf", path: "Sources/CHalf"),
        .target(name: "CRowKernels", path: "Sources/CRowKernels"),
        // The CLI's allocator setting (glibc's mallopt).
        .target(name: "CProcessMemory", path: "Sources/CProcessMemory"),
        .systemLibrary(
            name: "CLibPNG", path: "Sources/CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CLibJPEG", path: "Sources/CLibJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CLibDeflate", path: "Sources/CLibDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        .target(name: "CCodecShims", dependencies: ["CLibPNG", "CLibJPEG", "CZlib", "CLibDeflate"], path: "Sources/CCodecShims"),
        .systemLibrary(
            name: "CLibHeif", path: "Sources/CLibHeif", pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]),
        // The text generators' fonts, shaping and glyphs: fontconfig, HarfBuzz and FreeType
        // (libfontconfig-dev, libharfbuzz-dev, libfreetype-dev).
        .systemLibrary(
            name: "CTextRendering", path: "Sources/CTextRendering", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev", "libfreetype-dev", "libfontconfig-dev"])]),
        // libzint (Debian's libzint-dev, no pkg-config file): the barcode generators' symbols.
        .systemLibrary(name: "CZint", path: "Sources/CZint", providers: [.apt(["libzint-dev"])]),
        // FFmpeg's headers (video in and out, `graph video`): libavformat-dev, libavcodec-dev,
        // libavutil-dev, libswscale-dev (scripts/install-dependencies.sh). No pkgConfig on purpose:
        // its link flags would load libavcodec and the ~140 libraries it pulls in into every `graph`
        // run; CVideoShims opens the libraries with dlopen when a video is first read or written.
        .systemLibrary(name: "CFFmpeg", path: "Sources/CFFmpeg"),
        .target(
            name: "CVideoShims", dependencies: ["CFFmpeg"], path: "Sources/CVideoShims",
            // FFmpeg is opened with dlopen on first use (ffmpeg_functions.c), so `graph` starts
            // without loading libavcodec and the libraries it pulls in; CFFmpeg gives the headers.
            linkerSettings: [.linkedLibrary("dl")]),

        // Codecs: libpng / libjpeg-turbo decode and encode, libheif decode, metadata segments.
        .target(name: "GraphCodecs", dependencies: ["CCodecShims", "CLibPNG", "CLibJPEG", "CLibHeif", "CZlib"]),

        // The engine in layers, each a target that sees only those below it, so a use against the
        // order is a build error (docs/design.md, "Layers"; scripts/layer-scan.py --check):
        // the model (images, nodes, operations, colour spaces; no pixel loops).
        .target(name: "GraphCore", dependencies: ["CHalf", "GraphCodecs"]),
        // The compiler: kernel language, optimizer passes, plan passes, programs.
        .target(name: "GraphCompiler", dependencies: ["GraphCore"]),
        // The CPU backend: executor, span interpreter, row kernels, area passes.
        .target(name: "GraphCPU", dependencies: ["GraphCompiler", "GraphCore", "CHalf", "CRowKernels"]),
        // File sources and sinks, streamed encodes, depth containers.
        .target(name: "GraphIO", dependencies: ["GraphCPU", "GraphCompiler", "GraphCore", "GraphCodecs"]),
        // The library's face: every layer re-exported, plus dumps, profiles and the reference evaluator.
        .target(name: "GraphEngine", dependencies: ["GraphIO", "GraphCPU", "GraphCompiler", "GraphCore", "CCodecShims"]),

        // The filter catalogue (Core Image names and input keys): each filter's declaration with the
        // area passes and processors only it (or its family) uses, by family under Kernels/Filters;
        // their C row kernels are in CRowKernels (docs/design.md, "Where a filter's code lives").
        .target(name: "Kernels", dependencies: ["GraphEngine", "GraphCodecs", "CRowKernels", "CTextRendering", "CZint"]),

        // The recipe format: JSON recipes loaded, overridden, decoded, built and their outputs written.
        .target(name: "GraphRecipes", dependencies: ["GraphEngine", "Kernels", "GraphCodecs"]),

        // The builders generator: the typed `Filters.*` classes (Kernels/Builders/FilterBuilders.generated.swift)
        // written from the registry. A library so the drift test (FilterBuilderTests) imports it.
        .target(name: "FilterBuilderGeneration", dependencies: ["Kernels", "GraphEngine", "GraphRecipes"]),
        // The tool the plugin runs (a camel-case name: DocC fails on a hyphenated executable target).
        .executableTarget(name: "GenerateFilterBuilders", dependencies: ["FilterBuilderGeneration", "Kernels"]),
        // `swift package --allow-writing-to-package-directory generate-filter-builders`
        // (scripts/generate-filter-builders.sh) runs the tool on the committed file.
        .plugin(
            name: "GenerateFilterBuildersPlugin",
            capability: .command(
                intent: .custom(
                    verb: "generate-filter-builders",
                    description: "Regenerate Sources/Kernels/Builders/FilterBuilders.generated.swift from the filter registry."),
                permissions: [
                    .writeToPackageDirectory(reason: "Rewrites Sources/Kernels/Builders/FilterBuilders.generated.swift.")
                ]),
            dependencies: ["GenerateFilterBuilders"]),

        // C entry points (`ge_*`) over the library: opaque handles, status codes and messages.
        .target(name: "GraphEngineC", dependencies: ["GraphEngine", "Kernels", "GraphRecipes", "GraphCodecs"],
                exclude: ["graphengine.h"]),

        // Video: decode, per-frame recipes with depth streams, encode (FFmpeg's libraries).
        .target(name: "GraphVideo", dependencies: ["GraphEngine", "GraphRecipes", "GraphCodecs", "Kernels", "CVideoShims"]),

        .executableTarget(
            name: "GraphCLI",
            dependencies: [
                "GraphEngine", "Kernels", "GraphRecipes", "GraphVideo", "CProcessMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(name: "GraphCodecsTests", dependencies: ["GraphCodecs", "CZlib", "CLibDeflate"], exclude: ["Fixtures"]),
        .testTarget(
            name: "GraphEngineTests",
            dependencies: ["GraphEngine", "GraphCore", "GraphCompiler", "GraphCPU", "GraphIO", "GraphCodecs", "Kernels",
                           "CHalf", "CRowKernels"]),
        .testTarget(name: "KernelsTests", dependencies: ["Kernels", "GraphEngine", "GraphCore", "GraphCompiler", "GraphCPU", "GraphIO"]),
        .testTarget(name: "GraphRecipesTests", dependencies: ["GraphRecipes", "GraphCLI", "GraphEngine"]),
        .testTarget(name: "GraphVideoTests", dependencies: ["GraphVideo", "GraphRecipes", "GraphEngine", "CVideoShims"]),
        .testTarget(name: "GraphCLITests", dependencies: ["GraphCLI", "GraphRecipes", "GraphEngine", "GraphVideo", "Kernels", "FilterBuilderGeneration"]),
    ],
    swiftLanguageModes: [.v6]
)
