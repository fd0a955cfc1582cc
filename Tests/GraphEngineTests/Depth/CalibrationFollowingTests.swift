import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// Camera intrinsics follow an edit of a real depth photo (issue 24): a Pixel's Dynamic Depth
/// `Camera:ImagingModel` and an iPhone's depth calibration are moved with a crop, a scale and a
/// quarter turn (principal point in the corner convention: a crop at x0 gives cx − x0, a scale by
/// s gives cx·s), and dropped with a warning under a rotation by another angle. Expected values
/// are computed here from the files' own numbers (exiftool, READMEs).
final class CalibrationFollowingTests: XCTestCase {
    /// The Pixel 8's model (README of depth-more): fx = fy, cx, cy for 3072×4080.
    let (f, cx, cy) = (2938.025391, 1479.836060, 2039.145508)

    func pixel8Model(after edit: (Image) throws -> Image) throws -> (model: DynamicDepthMetadata.ImagingModel?, warnings: [String]) {
        let source = try DynamicDepthTests.pixel8()
        let photo = try Image(contentsOf: source)
        let (carried, warnings) = try DepthPhoto(contentsOf: source).auxiliaryImages(following: try edit(photo), from: photo)
        return (try XCTUnwrap(carried.dynamicDepth).imagingModel, warnings)
    }

    /// Half size: every value halved, the size 1536×2040; the camera notes' one warning only.
    func testPixel8ModelFollowsAScale() throws {
        let (model, warnings) = try pixel8Model { $0.transformed(by: AffineTransform(scaleX: 0.5, y: 0.5)) }
        let moved = try XCTUnwrap(model)
        XCTAssertEqual([moved.focalLengthX, moved.focalLengthY, moved.principalPointX, moved.principalPointY], [f / 2, f / 2, cx / 2, cy / 2])
        XCTAssertEqual([moved.imageWidth, moved.imageHeight], [1536, 2040])
        XCTAssertEqual(warnings, DynamicDepthWriteTests.movedPixelsWarnings(try DynamicDepthTests.pixel8()))
    }

    /// Turned a quarter clockwise (EXIF 6: stored (x, y) shows at (4080 − y, x)): 4080×3072, the
    /// principal point (4080 − cy, cx).
    func testPixel8ModelFollowsAQuarterTurn() throws {
        let (model, _) = try pixel8Model { try $0.oriented(6) }
        let moved = try XCTUnwrap(model)
        XCTAssertEqual([moved.focalLengthX, moved.focalLengthY, moved.principalPointY], [f, f, cx])
        XCTAssertEqual(moved.principalPointX, 4080 - cy, accuracy: 1e-9)
        XCTAssertEqual([moved.imageWidth, moved.imageHeight], [4080, 3072])
    }

    /// A rotation by 0.2 rad: no principal point describes it; the model is named in the one warning.
    func testPixel8ModelIsDroppedByARotation() throws {
        let (model, warnings) = try pixel8Model { $0.transformed(by: AffineTransform(rotationAngle: 0.2)) }
        XCTAssertNil(model)
        XCTAssertEqual(warnings, DynamicDepthWriteTests.movedPixelsWarnings(
            try DynamicDepthTests.pixel8(), model: "the edit rotates or shears the pixels (it is not a crop, scale, flip or quarter turn)"))
    }

