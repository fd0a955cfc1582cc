/// What a read outside an input's data gives.
package enum EdgeMode: String, Hashable, Sendable {
    /// Transparent black (Core Image's behaviour outside an extent).
    case zero
    /// The nearest edge pixel (`clampedToExtent()`).
    case clamp
}
