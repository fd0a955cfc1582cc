import GraphEngine

/// 3D colour lookup tables (`CIColorCube` and relatives). Each lookup is one `lut3d` IR instruction
/// inside the fused program, its table passed as uniforms (program data): see
/// ``GraphEngine/Instruction/lookup3D(destination:source:dimension:extrapolate:uniformBase:)``.
enum ColorCubeFilters {
    static let categories = ["CICategoryColorEffect", "CICategoryVideo", "CICategoryInterlaced", "CICategoryNonSquarePixels",
                             "CICategoryStillImage"]
    static let all: [FilterDescriptor] = [colorCube, colorCubeWithColorSpace, colorCubesMixedWithMask]

    /// The identity cube of dimension 2 (Core Image's default table).
    static let identityData: FilterValue = .floats([0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1,
                                                    0, 0, 1, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1])
    static let dimensionInput = FilterInput(
        "inputCubeDimension", .number, default: .number(2), minimum: 2, maximum: 128, slider: 2...64,
        "Texels per side of the cube (a whole number).")
    static let extrapolateInput = FilterInput(
        "inputExtrapolate", .bool, default: .bool(false),
        "Extend the edge cells linearly for components outside 0…1 instead of clamping them.")
    static let colorSpaceInput = FilterInput(
        "inputColorSpace", .colorSpace,
        "The space the table is defined in (\"sRGB\", \"displayP3\", \"linearSRGB\"); default the working space.")

    static func dataInput(_ key: String) -> FilterInput {
        FilterInput(key, .data, default: identityData,
                    "d³ RGBA Float32 texels, premultiplied, red varying fastest, then green, then blue.")
    }

    /// `out = T(clamp(s.rgb/s.a, 0, 1)) · s.a`: the table `T` interpolated trilinearly between its
    /// eight texels around the unpremultiplied colour mapped to `c·(d − 1)`, the texel's RGBA
    /// multiplied by the source alpha. With inputExtrapolate components outside 0…1 extend the edge
    /// cells linearly. Apple documents the layout (RGBA Float32, premultiplied, red fastest) and
    /// the trilinear lookup; the alpha product is ours.
    static let colorCube = FilterDescriptor(
        name: "CIColorCube", categories: categories,
        summary: "Maps colours through a 3D lookup table, interpolated trilinearly.",
        inputs: [ColorAdjustmentFilters.imageInput, dimensionInput, dataInput("inputCubeData"), extrapolateInput]
    ) { args in
        try args.image("inputImage").applying(try ColorCubeOperation(args, dataKey: "inputCubeData"))
    }

    /// CIColorCube in another colour space: the colour is converted from the working space into
    /// inputColorSpace, looked up, and converted back (with colour management off, no conversion).
    static let colorCubeWithColorSpace = FilterDescriptor(
        name: "CIColorCubeWithColorSpace", categories: categories,
        summary: "Maps colours through a 3D lookup table defined in a given colour space.",
        inputs: [ColorAdjustmentFilters.imageInput, dimensionInput, dataInput("inputCubeData"), colorSpaceInput, extrapolateInput]
    ) { args in
        let cube = try ColorCubeOperation(args, dataKey: "inputCubeData")
        let space = try args.colorSpace("inputColorSpace"), image = try args.image("inputImage")
        return image.applyingInSpace(space) { $0.applying(cube) }
    }

    /// `out = mix(T0(s), T1(s), clamp(mask.g, 0, 1))`: two CIColorCube looks of the same image mixed
    /// by the mask's green channel (0 gives inputCube0Data's look, 1 inputCube1Data's; outside the
    /// mask's extent the mask is 0), each lookup as in CIColorCube, in inputColorSpace. Apple does
    /// not document the mask channel; green follows CIBlendWithMask. Extent: the image's.
    static let colorCubesMixedWithMask = FilterDescriptor(
        name: "CIColorCubesMixedWithMask", categories: categories,
        summary: "Mixes two 3D lookup-table looks of an image by a mask (such as one made from depth).",
        inputs: [ColorAdjustmentFilters.imageInput,
                 FilterInput("inputMaskImage", .image, "Its green channel picks the look: 0 the first cube, 1 the second."),
                 dimensionInput, dataInput("inputCube0Data"), dataInput("inputCube1Data"), colorSpaceInput, extrapolateInput]
    ) { args in
        let first = try ColorCubeOperation(args, dataKey: "inputCube0Data")
        let second = try ColorCubeOperation(args, dataKey: "inputCube1Data")
        let mask = try args.image("inputMaskImage")
        let space = try args.colorSpace("inputColorSpace"), image = try args.image("inputImage")
        return image.applyingInSpace(space) { image in
            image.applying(MixedColorCubesOperation(first: first, second: second), with: [mask], extent: image.extent)
        }
    }

}

