import GraphCodecs

extension DepthPhoto {
    /// The photo's Dynamic Depth container for an output that edits it (`edited`, made from
    /// `photo`, this file's main image loaded with `orientation`), every item moved like the
    /// photo by `follow` (unless `unchanged`), in the directory's order:
    ///
    /// - the depth map: ``AuxiliaryImages/depthData`` (moved by the caller);
    /// - Confidence and an Ultra HDR gain map: moved like the depth map at their own resolution
    ///   (a gain map keeps its own `hdrgm:` XMP; one of several channels that moved is dropped);
    /// - the Original: the edit replayed on it (`replayingEdit(_:from:on:)`), so that an app
    ///   re-rendering the portrait from it shows the edit, keeping its own EXIF, XMP and gain map
    ///   (`originalStructure`); copied as is when the output is the
    ///   photo itself, or when the output is rendered from the Original (`fromOriginal`) without
    ///   moving its pixels (it is still the capture the output came from; colour edits in such a
    ///   chain are therefore not in it: the output itself would bake its depth effect into the
    ///   capture, and the chain is not split into depth effects and the rest). Dropped when the photo
    ///   is turned upright by its EXIF orientation (the Original is stored like the primary's
    ///   pixels, and is not turned here), or rendered from and moved.
    ///
    /// `Camera:ImagingModel` follows the edit's pixel grid `grid` (`writtenImagingModel`). The
    /// descriptions of the frame that cannot (the imaging model under a warp, the Google camera
    /// notes once pixels move) are dropped with one warning naming each.
    ///
    /// Items that cannot be kept (unknown semantics such as a Motion Photo video, items that do
    /// not decode) are dropped, each with a warning naming it. Nil (the depth map is then written
    /// as GDepth) when the photo is not Dynamic Depth or its extended XMP, which holds the depth
    /// description on a Pixel, cannot be carried (its MD5 does not match its GUID).
    func dynamicDepthContainer(following edited: Image, from photo: Image, orientation: AuxiliaryOrientation, unchanged: Bool,
                               fromOriginal: Bool, grid: EditedPixelGrid, follow: (Image) -> Image,
                               warnings: inout [String]) -> DynamicDepthContainer? {
        guard let depthInfo = depthMapInfo, let description = depthInfo.dynamicDepth,
              case .containerItem(_, let depthRange) = depthInfo.location, let main = info.metadata.xmp else { return nil }
        let extended = info.metadata.carriableExtendedXMP
        if info.metadata.extendedXMP != nil && extended == nil {
            warnings.append("\(path): the Dynamic Depth container is not written (the extended XMP holding its description does not match its GUID); the depth map is written as GDepth")
            return nil
        }
        let directory: [GoogleContainer.Item]
        do throws(CodecError) {
            guard let found = try GoogleContainer.directory(mainPacket: XMPProperties.parse(main),
                                                            extendedPacket: extended.map(XMPProperties.parse) ?? XMPProperties()),
                  let primaryEnd = JPEGStreams.endOfStream(bytes, from: 0) else { return nil }
            directory = GoogleContainer.locate(found, in: bytes, primaryEnd: primaryEnd).items
        } catch {
            warnings.append("\(path): the Dynamic Depth container is not written: \(error.message)")
            return nil
        }
        var items: [DynamicDepthContainer.Item] = []
        for item in directory.dropFirst() {
            let name = "\(path): its Dynamic Depth \(item.semantic) item (\(item.mime))"
            guard let range = item.range else {
                warnings.append("\(name) is not written: \(item.problem ?? "it was not found in the file")")
                continue
            }
            let stored = Array(bytes[range])
            func keep(_ content: DynamicDepthContainer.Item.Content, storedMap: Image?) {
                items.append(DynamicDepthContainer.Item(
                    semantic: item.semantic, mime: item.mime, dataURI: item.dataURI, content: content,
                    stored: storedMap.map { StoredAuxiliary(encoded: .containerItem(stored), map: $0, kind: nil) }))
            }
            if range == depthRange {
                keep(.depth, storedMap: nil)
                continue
            }
            do {
                switch item.semantic.lowercased() {
                case "confidence", "gainmap":
                    let isGainMap = item.semantic.lowercased() == "gainmap"
                    guard let aux = info(for: isGainMap ? .gainMap : .confidence) else {
                        warnings.append("\(name) is not written: its image could not be described")
                        continue
                    }
                    if isGainMap, !unchanged, aux.channels != 1 {
                        warnings.append("\(name) is not written: a gain map of \(aux.channels) channels is not moved with the edit")
                        continue
                    }
                    try checkUsable(aux)
                    let samples = try decodeSamples(aux, orientation: orientation)
                    let map = try samples.image((0...Int(samples.maximum)).map { Float(Double($0) / samples.maximum) })
                    let moved = unchanged ? map : follow(map)
                    let storedMap = samples.orientationApplied ? nil : map
                    if isGainMap {
                        keep(.gainMap(moved, xmp: try ImageFile.info(stored).metadata.xmp), storedMap: storedMap)
                    } else {
                        keep(.confidence(moved), storedMap: storedMap)
                    }
                case "original":
                    guard let original = try originalImage() else { continue }
                    if edited.node === photo.node || (fromOriginal && unchanged) {
                        keep(.original(original, own: nil), storedMap: original)
                    } else if fromOriginal {
                        warnings.append("\(name) is not written: the output is rendered from it and moves its pixels")
                    } else if orientation == .upright && info.metadata.exifOrientation != 1 {
                        warnings.append("\(name) is not written: the photo is turned upright by its EXIF orientation, the Original is not")
                    } else if let replayed = Self.replayingEdit(edited, from: photo, on: original) {
                        let own = try originalStructure(stored, name: name, unchanged: unchanged, follow: follow, warnings: &warnings)
                        keep(.original(replayed, own: own), storedMap: nil)
                    } else {
                        warnings.append("\(name) is not written: the edit cannot be replayed on it")
                    }
                default:
                    warnings.append("\(name) is not written: only the depth, confidence, gain map and original items are carried")
                }
            } catch {
                warnings.append("\(name) is not written: \(error)")
            }
        }
        let size = edited.extent.integral
        let (imagingModel, modelProblem) = writtenImagingModel(description.imagingModel, grid: grid, photoExtent: photo.extent,
                                                               orientation: orientation, width: Int(size.width), height: Int(size.height))
        // One line naming every description of the frame that is dropped.
        var dropped = modelProblem.map { ["Camera:ImagingModel (the primary's intrinsics; \($0))"] } ?? []
        if !unchanged { dropped += DynamicDepthPackets.frameNotes(in: [main] + (extended.map { [$0] } ?? [])) }
        if !dropped.isEmpty {
            let why = unchanged ? "its descriptions of the frame are not written"
                : "the edit moves its pixels, so its descriptions of the unedited frame are not written"
            warnings.append("\(path): \(why): " + dropped.joined(separator: ", "))
        }
        return DynamicDepthContainer(items: items, mainPacket: main, extendedPacket: extended, description: description,
                                     sourceSemantics: directory.dropFirst().map(\.semantic), pixelsMoved: !unchanged,
                                     imagingModel: imagingModel)
    }