    /// iPhone X (exiftool: IntrinsicMatrix fx 6112.78125, cx 1524.835693359375, cy
    /// 2027.0889892578125 for 3024×4032, LensDistortionCenterOffset 1526.2796630859375,
    /// 1978.0166015625, PixelSize 0.001): cropped to x 500...2500 and working y 1000...3500 (its
    /// top row 4032 − 3500 = 532), written and read back: the principal point and distortion
    /// centre shifted by (500, 532), the reference size 2000×2500, fx and the pixel size kept;
    /// exiftool reads the same numbers in the written file.
    func testIPhoneXCalibrationFollowsACrop() throws {
        let source = try DepthTestData.path("iphoneX_depth_shu223.jpg")
        let photo = try Image(contentsOf: source)
        let edited = photo.cropped(to: Rect(x: 500, y: 1000, width: 2000, height: 2500))
        let (carried, warnings) = try DepthPhoto(contentsOf: source).auxiliaryImages(following: edited, from: photo)
        XCTAssertEqual(warnings, [])
        let folder = try DepthTestData.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("crop.jpg").path
        try Context().write(edited, to: output, options: ImageWriteOptions(auxiliaryImages: carried))
        let calibration = try XCTUnwrap(try DepthPhoto(contentsOf: output).depthData().calibration)
        let (cx, cy): (Double, Double) = (1524.835693359375 - 500, 2027.0889892578125 - 532)
        let expected: [Double] = [6112.78125, 0, 0, 0, 6112.78125, 0, cx, cy, 1]
        XCTAssertEqual(calibration.intrinsicMatrix, expected)
        XCTAssertEqual([calibration.referenceWidth, calibration.referenceHeight], [2000, 2500])
        XCTAssertEqual(calibration.lensDistortionCenter?.x, 1526.2796630859375 - 500)
        XCTAssertEqual(calibration.lensDistortionCenter?.y, 1978.0166015625 - 532)
        XCTAssertEqual(calibration.pixelSize, 0.001)
        XCTAssertEqual(calibration.extrinsicMatrix, [0, -1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0])
        guard let listed = try DepthTestData.run("exiftool", ["-ee", "-s3", "-IntrinsicMatrix", "-IntrinsicMatrixReferenceWidth",
                                                              "-IntrinsicMatrixReferenceHeight", "-LensDistortionCenterOffsetX", output]) else {
            throw XCTSkip("exiftool is not installed")
        }
        let lines = String(decoding: listed.output, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, "\(lines)")
        let matrix = lines.first?.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? []
        XCTAssertEqual(matrix, expected)
        XCTAssertEqual(lines.dropFirst().compactMap { Double($0) }, [2000, 2500, 1526.2796630859375 - 500])
    }

    /// iPhone 7 Plus, stored with orientation 6 and loaded upright (exiftool: fx 6658.8291015625,
    /// cx 2034.180908203125, cy 1533.525390625 for 4032×3024; upright: (3024 − cy, cx) for
    /// 3024×4032), at half size: every length halved, the pixel size doubled. A rotation by
    /// 0.2 rad drops the calibration with a warning.
    func testIPhone7PlusCalibrationFollowsAScaleOfTheUprightPhoto() throws {
        let source = try DepthTestData.path("iphone7plus_rw_test00.jpg")
        let file = try DepthPhoto(contentsOf: source)
        let photo = try Image(contentsOf: source)
        let (carried, warnings) = file.auxiliaryImages(following: photo.transformed(by: AffineTransform(scaleX: 0.5, y: 0.5)), from: photo)
        XCTAssertEqual(warnings, [])
        let calibration = try XCTUnwrap(carried.depthData?.calibration)
        let (f, cx, cy): (Double, Double, Double) = (6658.8291015625 / 2, (3024 - 1533.525390625) / 2, 2034.180908203125 / 2)
        XCTAssertEqual(calibration.intrinsicMatrix, [f, 0, 0, 0, f, 0, cx, cy, 1])
        XCTAssertEqual([calibration.referenceWidth, calibration.referenceHeight], [1512, 2016])
        XCTAssertEqual(calibration.pixelSize ?? .nan, 0.002, accuracy: 1e-15)

        let rotated = file.auxiliaryImages(following: photo.transformed(by: AffineTransform(rotationAngle: 0.2)), from: photo)
        XCTAssertNil(rotated.images.depthData?.calibration)
        XCTAssertNotNil(rotated.images.depthData)
        XCTAssertEqual(rotated.warnings, ["\(source): its camera calibration (the depth data's intrinsics) is not written: the edit "
                                          + "rotates or shears the pixels (it is not a crop, scale, flip or quarter turn)"])
    }
}
