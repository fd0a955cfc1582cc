import GraphEngine

/// The filter catalogue: every filter by its Core Image name, with typed, ranged, documented inputs.
/// It drives the library API (`Image.applyingFilter(_:parameters:)`), the CLI, the JSON recipes and
/// the `graph filters` listing.
public struct FilterRegistry: Sendable {
    /// Every filter, sorted by name.
    public let filters: [FilterDescriptor]
    private let byName: [String: FilterDescriptor]

    /// A registry of `filters` (the first of two with one name wins).
    public init(_ filters: [FilterDescriptor]) {
        self.filters = filters.sorted { $0.name < $1.name }
        self.byName = Dictionary(filters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every built-in filter.
    public static let standard = FilterRegistry(
        ColorAdjustmentFilters.all + ColorEffectFilters.all + CompositingFilters.all + GeometryFilters.all
            + BlurFilters.all + GeneratorFilters.all + ReductionFilters.all + AnalysisReductionFilters.all + EdgeAnalysisFilters.all
            + ColorCubeFilters.all + ToneFilters.all + ColorMappingFilters.all + LookFilters.all + BlendModeFilters.all + GradientFilters.all + DisparityFilters.all
            + AreaFilterFamilies.all + StylizeFilters.all + HalftoneFilters.all + TransitionFilters.all + LightAndMaskTransitions.all + PageCurlTransitions.all + PaletteFilters.all + DistanceGradientFilters.all + [RippleTransition.filter, AccordionFoldTransition.filter, Pointillize.filter, HueSaturationValueGradient.filter, ColorCurves.filter] + RectangleGenerators.all + KeystoneFilters.all + NinePartFilters.all + [StretchCrop.filter, ToneMapHeadroom.filter, MaximumScaleTransform.filter, CannyEdgeDetector.filter, DepthOfField.filter] + GlowGenerators.all + [TextImageGenerator.filter]
            + ColorStyleFilters.all + MaskAndMixFilters.all + NeighbourhoodStyleFilters.all + LabFilters.all
            + DepthEffectFilters.all + DollyZoomFilters.all
            + DistortionFilters.all + TileFilters.all + BarcodeGenerators.all + [CameraCalibrationLensCorrection.filter]
            + [RoundedQRCodeGenerator.filter, BarcodeDescriptorGenerator.filter, MeshGenerator.filter, SystemToneMap.filter, AttributedTextImageGenerator.filter])

    /// The filter named `name`; the error says when it is a Core Image filter this engine lacks, or suggests the name meant.
    public func descriptor(named name: String) throws -> FilterDescriptor {
        guard let descriptor = byName[name] else { throw GraphError.unknownFilter(name, message: unknownFilterMessage(name)) }
        return descriptor
    }

    /// Applies filter `name` with `parameters` (Core Image input keys), checking every key, type and
    /// range first.
    public func apply(_ name: String, parameters: [String: FilterValue]) throws -> Image {
        let descriptor = try descriptor(named: name)
        return try descriptor.build(try validate(descriptor, parameters))
    }

    /// Checks parameters against the descriptor and fills in defaults.
    public func validate(_ descriptor: FilterDescriptor, _ parameters: [String: FilterValue]) throws -> FilterArguments {
        var values: [String: FilterValue] = [:]
        for key in parameters.keys.sorted() where descriptor.input(key) == nil {
            throw GraphError.unknownParameter(filter: descriptor.name, key: key,
                                              suggestion: NameSuggestion.closest(to: key, among: descriptor.inputs.map(\.key)))
        }
        for input in descriptor.inputs {
            guard let value = parameters[input.key] ?? input.defaultValue else {
                // Inputs without a default are required when they are images, optional otherwise.
                if input.type == .image { throw GraphError.missingInput(filter: descriptor.name, key: input.key) }
                continue
            }
            values[input.key] = try check(value, against: input, filter: descriptor.name)
        }
        return FilterArguments(filter: descriptor.name, values: values)
    }

    private func check(_ value: FilterValue, against input: FilterInput, filter: String) throws -> FilterValue {
        func fail(_ reason: String) -> GraphError {
            GraphError.invalidParameter(filter: filter, key: input.key, reason: reason)
        }
        switch (input.type, value) {
        case (.image, .image), (.transform, .transform), (.rect, .rect), (.bool, .bool), (.colorSpace, .colorSpace),
             (.cameraCalibration, .cameraCalibration):
            return value
        case (.colorSpace, .string(let name)):
            guard let space = NamedColorSpaces.space(named: name) else {
                throw fail("unknown colour space \"\(name)\"; expected one of " + NamedColorSpaces.all.map { "\"\($0.name)\"" }.joined(separator: ", "))
            }
            return .colorSpace(space)
        case (.data, .data), (.string, .string), (.barcodeDescriptor, .barcodeDescriptor), (.attributedText, .attributedText):
            return value
        case (.attributedText, .string(let text)):
            return .attributedText(AttributedText(text))
        case (.data, .vector(let v)):
            guard v.allSatisfy(\.isFinite) else { throw fail("data values must be finite") }
            return .floats(v.map { Float($0) })
        case (.color, .color(let v, let space)):
            guard v.count == 3 || v.count == 4 else { throw fail("expected a colour of 4 numbers (or 3), got \(v.count)") }
            guard v.allSatisfy(\.isFinite) else { throw fail("colour components must be finite") }
            return .color(v.count == 3 ? v + [1] : v, colorSpace: space)
        case (.transform, .vector(let v)) where v.count == 6:
            return .transform(AffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5]))
        case (.rect, .vector(let v)) where v.count == 4:
            guard v[2] >= 0, v[3] >= 0 else { throw fail("a rectangle's width and height must not be negative") }
            return .rect(Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
        case (.number, .number(let n)):
            guard n.isFinite else { throw fail("expected a finite number, got \(n)") }
            if let minimum = input.minimum, n < minimum { throw fail("\(n) is below the minimum \(minimum)") }
            if let maximum = input.maximum, n > maximum { throw fail("\(n) is above the maximum \(maximum)") }
            return value
        case (.vector, .vector(let v)), (.color, .vector(let v)):
            if input.type == .color, v.count == 3 { return .color(v + [1]) }
            if let count = input.count, v.count != count {
                throw fail("expected a vector of \(count) numbers, got \(v.count)")
            }
            guard v.allSatisfy(\.isFinite) else { throw fail("vector components must be finite") }
            return input.type == .color ? .color(v) : value
        case (.vectors, .vectors(let list)):
            for (index, v) in list.enumerated() {
                if let count = input.count, v.count != count {
                    throw fail("element \(index): expected a vector of \(count) numbers, got \(v.count)")
                }
                guard v.allSatisfy(\.isFinite) else { throw fail("element \(index): vector components must be finite") }
            }
            return value
        case (.color, .number), (.vector, .number):
            throw fail("expected a vector of \(input.count ?? 4) numbers, got a number")
        default:
            throw fail("expected \(describe(input)), got \(value.typeDescription)")
        }
    }

    private func describe(_ input: FilterInput) -> String {
        switch input.type {
        case .image: return "an image"
        case .number: return "a number"
        case .vector: return "a vector" + (input.count.map { " of \($0) numbers" } ?? "")
        case .color: return "a colour (4 numbers)"
        case .transform: return "a transform (6 numbers a b c d tx ty)"
        case .rect: return "a rectangle (4 numbers x y width height)"
        case .bool: return "a boolean"
        case .data: return "data (Float32 values)"
        case .colorSpace: return "a colour space"
        case .cameraCalibration: return "a camera calibration"
        case .string: return "a string"
        case .vectors: return "a list of vectors" + (input.count.map { " of \($0) numbers each" } ?? "")
        case .barcodeDescriptor: return "a barcode descriptor ({\"symbology\": \"QR\", \"message\": \"…\"})"
        case .attributedText: return "styled text (a string, or runs [{\"text\": …, \"font\": …, \"size\": …, \"color\": […]}])"
        }
    }
}

extension Image {
    /// Applies a filter of the standard catalogue by its Core Image name; this image is `inputImage`.
    /// Values are ``FilterValue``s: literals (`0.8`, `[1, 0, 0, 0]`, `"sRGB"`, `true`) or wrapped
    /// (`.image(mask)`, `.rect(focus)`); the overload below takes them unwrapped.
    public func applyingFilter(_ name: String, parameters: [String: FilterValue] = [:]) throws -> Image {
        var all = parameters
        all["inputImage"] = .image(self)
        return try FilterRegistry.standard.apply(name, parameters: all)
    }