    /// `Camera:ImagingModel` (`model`, the intrinsics of the primary as stored, at its
    /// `ImageWidth`×`ImageHeight`, the primary's size when it names none) for an output of
    /// `width`×`height` made from `photo` (the main image loaded with `orientation`, or the
    /// Original: the same frame at another size) by an edit that moved its pixels by `grid`:
    /// turned upright with the photo, scaled onto it, then moved like its pixels
    /// (`DynamicDepthMetadata.ImagingModel.mapped(by:width:height:)`: a crop shifts the principal
    /// point, a scale multiplies the focal lengths and principal point, a quarter turn swaps the
    /// axes). The model itself when nothing moved; nil with the reason when the edit cannot be
    /// followed (a warp, a rotation by another angle) or the photo is not the model's frame.
    func writtenImagingModel(_ model: DynamicDepthMetadata.ImagingModel?, grid: EditedPixelGrid, photoExtent: Rect,
                             orientation: AuxiliaryOrientation, width: Int, height: Int) -> (DynamicDepthMetadata.ImagingModel?, String?) {
        guard let model else { return (nil, nil) }
        let frame = (width: Double(model.imageWidth ?? info.width), height: Double(model.imageHeight ?? info.height))
        // The model's frame onto the primary as stored, then upright as the photo was loaded.
        guard let toStored = PixelGridMap.scale(Double(info.width) / frame.width, Double(info.height) / frame.height) else {
            return (nil, "it names an empty image size")
        }
        let turn = orientation == .upright ? info.metadata.exifOrientation : 1
        let upright = PixelGridMap.orientation(turn, width: Double(info.width), height: Double(info.height))
        let (uprightWidth, uprightHeight) = upright.swapsAxes ? (info.height, info.width) : (info.width, info.height)
        let (edit, problem) = grid.map(fromFrame: Double(uprightWidth), Double(uprightHeight),
                                       photoWidth: photoExtent.width, photoHeight: photoExtent.height)
        guard let edit else { return (nil, problem) }
        let scales = toStored.sourceScales
        guard abs(scales.x - scales.y) <= DynamicDepthMetadata.ImagingModel.framingTolerance * max(scales.x, scales.y) else {
            return (nil, "it describes a \(Int(frame.width))x\(Int(frame.height)) frame, not the primary's \(info.width)x\(info.height)")
        }
        let map = toStored.followed(by: upright).followed(by: edit)
        if map.isIdentity && model.imageWidth.map({ $0 == width }) != false && model.imageHeight.map({ $0 == height }) != false {
            return (model, nil)
        }
        return (model.mapped(by: map, width: width, height: height), nil)
    }

