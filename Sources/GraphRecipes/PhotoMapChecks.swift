import GraphEngine
import Kernels

/// The checks of the maps a recipe's filters read with a photo: a disparity or depth map, a
/// matte, read from a file.
extension RecipeBuilder {
    /// After every image is built: throws when a filter input that takes a map of the photo
    /// (`FilterInput.photoMap`: CIDepthBlurEffect's `inputDisparityImage`) reads a colour photo
    /// file (``ColourPhotoFile``) rather than a map, and returns a warning for each map and photo
    /// that one filter reads from different files when their extents (as built: upright, cropped)
    /// have different aspect ratios, so the map cannot line up with the photo. A filter reads the
    /// files of its inputs and, through inputs built from other images, theirs (a mask made from the
    /// map and brought to the photo's size reads both). A map is an auxiliary image of a file or a
    /// file read where a map of the photo is taken; a photo is any other file image.
    package func checkPhotoMaps() throws -> [String] {
        var warnings: [String] = []
        var warned = Set<[String]>()
        var reads: [String: FileReads] = [:]
        for name in recipe.imageOrder {
            guard let spec = recipe.images[name], let (photos, maps) = try fileReads(of: name, known: &reads) else { continue }
            for photo in photos {
                for map in maps where map.file != photo.file && !warned.contains([photo.name, map.name]) {
                    guard let mapExtent = built[map.name]?.extent, let photoExtent = built[photo.name]?.extent,
                          let mapAspect = Self.aspect(mapExtent), let photoAspect = Self.aspect(photoExtent),
                          abs(mapAspect / photoAspect - 1) > 0.01 else { continue }
                    warned.insert([photo.name, map.name])
                    let kind = map.kind.map { "the \(RecipeDecoder.auxiliaryName($0)) map" } ?? "the map"
                    warnings.append("\(spec.path): \"\(map.name)\", \(kind) (\(Self.size(mapExtent)) from '\(map.file)'), and "
                                    + "\"\(photo.name)\", the photo (\(Self.size(photoExtent)) from '\(photo.file)'), come from different "
                                    + "files and their aspect ratios differ: the map is stretched over the photo and does not line up with it")
                }
            }
        }
        return warnings
    }

    /// The photo and map files an image reads, directly or through the images its inputs are built
    /// from (nil for a file image itself).
    private typealias FileReads = (photos: [(name: String, file: String)], maps: [(name: String, file: String, kind: AuxiliaryImage?)])

    /// The files `name` reads (see ``FileReads``), memoised in `known`; throws when a map input
    /// reads a colour photo file.
    private func fileReads(of name: String, known: inout [String: FileReads]) throws -> FileReads? {
        if let done = known[name] { return done }
        guard let spec = recipe.images[name] else { return nil }
        if case .file = spec.source { return nil }
        var descriptor: FilterDescriptor?
        if case .filter(let filter, _, _) = spec.source { descriptor = try? registry.descriptor(named: filter) }
        var photos: [(name: String, file: String)] = [], maps: [(name: String, file: String, kind: AuxiliaryImage?)] = []
        known[name] = (photos, maps)  // a cycle reads nothing more
        for (reference, site) in references(of: name) {
            guard case .file(let file, _, let auxiliary)? = recipe.images[reference]?.source else {
                if let (morePhotos, moreMaps) = try fileReads(of: reference, known: &known) {
                    photos += morePhotos.filter { photo in !photos.contains { $0.name == photo.name } }
                    maps += moreMaps.filter { map in !maps.contains { $0.name == map.name } }
                }
                continue
            }
            let key = String(site.dropFirst("\(spec.path).inputs.".count))
            if let auxiliary {
                maps.append((reference, file, auxiliary))
            } else if let map = descriptor?.input(key)?.photoMap {
                if ColourPhotoFile.isColourPhoto(file) {
                    let kind = RecipeDecoder.auxiliaryName(map)
                    let hint = (try? DepthPhoto(contentsOf: file))?.has(map) == true
                        ? #"use {"file": "\#(file)", "auxiliary": "\#(kind)"} for the photo's own \#(kind)"#
                        : "give a grey \(kind) map, or a depth photo's own: {\"file\": \"PHOTO\", \"auxiliary\": \"\(kind)\"}"
                    throw RecipeError(site, "image \"\(reference)\" reads '\(file)', a colour photo, not a \(kind) map; \(hint)")
                }
                maps.append((reference, file, map))
            } else {
                photos.append((reference, file))
            }
        }
        known[name] = (photos, maps)
        return (photos, maps)
    }

    /// Width over height of a finite, non-empty extent.
    private static func aspect(_ extent: Rect) -> Double? {
        extent.isInfinite || extent.isEmpty ? nil : extent.width / extent.height
    }

    /// `WxH` of a finite extent.
    private static func size(_ extent: Rect) -> String {
        let pixels = PixelSize(extent)
        return "\(pixels.width)x\(pixels.height)"
    }
}

extension DepthPhoto {
    /// Whether the file has the auxiliary image `map` (a depth or disparity map gives either).
    package func has(_ map: AuxiliaryImage) -> Bool {
        info(for: map) != nil
    }
}
