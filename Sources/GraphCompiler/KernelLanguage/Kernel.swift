/// The kind of a kernel, from its signature.
public enum KernelKind: String, Sendable, Hashable {
    /// Returns `vec4` and reads its inputs only as `__sample` pixels at the destination.
    case color
    /// Returns `vec2`: the coordinate to sample its (single) input at for the destination pixel.
    case warp
    /// Returns `vec4` and takes at least one `sampler`, calling `sample()` anywhere.
    case general
}

/// A kernel parameter's declared type.
public enum KernelParameterType: String, Sendable, Hashable {
    /// The parameter types, by their spelling in the source (`__sample`, `__color`).
    case float, vec2, vec3, vec4, sample = "__sample", sampler, color = "__color"

    /// Components of the value bound to it (`nil` for `__sample` and `sampler`, which are bound
    /// differently).
    var vectorCount: Int? {
        switch self {
        case .float: return 1
        case .vec2: return 2
        case .vec3: return 3
        case .vec4, .color: return 4
        case .sample, .sampler: return nil
        }
    }
}

/// One parameter of a kernel function: its name and declared type.
public struct KernelParameter: Sendable, Hashable {
    /// The parameter's name in the source.
    public let name: String
    /// The parameter's declared type.
    public let type: KernelParameterType

    /// A parameter named `name` of type `type`.
    public init(name: String, type: KernelParameterType) {
        self.name = name
        self.type = type
    }
}

/// The value bound to one kernel parameter when the kernel is lowered.
package enum KernelArgumentValue: Sendable {
    /// A `float`.
    case scalar(Operand)
    /// A `vec2`, `vec3`, `vec4` or `__color` (the count must match).
    case vector([Operand])
    /// A `__sample`: the input's pixel at the destination.
    case pixel(OperandQuad)
    /// A `sampler`: the program input slot for `sample()`, and its extent x, y, w, h.
    case sampler(slot: Int, extent: [Operand])
}

/// A custom kernel written in the Core Image Kernel Language subset.
///
/// ```
/// kernel vec4 darken(__sample s, __sample d, float power) {
///     return vec4(s.rgb * pow(d.r, power), s.a);
/// }
/// ```
///
/// **Language.** One `kernel` function (the entry point) plus helper functions, in any order.
/// Kernel parameters are `float`, `vec2`, `vec3`, `vec4`, `__sample`, `sampler` and `__color`;
/// locals are `bool`, `float`, `vec2`, `vec3` and `vec4` (number literals are floats; `int` only
/// for loop counters). Statements: declarations (`float a = 1.0, b;`, `const`), assignments with
/// `= += -= *= /=` including swizzle targets (`c.rgb = ...`, `c.a *= 2.0`), `x++`, `if`/`else`,
/// `return` anywhere, blocks, and `for` loops with a constant trip count (unrolled, at most 256
/// iterations). Expressions: arithmetic with scalar broadcasting, comparisons, `&& || !`, `?:`,
/// constructors, swizzles (`rgba`, `xyzw`, `stpq`), calls. Not supported: `while`, `break`,
/// `continue`, `discard`, arrays, structs, matrices, `int`/`bvec`/`ivec` values, recursion.
///
/// **Kinds.** A kernel returning `vec2` is a ``KernelKind/warp`` kernel: it computes, from
/// `destCoord()`, the point to sample its input at (its one optional `sampler` parameter names that
/// input). A kernel returning `vec4` with any `sampler` parameter is ``KernelKind/general``;
/// otherwise it is ``KernelKind/color``.
///
/// **Coordinates and samplers.** Everything is in working space: pixel units, origin at the lower
/// left, pixel centres at +0.5. Sampler space *is* working space in this engine (Core Image's
/// sampler space differs only by an affine transform, which here is the identity), so:
/// `samplerCoord(s) == destCoord()`, `samplerTransform(s, p) == p`, `sample(s, p)` samples input
/// `s` at working-space point `p` (bilinear, with the input's edge mode, by the executor), and
/// `samplerExtent(s)` is the `vec4(x, y, width, height)` supplied with the binding
/// (`samplerOrigin` = its `xy`, `samplerSize` = its `zw`).
///
/// **Lowering.** A kernel compiles to straight-line SIMD IR: branches
/// evaluate both sides and select per pixel, helper functions are inlined, loops unrolled, and
/// constants fold. Kernels are equal (and hash) by their source text.
public struct Kernel: Sendable, Hashable {
    /// The kernel's source text, as given.
    public let source: String
    /// The kernel function's name.
    public let name: String
    /// Colour, warp or general, from the return type and parameters.
    public let kind: KernelKind
    /// The kernel function's parameters, in order (arguments bind to them in this order or by name).
    public let parameters: [KernelParameter]

