/// A super-operation: one row kernel that does the whole work of a program stage faster than the
/// interpreter, with the same bytes, chosen by ``ChooseRowKernels`` and recorded on the stage.
/// The backend may still fall back to the program (a frame's matrix outside the kernel's fixed
/// point, rows outside the source buffer).
package enum RowKernel: Equatable {
    /// `load in0 → matrix.rgb → store` of a camera frame into an RGBA8 or BGRA8 destination: the
    /// frame's rows converted in fixed point by one kernel, the matrix at uniform `matrixBase`.
    case yuvToRGBA8(matrixBase: Int)
    /// `load in0 → store` of a buffer into a destination of its own format: its rows copied byte
    /// for byte.
    case byteCopy
    /// `load in0 → store` (alpha 1) of opaque area stage `stage`, read by this stage alone, into an
    /// RGB8, RGBA8 or BGRA8 destination: the area pass writes its codes into the destination's rows
    /// (``AreaOperation/writesCodes``); its planes and this program do not run.
    case areaCodes(stage: Int)
    /// `load in0 → store` of area stage `stage` (every channel this stage keeps, unchanged), read by
    /// this stage alone, into planes (an intermediate's, computed whole before the work units): the
    /// area pass writes its rows into the destination planes itself; its own planes and this
    /// program do not run. A render into a planar Float32 buffer runs the program instead.
    case areaPlanes(stage: Int)

    /// Whether copying `source`'s bytes into a `format` destination writes what `load → store`
    /// writes: the same format, and alpha already premultiplied or absent (8-bit RGB, or RGBA8 and
    /// BGRA8 holding premultiplied alpha).
    package static func copiesBytes(of source: ImageBuffer, into format: PixelFormat) -> Bool {
        source.format == format
            && (format == .rgb8 || ((format == .rgba8 || format == .bgra8) && source.alphaMode == .premultiplied))
    }
}
