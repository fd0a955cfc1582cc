import Foundation

/// One fuzz target: a name (also the name of its seed corpus `Fuzz/corpus/NAME` and of its
/// optional dictionary `Fuzz/dictionaries/NAME.dict`) and what it does with one input.
///
/// A target must never crash, hang or leak on any input: errors are the expected outcome of
/// most inputs and are ignored. To add one, write `static let name = FuzzTarget(...)` in a file
/// of `Targets/` and add it to ``FuzzTarget/all``.
struct FuzzTarget: Sendable {
    let name: String
    let run: @Sendable ([UInt8]) -> Void

    /// Every target, in the order `scripts/fuzz.sh all` runs them.
    static let all: [FuzzTarget] = [
        .recipe,
        .kernel,
        .png,
        .jpeg,
        .exif,
        .icc,
        .xmp,
        .mpf,
        .auxJPEG,
        .appleXMP,
        .gDepth,
        .googleContainer,
        .dynamicDepthPackets,
        .xmpProperties,
        .heif,
        .hevcDepth,
        .cube,
        .depthPhoto,
    ]
}

/// The folder of the repository (for the example files recipes refer to).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