    private let program: CheckedProgram
    private let parameterLocations: [SourceLocation]

    /// Parses and type-checks `source`; every error in it is reported here.
    public init(source: String) throws(KernelCompileError) {
        let declarations = try Parser.parse(source)
        let program = try TypeChecker.check(declarations)
        let kernel = program.kernel
        self.source = source
        self.program = program
        self.name = kernel.name
        var parameters: [KernelParameter] = []
        for parameter in kernel.parameters {
            let type = KernelParameterType(rawValue: parameter.declaredType) ?? .float
            parameters.append(KernelParameter(name: parameter.name, type: type))
        }
        self.parameters = parameters
        self.parameterLocations = kernel.parameters.map(\.location)
        if kernel.returnType == .vec2 {
            kind = .warp
        } else if parameters.contains(where: { $0.type == .sampler }) {
            kind = .general
        } else {
            kind = .color
        }
    }

    /// Kernels are equal when their source texts are.
    public static func == (lhs: Kernel, rhs: Kernel) -> Bool { lhs.source == rhs.source }
    /// Hashes the source text.
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }

    /// Lowers the kernel body for one destination pixel span. Returns 4 operands (colour/general) or
    /// 2 (warp).
    ///
    /// `arguments` bind the parameters in order: `.scalar` for `float`, `.vector` for `vec2/3/4` and
    /// `__color`, `.pixel` for `__sample`, `.sampler` for `sampler`. `destination` is the
    /// working-space pixel centre (`destCoord()`).
    package func lower(
        into builder: inout ProgramBuilder, arguments: [KernelArgumentValue], destination: (x: Operand, y: Operand)
    ) throws(KernelCompileError) -> [Operand] {
        guard arguments.count == parameters.count else {
            throw KernelCompileError(
                program.kernel.location,
                "kernel '\(name)' takes \(parameters.count) argument\(parameters.count == 1 ? "" : "s"), but \(arguments.count) \(arguments.count == 1 ? "was" : "were") given")
        }
        var values: [LoweredValue] = []
        for (index, (parameter, argument)) in zip(parameters, arguments).enumerated() {
            let location = index < parameterLocations.count ? parameterLocations[index] : program.kernel.location
            func mismatch(_ given: String) -> KernelCompileError {
                KernelCompileError(
                    location,
                    "parameter '\(parameter.name)' of kernel '\(name)' is a \(parameter.type.rawValue) and needs \(Kernel.expectedArgument(parameter.type)), but \(given) was given")
            }
            switch (parameter.type, argument) {
            case (.float, .scalar(let operand)):
                values.append(.data([operand]))
            case (.vec2, .vector(let operands)), (.vec3, .vector(let operands)), (.vec4, .vector(let operands)),
                 (.color, .vector(let operands)):
                guard operands.count == parameter.type.vectorCount else {
                    throw mismatch("a vector of \(operands.count)")
                }
                values.append(.data(operands))
            case (.sample, .pixel(let quad)):
                values.append(.data(quad.operands))
            case (.sampler, .sampler(let slot, let extent)):
                guard extent.count == 4 else { throw mismatch("a sampler extent of \(extent.count) values") }
                values.append(.sampler(slot: slot, extent: extent))
            case (_, .scalar): throw mismatch("a scalar")
            case (_, .vector(let operands)): throw mismatch("a vector of \(operands.count)")
            case (_, .pixel): throw mismatch("a pixel (__sample)")
            case (_, .sampler): throw mismatch("a sampler")
            }
        }
        // The lowering takes the builder over (leaving an empty one here) so that its instruction
        // arrays stay uniquely referenced: appending to a shared copy would copy them every time.
        var taken = ProgramBuilder()
        swap(&taken, &builder)
        var lowering = KernelLowering(program: program, builder: consume taken, destination: destination)
        defer { builder = lowering.builder }
        return try lowering.lowerKernel(arguments: values)
    }

    private static func expectedArgument(_ type: KernelParameterType) -> String {
        switch type {
        case .float: return "a scalar"
        case .vec2: return "a vector of 2"
        case .vec3: return "a vector of 3"
        case .vec4, .color: return "a vector of 4"
        case .sample: return "a pixel (.pixel)"
        case .sampler: return "a sampler binding (.sampler)"
        }
    }
}