    /// What the Original item's own JPEG (`stored`) holds beside its pixels, for a re-encoded
    /// Original: the quality its tables are nearest to, its EXIF, its XMP packets, and the gain map its `Container:Directory` names
    /// (a Pixel's Original is itself an Ultra HDR JPEG), moved by `follow` like the Original
    /// unless `unchanged`. A gain map that cannot be kept (not found where the directory says,
    /// several channels once moved, undecodable) is left out with a warning naming it; the
    /// Original is then written without one.
    func originalStructure(_ stored: [UInt8], name: String, unchanged: Bool, follow: (Image) -> Image,
                           warnings: inout [String]) throws -> DynamicDepthContainer.Item.OriginalStructure {
        let metadata = try ImageFile.info(stored).metadata
        var gainMap: Image?, gainMapPacket: String?, kept: (bytes: [UInt8], map: Image)?
        if let main = metadata.xmp, GoogleContainer.isPresent(inMainPacket: main) {
            let directory = try GoogleContainer.directory(mainPacket: XMPProperties.parse(main),
                                                          extendedPacket: metadata.carriableExtendedXMP.map(XMPProperties.parse) ?? XMPProperties())
            if let listed = directory?.first(where: { $0.semantic.lowercased() == "gainmap" }) {
                let gainName = "\(name): its own gain map"
                if let primaryEnd = JPEGStreams.endOfStream(stored, from: 0),
                   let item = GoogleContainer.locate(directory ?? [], in: stored, primaryEnd: primaryEnd).items
                       .first(where: { $0.semantic == listed.semantic }), let range = item.range {
                    let bytes = Array(stored[range])
                    do {
                        let decoded = try JPEGCodec.decode(bytes, options: DecodeOptions(applyOrientation: false))
                        if decoded.channels != 1 && !unchanged {
                            warnings.append("\(gainName) is not written: a gain map of \(decoded.channels) channels is not moved with the edit")
                        } else {
                            let samples = StoredSamples(decoded)
                            let map = try samples.image((0...Int(samples.maximum)).map { Float(Double($0) / samples.maximum) })
                            gainMap = unchanged ? map : follow(map)
                            gainMapPacket = try ImageFile.info(bytes).metadata.xmp
                            kept = (bytes, map)
                        }
                    } catch {
                        warnings.append("\(gainName) is not written: \(error)")
                    }
                } else {
                    warnings.append("\(gainName) is not written: it was not found where its directory says")
                }
            }
        }
        return .init(quality: JPEGQuality.estimate(stored), exif: metadata.exif, mainPacket: metadata.xmp, extendedPacket: metadata.carriableExtendedXMP,
                     gainMap: gainMap, gainMapPacket: gainMapPacket, stored: kept)
    }

    /// `edited` (made from `photo`) replayed on `original`, a picture of the same scene at
    /// another resolution (a Pixel's Original is 2024×2688 under a 3072×4080 primary): the
    /// original is scaled to the photo's extent, the edit's recipe run on it in the photo's
    /// place, and the result scaled back by the same ratio, so the original keeps its own
    /// resolution relative to the edited image (filters whose sizes are in pixels act as on the
    /// photo). Nil when `edited` is not made from `photo`.
    static func replayingEdit(_ edited: Image, from photo: Image, on original: Image) -> Image? {
        let (source, target) = (original.extent, photo.extent)
        guard !source.isEmpty, !source.isInfinite, !target.isEmpty, !target.isInfinite else { return nil }
        let fitted = source == target ? original : original.clampedToExtent().transformed(by:
            AffineTransform(translationX: -source.x, y: -source.y)
                .concatenating(AffineTransform(scaleX: target.width / source.width, y: target.height / source.height))
                .concatenating(AffineTransform(translationX: target.x, y: target.y))).cropped(to: target)
        guard let replayed = edited.replacingSource(photo, with: fitted) else { return nil }
        if source == target { return replayed }
        let extent = replayed.extent
        guard !extent.isEmpty, !extent.isInfinite else { return nil }
        let width = max(1, (extent.width * source.width / target.width).rounded())
        let height = max(1, (extent.height * source.height / target.height).rounded())
        return replayed.clampedToExtent().transformed(by:
            AffineTransform(translationX: -extent.x, y: -extent.y)
                .concatenating(AffineTransform(scaleX: width / extent.width, y: height / extent.height)))
            .cropped(to: Rect(x: 0, y: 0, width: width, height: height))
    }
}
