import XCTest
@testable import GraphCodecs

/// Camera intrinsics moved with their image's pixels (issue 24): `PixelGridMap`, and
/// `CameraCalibration.mapped(by:width:height:)` / `DynamicDepthMetadata.ImagingModel.mapped(by:width:height:)`.
/// A camera-frame point projected through the moved intrinsics (with the camera's X and Y
/// turned as the image turns) lands where the edit, written out by hand below, moves its
/// projection through the original ones.
final class IntrinsicsMappingTests: XCTestCase {
    /// The Pixel 8 portrait's `Camera:ImagingModel` (README of depth-more), with fy made
    /// different so a swap of the axes shows.
    private let model = DynamicDepthMetadata.ImagingModel(focalLengthX: 2938.025391, focalLengthY: 2901.5, principalPointX: 1479.836060,
                                                          principalPointY: 2039.145508, imageWidth: 3072, imageHeight: 4080)

    /// One edit: its grid map, what it does to a pixel position (by hand), how the camera frame
    /// turns (X', Y' from X, Y), and the output size.
    private struct Edit {
        let name: String
        let map: PixelGridMap?
        let pixel: (Double, Double) -> (Double, Double)
        let camera: (Double, Double) -> (Double, Double)
        let size: (Int, Int)
    }

    private var edits: [Edit] {
        let crop = PixelGridMap.translation(-900, -1280)
        let half = PixelGridMap.scale(0.5, 0.5)
        // A quarter turn clockwise of a 1200×1600 crop: (x, y) → (1600 − y, x).
        let turn = PixelGridMap.orientation(6, width: 1200, height: 1600)
        let flip = PixelGridMap.orientation(2, width: 3072, height: 4080)
        return [
            Edit(name: "crop", map: crop, pixel: { ($0 - 900, $1 - 1280) }, camera: { ($0, $1) }, size: (1200, 1600)),
            Edit(name: "half", map: half, pixel: { ($0 * 0.5, $1 * 0.5) }, camera: { ($0, $1) }, size: (1536, 2040)),
            Edit(name: "crop then turn", map: crop.followed(by: turn),
                 pixel: { (1600 - ($1 - 1280), $0 - 900) }, camera: { (-$1, $0) }, size: (1600, 1200)),
            Edit(name: "flip", map: flip, pixel: { (3072 - $0, $1) }, camera: { (-$0, $1) }, size: (3072, 4080)),
            Edit(name: "uneven scale then crop", map: PixelGridMap.scale(0.5, 0.25)?.followed(by: .translation(-10, -20)),
                 pixel: { ($0 * 0.5 - 10, $1 * 0.25 - 20) }, camera: { ($0, $1) }, size: (1000, 900)),
        ]
    }

    private let points: [(Double, Double, Double)] = [(0.1, -0.2, 2), (-0.35, 0.05, 3.5), (0.02, 0.3, 1.2)]

    func testImagingModelProjectionsMoveWithTheImage() throws {
        func project(_ m: DynamicDepthMetadata.ImagingModel, _ x: Double, _ y: Double, _ z: Double) -> (Double, Double) {
            (m.focalLengthX * x / z + m.principalPointX, m.focalLengthY * y / z + m.principalPointY)
        }
        for edit in edits {
            let map = try XCTUnwrap(edit.map, edit.name)
            let moved = model.mapped(by: map, width: edit.size.0, height: edit.size.1)
            XCTAssertEqual([moved.imageWidth, moved.imageHeight], [edit.size.0, edit.size.1], edit.name)
            XCTAssertGreaterThan(moved.focalLengthX, 0, edit.name)
            XCTAssertGreaterThan(moved.focalLengthY, 0, edit.name)
            for (x, y, z) in points {
                let expected = edit.pixel(project(model, x, y, z).0, project(model, x, y, z).1)
                let turned = edit.camera(x, y)
                let got = project(moved, turned.0, turned.1, z)
                XCTAssertEqual(got.0, expected.0, accuracy: 1e-9, edit.name)
                XCTAssertEqual(got.1, expected.1, accuracy: 1e-9, edit.name)
            }
        }
    }

    /// A crop shifts the principal point by exactly its corner; a scale multiplies it (the corner
    /// convention: 1479.836060·0.5, not (1479.836060 + 0.5)·0.5 − 0.5); a quarter turn swaps fx and fy.
    func testCropScaleAndTurnValues() throws {
        let crop = model.mapped(by: PixelGridMap.translation(-900, -1280), width: 1200, height: 1600)
        XCTAssertEqual([crop.focalLengthX, crop.focalLengthY], [2938.025391, 2901.5])
        XCTAssertEqual(crop.principalPointX, 579.836060, accuracy: 1e-9)
        XCTAssertEqual(crop.principalPointY, 759.145508, accuracy: 1e-9)
        let half = model.mapped(by: try XCTUnwrap(PixelGridMap.scale(0.5, 0.5)), width: 1536, height: 2040)
        XCTAssertEqual([half.focalLengthX, half.principalPointX, half.principalPointY], [1469.0126955, 739.91803, 1019.572754])
        let turned = model.mapped(by: PixelGridMap.orientation(6, width: 3072, height: 4080), width: 4080, height: 3072)
        XCTAssertEqual([turned.focalLengthX, turned.focalLengthY, turned.principalPointX, turned.principalPointY],
                       [2901.5, 2938.025391, 4080 - 2039.145508, 1479.836060])
        XCTAssertEqual(try XCTUnwrap(model.scaled(toWidth: 2024, height: 2688)).principalPointX, 1479.836060 * 2024 / 3072, accuracy: 1e-9)
    }

