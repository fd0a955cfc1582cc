import GraphCodecs

/// Auxiliary JPEGs (a depth map, a matte) to append after a primary image, rendered and encoded on
/// a thread of their own while the primary renders: they do not depend on it, and their serial
/// parts (decoding the maps, encoding them) then overlap the primary's (decoding the photo,
/// encoding it). Without a thread (none could be started) they are made when asked for.
final class AppendedImages: @unchecked Sendable {
    private let make: @Sendable () throws -> [[UInt8]]
    private var thread: JoinableThread?
    /// Written by the thread before it ends; read after joining it.
    private var made: Result<[[UInt8]], Error>?

    init(_ make: @escaping @Sendable () throws -> [[UInt8]]) { self.make = make }

    /// Starts making them.
    func start() {
        guard thread == nil, made == nil else { return }
        thread = JoinableThread { [self] in made = Result { try make() } }
    }

    /// The encoded images, once made (rethrowing what making them threw).
    func result() throws -> [[UInt8]] {
        thread?.join()
        thread = nil
        let outcome = made ?? Result { try make() }
        made = outcome
        return try outcome.get()
    }

    /// Waits for the thread when the primary failed (its result is dropped).
    func cancel() {
        thread?.join()
        thread = nil
    }
}
