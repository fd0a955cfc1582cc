import GraphEngine
import Kernels

extension JSON {
    /// A filter value as the recipe format writes it: numbers, vectors, transforms and rectangles as
    /// numbers or arrays (an infinite rectangle as `"infinite"`), colours as their components (with
    /// the colour space's name unless sRGB), data as its Float32 values, images as `"image"`.
    /// `graph filters` prints defaults this way, and the generated builders' doc comments state them.
    package init(_ value: FilterValue) {
        switch value {
        case .number(let n): self = .number(n)
        case .vector(let v): self = .array(v.map { .number($0) })
        case .transform(let t): self = .array(t.coefficients.map { .number($0) })
        case .rect(let r):
            self = r.isInfinite ? .string("infinite") : .array([r.x, r.y, r.width, r.height].map { .number($0) })
        case .bool(let b): self = .bool(b)
        case .string(let s): self = .string(s)
        case .image: self = .string("image")
        case .color(let v, let space):
            let components = JSON.array(v.map { .number($0) })
            self = space == .sRGB ? components
                : .object([("color", components), ("colorSpace", .string(NamedColorSpaces.name(of: space) ?? space.name))])
        case .data(let data):
            let floats = data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { raw.loadUnaligned(fromByteOffset: $0 * 4, as: Float.self) } }
            self = .array(floats.map { .number(Double($0)) })
        case .colorSpace(let space): self = .string(NamedColorSpaces.name(of: space) ?? space.name)
        case .cameraCalibration: self = .string("camera calibration")
        case .vectors(let list): self = .array(list.map { .array($0.map { .number($0) }) })
        case .barcodeDescriptor(let descriptor): self = JSON(descriptor)
        case .attributedText(let text): self = JSON(text)
        }
    }
}
