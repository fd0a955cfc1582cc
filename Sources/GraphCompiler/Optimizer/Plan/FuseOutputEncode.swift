/// Fuses the output's encode to sRGB into the store: when the root converts to an sRGB transfer
/// and the destination is 8-bit, the sink encodes (and unpremultiplies what it must) while
/// quantising, so the root program stops before the encode.
struct FuseOutputEncode: PlanPass {
    let name = "fuse-output-encode"

    func run(_ plan: inout Plan, log: inout [String]) throws {
        guard let destination = plan.destination, destination.component == .uint8,
              case .colorConversion(let conversion) = plan.root.kind, conversion.to.transfer == .sRGB
        else { return }
        plan.encodesSRGBInStore = true
        log.append("#\(plan.root.serial) \(conversion.shortName): sRGB encode fused into the \(destination.rawValue) store")
    }
}
