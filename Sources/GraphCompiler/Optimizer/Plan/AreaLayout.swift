/// How an area stage runs: which channels its pass computes and which inputs load one channel.
package struct AreaLayout: Hashable {
    /// 4; 3 when the output is opaque (alpha is 1); 1 when it is also grey (red is green and blue).
    package let channels: Int
    /// Per input: grey, loaded as one channel (only when `channels` is 1).
    package let greyInputs: [Bool]
}
