import Foundation
import GraphCodecs
import GraphEngine
import GraphRecipes

/// The status codes the `ge_*` functions return (`GE_OK`, `GE_ERROR_...` in graphengine.h).
enum Status: Int32 {
    case ok = 0
    case invalidArgument = 1
    case io = 2
    case unknownFilter = 3
    case invalidParameter = 4
    case render = 5
    case recipe = 6
    case cancelled = 7
    case depth = 8
}

/// An error found at the boundary itself (a NULL handle, an unknown format name): its status and
/// the message the caller gets.
struct BoundaryError: Error, CustomStringConvertible {
    let status: Status
    let description: String

    init(_ description: String, status: Status = .invalidArgument) {
        self.status = status
        self.description = description
    }
}

/// A `char **` out-parameter for a message or a result string (may be NULL: the caller does not want it).
public typealias StringOut = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

/// Runs `body` and turns whatever it throws into a status code and a message in `message`
/// (allocated with malloc: the caller frees it with `ge_string_free`); nothing is thrown across the
/// C boundary.
func catching(_ message: StringOut, _ body: () throws -> Void) -> Int32 {
    message?.pointee = nil
    do {
        try body()
        return Status.ok.rawValue
    } catch {
        let (status, text) = classify(error)
        message?.pointee = strdup(text)
        return status.rawValue
    }
}

/// The status that stands for `error`, and its message as the engine words it.
func classify(_ error: any Error) -> (Status, String) {
    switch error {
    case let error as BoundaryError: return (error.status, error.description)
    case let error as GraphError:
        switch error {
        case .unknownFilter: return (.unknownFilter, error.description)
        case .unknownParameter, .invalidParameter, .missingInput: return (.invalidParameter, error.description)
        case .invalidExtent, .invalidSize, .invalidKernel: return (.invalidArgument, error.description)
        case .renderFailed(let message): return (message == "render cancelled" ? .cancelled : .render, error.description)
        }
    case let error as RecipeError: return (.recipe, error.description)
    case let error as AuxiliaryImageError: return (.depth, error.description)
    case let error as CodecError: return (.io, error.description)
    default: return (.render, "\(error)")
    }
}

/// `text` copied into `out` with malloc (freed by `ge_string_free`); nothing when `out` is NULL.
func deliver(_ text: String, to out: StringOut) {
    out?.pointee = strdup(text)
}

/// The Swift string of a C string argument, or a `BoundaryError` naming `what` when it is NULL.
func string(_ pointer: UnsafePointer<CChar>?, _ what: String) throws -> String {
    guard let pointer else { throw BoundaryError("\(what) is NULL") }
    return String(cString: pointer)
}

/// The Swift string of an optional C string argument (NULL or empty: nil).
func optionalString(_ pointer: UnsafePointer<CChar>?) -> String? {
    guard let pointer, pointer.pointee != 0 else { return nil }
    return String(cString: pointer)
}
