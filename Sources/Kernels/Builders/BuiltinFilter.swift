import struct Foundation.Data
import GraphCodecs
import GraphEngine

/// Typed filter objects, in the manner of Core Image's `CIFilterBuiltins`:
///
/// ```swift
/// let blur = Filters.gaussianBlur()
/// blur.inputImage = photo
/// blur.radius = 10
/// let blurred = blur.outputImage          // nil when an input is missing or out of range
/// let checked = try blur.output()         // the same, throwing the reason
/// ```
///
/// One factory function and one class per catalogue filter, generated from ``FilterRegistry/standard``
/// (`FilterBuilders.generated.swift`; regenerate it with `scripts/generate-filter-builders.sh`, which
/// runs `swift package --allow-writing-to-package-directory generate-filter-builders`).
/// Property names are the input keys without `input`, as Core Image's (`inputRadius` → `radius`),
/// except `inputImage`.
public enum Filters {}

/// The base of the generated filter classes: a filter name and the values set so far, applied
/// through the catalogue (so checks, defaults and errors are the registry's).
///
/// A filter object is a mutable builder (like `CIFilter`): use it on one thread; the images it
/// makes are immutable and `Sendable`.
public class BuiltinFilter {
    /// The Core Image name (`CIGaussianBlur`).
    public let name: String
    /// The values set so far, by input key; inputs not set take their defaults.
    public private(set) var values: [String: FilterValue] = [:]

    init(name: String) { self.name = name }

    /// Any input by its Core Image key (`filter["inputRadius"] = 10`), for values the typed
    /// properties do not cover (a colour in Display P3, say). Setting nil removes the value.
    public subscript(key: String) -> FilterValue? {
        get { values[key] ?? descriptor?.input(key)?.defaultValue }
        set { values[key] = newValue }
    }

    /// The result, or nil when an input is missing, of the wrong type or out of range (as
    /// `CIFilter.outputImage`); ``output()`` says why.
    public var outputImage: Image? { try? output() }

    /// The result, checking every input against the catalogue.
    public func output() throws -> Image { try FilterRegistry.standard.apply(name, parameters: values) }

    private var descriptor: FilterDescriptor? { try? FilterRegistry.standard.descriptor(named: name) }

    // MARK: Typed access for the generated properties

    func image(_ key: String) -> Image? {
        if case .image(let image)? = values[key] { return image }
        return nil
    }

    func setImage(_ image: Image?, _ key: String) { values[key] = image.map(FilterValue.image) }

    func number(_ key: String) -> Double {
        if case .number(let n)? = self[key] { return n }
        return 0
    }

    func optionalNumber(_ key: String) -> Double? {
        if case .number(let n)? = self[key] { return n }
        return nil
    }

    func vector(_ key: String) -> [Double] {
        switch self[key] {
        case .vector(let v)?, .color(let v, _)?: return v
        case .rect(let r)?: return [r.x, r.y, r.width, r.height]
        default: return []
        }
    }

    func bool(_ key: String) -> Bool {
        if case .bool(let b)? = self[key] { return b }
        return false
    }

    func optionalBool(_ key: String) -> Bool? {
        if case .bool(let b)? = self[key] { return b }
        return nil
    }

    func string(_ key: String) -> String {
        if case .string(let s)? = self[key] { return s }
        return ""
    }

    func vectors(_ key: String) -> [[Double]] {
        if case .vectors(let list)? = self[key] { return list }
        return []
    }

    func attributedText(_ key: String) -> AttributedText? {
        if case .attributedText(let text)? = self[key] { return text }
        return nil
    }

    func barcodeDescriptor(_ key: String) -> BarcodeDescriptor? {
        if case .barcodeDescriptor(let d)? = self[key] { return d }
        return nil
    }

    func rect(_ key: String) -> Rect {
        switch self[key] {
        case .rect(let r)?: return r
        case .vector(let v)? where v.count == 4: return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
        default: return .infinite
        }
    }

    func transform(_ key: String) -> AffineTransform {
        if case .transform(let t)? = self[key] { return t }
        return AffineTransform.identity
    }

    func data(_ key: String) -> Data {
        if case .data(let d)? = self[key] { return d }
        return Data()
    }

    func colorSpace(_ key: String) -> ColorSpace? {
        switch self[key] {
        case .colorSpace(let space)?: return space
        case .string(let name)?: return NamedColorSpaces.space(named: name)
        default: return nil
        }
    }

    func cameraCalibration(_ key: String) -> CameraCalibration? {
        if case .cameraCalibration(let calibration)? = self[key] { return calibration }
        return nil
    }

    func set(_ value: FilterValue?, _ key: String) { values[key] = value }
}