    /// The same with values as they are (``FilterValueConvertible``: `Image`, `Rect`,
    /// `AffineTransform`, numbers, `[Double]` vectors, `Bool`, `String`, `ColorSpace`, `Data`):
    /// `["inputDisparityImage": disparity, "inputAperture": 2.0, "inputFocusRect": Rect(...)]`.
    @_disfavoredOverload
    public func applyingFilter(_ name: String, parameters: [String: any FilterValueConvertible]) throws -> Image {
        try applyingFilter(name, parameters: parameters.filterValues)
    }

    /// Parameters typed `[String: Any]` (Core Image's) do not convert: say what does.
    @available(*, unavailable, message: "filter parameters are FilterValues: pass Image, Rect, AffineTransform, numbers, [Double], Bool or String values as they are in a dictionary literal, or wrap each (.image(photo), .rect(r), .number(x), .vector([...]), .color([...]))")
    public func applyingFilter(_ name: String, parameters: [String: Any]) throws -> Image {
        throw GraphError.invalidParameter(filter: name, key: "parameters", reason: "typed [String: Any]; use FilterValue")
    }

    /// A generator's output image (`CIFilter(name:)` with no input image).
    public static func filter(_ name: String, parameters: [String: FilterValue] = [:]) throws -> Image {
        try FilterRegistry.standard.apply(name, parameters: parameters)
    }

    /// The same with values as they are (``FilterValueConvertible``).
    @_disfavoredOverload
    public static func filter(_ name: String, parameters: [String: any FilterValueConvertible]) throws -> Image {
        try FilterRegistry.standard.apply(name, parameters: parameters.filterValues)
    }
}
