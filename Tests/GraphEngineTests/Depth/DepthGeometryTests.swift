import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine
@testable import GraphIO
import Kernels

/// Depth maps follow a photo's edits: a synthetic depth photo (a 480×360 photo with a white square,
/// a 120×90 disparity map with a known ramp and a high-disparity square in the same place) is
/// cropped, scaled and rotated; the written map must line up with the written photo and hold the
/// ramp's values where the inverse transform says.
final class DepthGeometryTests: XCTestCase {
    static let photoSize = (480, 360), mapSize = (120, 90)
    /// The square, in photo working coordinates (y up).
    static let square = Rect(x: 280, y: 200, width: 80, height: 60)

    /// The ramp in map working coordinates: 1 + u/120 + v/90 (1...3), 4 inside the square.
    static func disparity(u: Double, v: Double) -> Double {
        let (x, y) = (u * 4, v * 4)
        if square.contains(Rect(x: x, y: y, width: 0, height: 0)) { return 4 }
        return 1 + u / 120 + v / 90
    }

    /// Writes the synthetic depth photo (EXIF `orientation` set when not 1, with the pixels and the
    /// map stored accordingly) and returns its path.
    static func writeSyntheticPhoto(in folder: URL, orientation: Int = 1) throws -> String {
        // Upright content first (rows top first), then stored by the inverse of the orientation.
        var photo = [Float](repeating: 0.4, count: photoSize.0 * photoSize.1)
        for row in 0..<photoSize.1 {
            for x in 0..<photoSize.0 {
                let y = Double(photoSize.1 - row) - 0.5
                if square.contains(Rect(x: Double(x) + 0.5, y: y, width: 0, height: 0)) { photo[row * photoSize.0 + x] = 1 }
            }
        }
        var map = [Float](repeating: 0, count: mapSize.0 * mapSize.1)
        for row in 0..<mapSize.1 {
            for u in 0..<mapSize.0 {
                map[row * mapSize.0 + u] = Float(disparity(u: Double(u) + 0.5, v: Double(mapSize.1 - row) - 0.5))
            }
        }
        func stored(_ values: [Float], _ width: Int, _ height: Int) throws -> Image {
            // Inverse of EXIF 6 (rotate 90° clockwise to show) is 8 (rotate anticlockwise).
            let inverse = [1: 1, 6: 8, 8: 6, 3: 3][orientation] ?? 1
            let bytes = values.withUnsafeBytes { Array($0) }
            let turned = Orientation.apply(inverse, bytes: bytes, width: width, height: height, pixelBytes: 4)
            return Image(buffer: try ImageBuffer(width: turned.width, height: turned.height, format: .grayf, colorSpace: nil,
                                                 bytes: turned.bytes))
        }
        let path = folder.appendingPathComponent("synthetic-\(orientation).jpg").path
        var metadata = ImageMetadata(format: .jpeg)
        metadata.exif = EXIF.makeOrientationTIFF(orientation)
        var options = ImageWriteOptions(quality: 95, subsampling: .s444, metadata: metadata, exifOrientation: orientation,
                                        colorSpace: .data)
        options.auxiliaryImages = AuxiliaryImages(depthData: DepthData(map: try stored(map, mapSize.0, mapSize.1), kind: .disparity))
        try Context().write(try stored(photo, photoSize.0, photoSize.1), to: path, options: options)
        return path
    }

    /// Centroid (x, y in working coordinates, y up) of the pixels above `threshold`.
    static func centroid(_ values: [Float], width: Int, height: Int, above threshold: Float) -> (Double, Double) {
        var (sx, sy, n) = (0.0, 0.0, 0.0)
        for row in 0..<height {
            for x in 0..<width where values[row * width + x] > threshold {
                sx += Double(x) + 0.5
                sy += Double(height - row) - 0.5
                n += 1
            }
        }
        return (sx / n, sy / n)
    }

    func testCropScaleRotationMovesTheMapWithThePhoto() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.writeSyntheticPhoto(in: folder)
        let photo = try Image(contentsOf: source)
        let edit = AffineTransform(scaleX: 0.75, y: 0.75).concatenating(AffineTransform(rotationAngle: 0.35))
        let edited = photo.cropped(to: Rect(x: 100, y: 60, width: 340, height: 260)).transformed(by: edit)
        let (auxiliary, warnings) = try DepthPhoto(contentsOf: source).auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(warnings, [])
        let output = folder.appendingPathComponent("edited.jpg").path
        try Context().write(edited, to: output,
                            options: ImageWriteOptions(quality: 95, colorSpace: .data, auxiliaryImages: auxiliary))

