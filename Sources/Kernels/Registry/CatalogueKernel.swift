import GraphEngine

/// A filter written in the kernel language (the Core Image Kernel Language subset), compiled on
/// first use. Its lowering is the kernel, so it fuses into programs like any colour kernel and
/// shows in `graph dump` under the kernel's name.
struct CatalogueKernel: Sendable {
    private let compiled: Result<Kernel, KernelCompileError>

    init(_ source: String) {
        compiled = Result { () throws(KernelCompileError) -> Kernel in try Kernel(source: source) }
    }

    /// The kernel applied to `arguments` (in its parameter order); `extent` defaults to the union of
    /// the image arguments' extents.
    func apply(_ arguments: [KernelArgument], extent: Rect? = nil, regionOfInterest: KernelRegionOfInterest? = nil) throws -> Image {
        switch compiled {
        case .success(let kernel):
            return try Image.applying(kernel, arguments: arguments, extent: extent, regionOfInterest: regionOfInterest)
        case .failure(let error):
            throw GraphError.invalidKernel("catalogue kernel does not compile: \(error)")
        }
    }

    /// The compile error, if any (the tests check every catalogue kernel compiles).
    var compileError: KernelCompileError? {
        if case .failure(let error) = compiled { return error }
        return nil
    }
}
