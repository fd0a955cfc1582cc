import GraphEngine

extension Image {
    /// `transform` applied to this image's colour in `space`: matched from the working space into
    /// `space`, transformed, matched back (Core Image's pattern for maths defined in one space, such
    /// as CIColorCubeWithColorSpace). `nil`: the working space itself. With colour management off
    /// the matches vanish and `transform` sees the values as they are.
    func applyingInSpace(_ space: ColorSpace?, _ transform: (Image) throws -> Image) rethrows -> Image {
        guard let space else { return try transform(self) }
        return try transform(matchedFromWorkingSpace(to: space)).matchedToWorkingSpace(from: space)
    }
}
