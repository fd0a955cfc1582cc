import GraphEngine

extension VideoRender {
    /// The recipe's plan for the first frame of `input` and its timings (one render, nothing
    /// written): where a video's render time goes (`graph video --profile`).
    public static func profileFirstFrame(recipe: VideoRecipe, input: String, depth: DepthSource?,
                                         filter: DepthFilter = DepthFilter(), context: Context? = nil) throws -> GraphDump {
        let reader = try VideoReader(path: input)
        guard let frame = try reader.next() else { throw VideoError(file: input, "the video has no frame") }
        guard case .yuv(let yuv) = frame.samples else {
            throw VideoError(file: input, frame: frame.index, seconds: frame.seconds, "the video frame is grey; a colour video is expected")
        }
        var filter = filter
        let map = try depth.map { try filter.apply(try $0.map(frame: frame.index, seconds: frame.seconds,
                                                             videoFrameDuration: reader.info.frameDuration ?? 0.04)) }
        let image = try recipe.images(frame: Image(yuv: yuv), depth: map).output
        let context = context ?? Context(options: recipe.contextOptions)
        // Once to compile the programs (as every frame after the first finds them), then timed
        // without the first render's cached intermediates (a new frame has none).
        _ = try context.render(image, format: .rgba8)
        context.removeCachedImages()
        return try context.dumpWithProfile(image, format: .rgba8)
    }
}