    /// Apple's calibration: projections through intrinsics and extrinsics move with the image, the
    /// distortion centre moves like a pixel, the pixel size divides by the scale; an uneven scale
    /// (which a radial model with one pixel size cannot follow) gives nil.
    func testCalibrationProjectionsMoveWithTheImage() throws {
        let stored = CameraCalibration(
            intrinsicMatrix: [2938.025391, 0, 0, 0, 2901.5, 0, 1479.836060, 2039.145508, 1], referenceWidth: 3072, referenceHeight: 4080,
            extrinsicMatrix: [0.8, 0.6, 0, -0.6, 0.8, 0, 0, 0, 1, 12.5, -3.25, 0.5], pixelSize: 0.001,
            lensDistortionCenter: (1500.25, 2010.75), lensDistortionCoefficients: [0, 1e-5], inverseLensDistortionCoefficients: [0, -1e-5])
        func project(_ p: (Double, Double, Double), _ c: CameraCalibration) -> (Double, Double) {
            let e = c.extrinsicMatrix, k = c.intrinsicMatrix
            let camera = (0..<3).map { r in e[r] * p.0 + e[3 + r] * p.1 + e[6 + r] * p.2 + e[9 + r] }
            let (x, y) = (camera[0] / camera[2], camera[1] / camera[2])
            return (k[0] * x + k[3] * y + k[6], k[1] * x + k[4] * y + k[7])
        }
        for edit in edits {
            let map = try XCTUnwrap(edit.map, edit.name)
            let moved = stored.mapped(by: map, width: Double(edit.size.0), height: Double(edit.size.1))
            if edit.name.hasPrefix("uneven") {
                XCTAssertNil(moved, edit.name)
                continue
            }
            let calibration = try XCTUnwrap(moved, edit.name)
            XCTAssertEqual([calibration.referenceWidth, calibration.referenceHeight], [Double(edit.size.0), Double(edit.size.1)])
            let scale = edit.name == "half" ? 0.5 : 1
            XCTAssertEqual(calibration.pixelSize ?? .nan, 0.001 / scale, accuracy: 1e-15, edit.name)
            let centre = edit.pixel(1500.25, 2010.75)
            XCTAssertEqual(calibration.lensDistortionCenter?.x ?? .nan, centre.0, accuracy: 1e-9, edit.name)
            XCTAssertEqual(calibration.lensDistortionCenter?.y ?? .nan, centre.1, accuracy: 1e-9, edit.name)
            XCTAssertEqual(calibration.lensDistortionCoefficients, [0, 1e-5])
            for point in points {
                let before = project(point, stored)
                let expected = edit.pixel(before.0, before.1)
                let got = project(point, calibration)
                XCTAssertEqual(got.0, expected.0, accuracy: 1e-6, edit.name)
                XCTAssertEqual(got.1, expected.1, accuracy: 1e-6, edit.name)
            }
        }
    }

    /// Grid maps: an axis-aligned one is accepted (the near-zero diagonal set to zero), a
    /// rotation by another angle or a shear is not; composition applies the first map first.
    func testGridMapsAreAxisAligned() throws {
        XCTAssertNil(PixelGridMap(a: cos(0.1), b: -sin(0.1), c: sin(0.1), d: cos(0.1), tx: 0, ty: 0))
        XCTAssertNil(PixelGridMap(a: 1, b: 0.2, c: 0, d: 1, tx: 0, ty: 0))
        XCTAssertNil(PixelGridMap(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0))
        let nearly = try XCTUnwrap(PixelGridMap(a: 1e-14, b: -2, c: 3, d: -1e-13, tx: 5, ty: 6))
        XCTAssertEqual([nearly.a, nearly.d], [0, 0])
        XCTAssertTrue(nearly.swapsAxes)
        XCTAssertEqual(nearly.sourceScales.x, 3)
        XCTAssertEqual(nearly.sourceScales.y, 2)
        let first = try XCTUnwrap(PixelGridMap.scale(2, 3)), second = PixelGridMap.orientation(6, width: 20, height: 30)
        let both = first.followed(by: second)
        let p = both.apply(1.5, 2.5), q = second.apply(first.apply(1.5, 2.5).x, first.apply(1.5, 2.5).y)
        XCTAssertEqual(p.x, q.x)
        XCTAssertEqual(p.y, q.y)
        XCTAssertTrue(PixelGridMap.orientation(1, width: 4, height: 4).isIdentity)
    }
}
