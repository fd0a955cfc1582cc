import GraphCodecs

/// Auxiliary JPEGs (a depth map, a matte) to append after a primary image, rendered and encoded on
/// a thread of their own while the primary renders: they do not depend on it, and their serial
/// parts (decoding the maps, encoding them) then overlap the primary's (decoding the photo,
/// encoding it). Without a thread (none could be started) they are made when asked for.
/// The first `indexed` are listed in the primary's MPF index (all of Apple's; a Google
/// container's gain map only); the others follow them unindexed (the container's XMP lists them).
final class AppendedImages: @unchecked Sendable {
    private let make: @Sendable () throws -> [[UInt8]]
    private var thread: JoinableThread?
    /// Written by the thread before it ends; read after joining it.
    private var made: Result<[[UInt8]], Error>?
    /// How many of the images (the first ones) the MPF index lists; nil: all.
    let indexed: Int?

    init(_ make: @escaping @Sendable () throws -> [[UInt8]]) {
        self.make = make
        indexed = nil
    }

    /// Images already made (a Google container's items, which the primary's XMP measures).
    init(made images: [[UInt8]], indexed: Int) {
        make = { images }
        made = .success(images)
        self.indexed = indexed
    }

    /// The file: `primary` with an MPF index of the indexed images, then every image.
    func assemble(primary: [UInt8]) throws -> [UInt8] {
        let images = try result()
        let count = min(indexed ?? images.count, images.count)
        let head = count == 0 ? primary : try MPF.assemble(primary: primary, auxiliaries: Array(images[..<count]))
        return head + images[count...].joined()
    }

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