        let written = try DepthPhoto(contentsOf: output)
        let depth = try written.depthData()
        XCTAssertNil(depth.calibration)
        let map = try DepthTestData.values(depth.map)
        let outputExtent = edited.extent.integral
        XCTAssertEqual(Double(map.width), (outputExtent.width / 4).rounded())
        XCTAssertEqual(Double(map.height), (outputExtent.height / 4).rounded())

        // Lines up: the square's centroid in the photo and in the map (scaled to photo pixels).
        let pixels = try Image(contentsOf: output)
        let grey = try DepthTestData.values(pixels)
        let photoCentre = Self.centroid(grey.values, width: grey.width, height: grey.height, above: 0.7)
        let mapCentre = Self.centroid(map.values, width: map.width, height: map.height, above: 3.5)
        let scale = (outputExtent.width / Double(map.width), outputExtent.height / Double(map.height))
        XCTAssertEqual(mapCentre.0 * scale.0, photoCentre.0, accuracy: 2)
        XCTAssertEqual(mapCentre.1 * scale.1, photoCentre.1, accuracy: 2)

        // The values: each map pixel holds the ramp where the inverse edit takes its centre.
        let range = try XCTUnwrap(depth.storedRange)
        let step = (range.upperBound - range.lowerBound) / 255
        let inverse = try XCTUnwrap(edit.inverted)
        var checked = 0
        for row in 0..<map.height {
            for column in 0..<map.width {
                let x = (Double(column) + 0.5) * scale.0 + outputExtent.x
                let y = (Double(map.height - row) - 0.5) * scale.1 + outputExtent.y
                let source = inverse.apply(x: x, y: y)
                let (u, v) = (source.x / 4, source.y / 4)
                // Inside the crop and the map by two map pixels, away from the square's edges.
                guard source.x > 100 + 8, source.x < 440 - 8, source.y > 60 + 8, source.y < 320 - 8 else { continue }
                let nearSquare = Self.square.outset(dx: 12, dy: 12).contains(Rect(x: source.x, y: source.y, width: 0, height: 0))
                    && !Self.square.outset(dx: -12, dy: -12).contains(Rect(x: source.x, y: source.y, width: 0, height: 0))
                guard !nearSquare, u > 2, v > 2 else { continue }
                XCTAssertEqual(Double(map.values[row * map.width + column]), Self.disparity(u: u, v: v), accuracy: 3 * step,
                               "map pixel (\(column), \(row))")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertEqual(range.upperBound, 4, accuracy: 1e-3)
    }

    /// A photo stored with EXIF orientation 6, edited and written upright: the map is rotated too.
    func testOrientationBakedUprightRotatesTheMap() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.writeSyntheticPhoto(in: folder, orientation: 6)
        let file = try DepthPhoto(contentsOf: source)
        XCTAssertEqual(file.depthMapInfo?.orientation, 6)
        XCTAssertEqual([file.depthMapInfo?.width, file.depthMapInfo?.height], [90, 120])
        let photo = try Image(contentsOf: source)
        XCTAssertEqual(photo.extent, Rect(x: 0, y: 0, width: 480, height: 360))
        let (auxiliary, _) = file.auxiliaryImages(following: photo, from: photo)
        let output = folder.appendingPathComponent("upright.jpg").path
        try Context().write(photo, to: output, options: ImageWriteOptions(colorSpace: .data, auxiliaryImages: auxiliary))
        let written = try DepthPhoto(contentsOf: output)
        XCTAssertEqual(written.info.metadata.exifOrientation, 1)
        XCTAssertEqual(written.depthMapInfo?.orientation, 1)
        let map = try DepthTestData.values(try written.depthData().map)
        XCTAssertEqual([map.width, map.height], [120, 90])
        let range = try XCTUnwrap(try written.depthData().storedRange)
        let step = (range.upperBound - range.lowerBound) / 255
        for (u, v) in [(10.5, 10.5), (60.5, 20.5), (100.5, 80.5), (80.5, 57.5)] {
            let row = 90 - Int(v + 0.5), column = Int(u - 0.5)
            XCTAssertEqual(Double(map.values[row * 120 + column]), Self.disparity(u: u, v: v), accuracy: 2 * step, "(\(u), \(v))")
        }
    }

