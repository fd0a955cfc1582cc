/// Fuses the transfer decode of a colour conversion into the load of its 8-bit input (a buffer with
/// opaque or straight alpha): a 256-entry table decodes each byte as it is read, so the converted
/// photo needs no intermediate. Each reader decodes again, unless ``passesSharingADecode`` or more
/// area passes read it: it is then decoded once and stored (in the working format).
struct FuseSourceDecode: PlanPass {
    let name = "fuse-source-decode"

    /// Area passes reading one decoded photo from which it is stored once (decoded, converted and
    /// stored as half floats) rather than decoded by each (measured on the depth examples: two or
    /// three readers decode faster, the six of a masked variable blur load faster, each over its own
    /// halo: a half-float load costs a fraction of a decode).
    static let passesSharingADecode = 4

    func run(_ plan: inout Plan, log: inout [String]) throws {
        for node in plan.order {
            guard case .colorConversion(let conversion) = node.kind, FuseSourceDecode.applies(conversion, node.inputs[0])
            else { continue }
            plan.decodedWhileLoading.insert(ObjectIdentifier(node))
            let input = node.inputs[0]
            var decision = "#\(node.serial) \(conversion.shortName) of #\(input.serial) \(input.shortName): "
                + "the \(conversion.from.name) transfer decoded by a 256-entry table while loading"
            guard !plan.materializeEverything else {
                log.append(decision)
                continue
            }
            let passes = plan.areaReaders[ObjectIdentifier(node)] ?? 0
            if passes >= FuseSourceDecode.passesSharingADecode {
                plan.materialized.insert(ObjectIdentifier(node))
                decision += ", once, into an intermediate \(passes) area passes read"
            } else {
                plan.materialized.remove(ObjectIdentifier(node))
                decision += ", in each reader"
            }
            log.append(decision)
        }
    }

    /// Whether `conversion` can decode `input`'s transfer while loading it: an 8-bit buffer with
    /// opaque or straight alpha, of a transfer other than linear.
    static func applies(_ conversion: ColorConversion, _ input: Node) -> Bool {
        guard conversion.from.transfer != .linear, case .buffer(let buffer) = input.kind else { return false }
        return buffer.format.component == .uint8 && buffer.alphaMode != .premultiplied
    }
}