/// One colour cube: its dimension, table and edge rule, checked against each other.
struct ColorCubeOperation: ColorOperation {
    let dimension: Int
    let table: [Float]
    let extrapolate: Bool

    init(_ args: FilterArguments, dataKey: String) throws {
        let d = try args.number("inputCubeDimension")
        guard d == d.rounded() else {
            throw GraphError.invalidParameter(filter: args.filter, key: "inputCubeDimension", reason: "expected a whole number, got \(d)")
        }
        let dimension = Int(d)
        let table = try args.floats(dataKey)
        let needed = dimension * dimension * dimension * 4
        guard table.count == needed else {
            var reason = "a cube of dimension \(dimension) needs \(dimension)³·4 = \(needed) floats, got \(table.count)"
            if let given = Self.cubeDimension(floats: table.count) { reason += " (a cube of dimension \(given): set inputCubeDimension to \(given))" }
            throw GraphError.invalidParameter(filter: args.filter, key: dataKey, reason: reason)
        }
        guard table.allSatisfy(\.isFinite) else {
            throw GraphError.invalidParameter(filter: args.filter, key: dataKey, reason: "the table holds a non-finite value")
        }
        self.dimension = dimension
        self.table = table
        self.extrapolate = try args.bool("inputExtrapolate")
    }

    /// The dimension whose cube holds `floats` RGBA floats, if any.
    static func cubeDimension(floats: Int) -> Int? {
        guard floats % 4 == 0 else { return nil }
        let texels = floats / 4
        return (2...256).first { $0 * $0 * $0 == texels }
    }

    var name: String { "CIColorCube" }
    var structureKey: String { "CIColorCube \(dimension)\(extrapolate ? " extrapolate" : "")" }
    var uniformValues: [Float] { table }
    var argumentSummary: String { "dimension=\(dimension)" + (extrapolate ? " extrapolate" : "") }
}

extension ColorCubeOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        try b.lookup3D(inputs[0], table: uniforms[...], dimension: dimension, extrapolate: extrapolate)
    }
}

/// Two lookups of the same pixel mixed by the mask's green channel (CIColorCubesMixedWithMask).
struct MixedColorCubesOperation: ColorOperation {
    let first: ColorCubeOperation, second: ColorCubeOperation

    var name: String { "CIColorCubesMixedWithMask" }
    var structureKey: String { "CIColorCubesMixedWithMask \(first.structureKey)" }
    var uniformValues: [Float] { first.table + second.table }
    var argumentSummary: String { first.argumentSummary }
}

extension MixedColorCubesOperation: ColorLowering {
    func emit(inputs: [OperandQuad], uniforms: [Operand], destination: (x: Operand, y: Operand),
              builder b: inout ProgramBuilder) throws -> OperandQuad {
        let count = first.table.count
        let a = try b.lookup3D(inputs[0], table: uniforms[0..<count], dimension: first.dimension, extrapolate: first.extrapolate)
        let c = try b.lookup3D(inputs[0], table: uniforms[count...], dimension: second.dimension, extrapolate: second.extrapolate)
        let m = b.ternary(.clamp, inputs[1].g, .constant(0), .constant(1))
        return OperandQuad(b.ternary(.mix, a.r, c.r, m), b.ternary(.mix, a.g, c.g, m), b.ternary(.mix, a.b, c.b, m),
                           b.ternary(.mix, a.a, c.a, m))
    }
}
