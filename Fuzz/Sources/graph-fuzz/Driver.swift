#if canImport(Glibc)
import Glibc
#endif
import Kernels

/// The target `GRAPH_FUZZ_TARGET` names, chosen once when libFuzzer starts.
nonisolated(unsafe) private var selected: FuzzTarget?

/// libFuzzer's start-up hook: picks the target, or lists them (`GRAPH_FUZZ_TARGET=list`).
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    let name = getenv("GRAPH_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    if name == "list" {
        for target in FuzzTarget.all { print(target.name) }
        exit(0)
    }
    guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        print("graph-fuzz: set GRAPH_FUZZ_TARGET to one of: \(names) (got \"\(name)\")")
        exit(2)
    }
    selected = target
    // Globals made once live as long as the process, but the filter catalogue's default tables
    // are `Data` inside enums, whose tagged pointers LeakSanitizer cannot follow: it reads them
    // as a leak (of the first input that makes them, or at exit). Made here with leak checking
    // off, which is what these calls are for.
    lsanDisable()
    _ = FilterRegistry.standard
    lsanEnable()
    return 0
}

@_silgen_name("__lsan_disable") private func lsanDisable()
@_silgen_name("__lsan_enable") private func lsanEnable()

/// libFuzzer's entry point: one input to the selected target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected?.run(bytes)
    return 0
}
