import CCodecShims

/// Owns a C `ccs_report` (the error and warnings collected by the shims for one operation).
final class LibraryReport {
    let pointer: OpaquePointer?

    init() { pointer = ccs_report_create() }
    deinit { ccs_report_destroy(pointer) }

    /// The library's fatal error message ("" when none).
    var error: String { ccs_report_error(pointer).map { FileText.escaped(cString: $0) } ?? "" }
    /// libjpeg msg_code of the fatal error.
    var errorCode: Int { Int(ccs_report_error_code(pointer)) }
    var flags: Int32 { ccs_report_flags(pointer) }
    var prematureEnd: Bool { flags & CCS_FLAG_PREMATURE_END != 0 }
    var scanLimitHit: Bool { flags & CCS_FLAG_SCAN_LIMIT != 0 }

    /// Distinct warnings in order; a final note when more were emitted than stored.
    var warnings: [String] {
        let stored = Int(ccs_report_warning_count(pointer))
        var list = (0..<stored).map { index in
            ccs_report_warning(pointer, Int32(index)).map { FileText.escaped(cString: $0) } ?? ""
        }
        let total = Int(ccs_report_total_warnings(pointer))
        if total > stored { list.append("(\(total) warnings in total)") }
        return list
    }
}