    /// An edit a map cannot follow (a warp) drops the depth with a warning naming the node; a
    /// photo that reaches the output through two different geometries too.
    func testUnfollowableEditsDropTheDepthWithAWarning() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.writeSyntheticPhoto(in: folder)
        let photo = try Image(contentsOf: source)
        let file = try DepthPhoto(contentsOf: source)
        let kernel = try Kernel(source: "kernel vec2 wave(float a) { vec2 d = destCoord(); return vec2(d.x + a * sin(d.y / 10.0), d.y); }")
        let warped = try Image.applying(kernel, arguments: [.image(photo), .number(3)], extent: photo.extent)
        let (none, warnings) = file.auxiliaryImages(following: warped, from: photo)
        XCTAssertTrue(none.isEmpty)
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("wave"), warnings[0])
        XCTAssertTrue(warnings[0].contains(source), warnings[0])

        let twice = photo.transformed(by: AffineTransform(translationX: 10, y: 0)).composited(over: photo)
        let (neither, reasons) = file.auxiliaryImages(following: twice, from: photo)
        XCTAssertTrue(neither.isEmpty)
        XCTAssertTrue(reasons.first?.contains("different geometry") == true, "\(reasons)")

        // Colour work and a blur keep the geometry: the map is carried unchanged.
        let toned = photo.applyingColorMatrix(ColorMatrix(rgb: [0.9, 0, 0, 0, 1, 0, 0, 0, 1.1], sourceName: "tone"))
        let (kept, notes) = file.auxiliaryImages(following: toned, from: photo)
        XCTAssertEqual(notes, [])
        XCTAssertNotNil(kept.depthData?.unchangedStoredMap, "written back as the file stores it")
        XCTAssertEqual(try DepthTestData.values(try XCTUnwrap(kept.depthData?.map)).values,
                       try DepthTestData.values(try file.depthData().map).values)
    }

    /// An intermediate holds the same pixels: a photo reaching the output through one (and
    /// directly) keeps its map unchanged.
    func testIntermediatesKeepTheGeometry() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.writeSyntheticPhoto(in: folder)
        let photo = try Image(contentsOf: source)
        let file = try DepthPhoto(contentsOf: source)
        let edited = photo.insertingIntermediate().applyingColorMatrix(ColorMatrix(rgb: [0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5], sourceName: "half"))
            .composited(over: photo)
        let (kept, notes) = file.auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(notes, [])
        XCTAssertNotNil(kept.depthData?.unchangedStoredMap, "written back as the file stores it")
    }

    /// Area passes that move pixels (a Lanczos shrink) or keep them (blurs, the masked variable
    /// blur's levels, which are resampled and scaled back) tell the map how to follow: the map is
    /// shrunk like the photo and still lines up.
    func testResamplingAndBlurAreasCarryTheMap() throws {
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.writeSyntheticPhoto(in: folder)
        let photo = try Image(contentsOf: source)
        let file = try DepthPhoto(contentsOf: source)
        let half = try photo.applyingFilter("CILanczosScaleTransform", parameters: ["inputScale": .number(0.5)])
        let edited = try half.applyingFilter("CIMaskedVariableBlur", parameters: ["inputMask": .image(half), "inputRadius": .number(4)])
            .cropped(to: half.extent)
        let (auxiliary, warnings) = file.auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(warnings, [])
        let output = folder.appendingPathComponent("half.jpg").path
        try Context().write(edited, to: output, options: ImageWriteOptions(quality: 95, colorSpace: .data, auxiliaryImages: auxiliary))
        let map = try DepthTestData.values(try DepthPhoto(contentsOf: output).depthData().map)
        XCTAssertEqual([map.width, map.height], [60, 45])
        let mapCentre = Self.centroid(map.values, width: map.width, height: map.height, above: 3.5)
        // The square (280...360 × 200...260) halves to a centre at (160, 115) in the edited photo.
        XCTAssertEqual(mapCentre.0 * 4, 160, accuracy: 2)
        XCTAssertEqual(mapCentre.1 * 4, 115, accuracy: 2)
    }
}
