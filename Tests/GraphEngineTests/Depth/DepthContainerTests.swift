import GraphCodecs
import XCTest

@testable import GraphEngine

/// One type says where a depth map lives: what a file's map remembers, and what an output writes.
final class DepthContainerTests: XCTestCase {
    /// An iPhone HEIC's map remembers its container and is written back as an Apple JPEG (MPF):
    /// HEIF auxiliary items cannot be written, and asking for them is an error naming why.
    func testAHEICMapIsWrittenBackInTheAppleJPEGContainer() throws {
        let path = try DepthTestData.path("iphone13pro_pug_depth.heic")
        let photo = try DepthPhoto(contentsOf: path)
        XCTAssertEqual(photo.depthMapInfo?.location.container, .appleHEIC)
        let depth = try photo.depthData(orientation: .stored)
        XCTAssertEqual(depth.sourceFormat, .appleHEIC)
        XCTAssertEqual(AuxiliaryImages(depthData: depth).writtenFormat, .appleJPEG)

        let small = depth.replacingMap(depth.map.cropped(to: Rect(x: 0, y: 0, width: 16, height: 8)), calibration: nil)
        let image = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 32, height: 16))
        let heicItems = ImageWriteOptions(auxiliaryImages: AuxiliaryImages(depthData: small, format: .appleHEIC))
        XCTAssertThrowsError(try Context().encodedData(image, format: .jpeg, options: heicItems)) { error in
            XCTAssertTrue("\(error)".contains("HEIF auxiliary items cannot be written"), "\(error)")
        }
        let written = try Context().encodedData(image, format: .jpeg, options: ImageWriteOptions(auxiliaryImages: AuxiliaryImages(depthData: small)))
        let reread = try XCTUnwrap(try ImageFile.info(written).auxiliaryImages.first { $0.kind == .disparity })
        XCTAssertEqual(reread.location.container, .appleJPEG)
        XCTAssertEqual([reread.width, reread.height], [16, 8])
    }

    /// Google's containers hold no portrait matte: writing one there is refused by name.
    func testGoogleContainersRefuseAMatte() throws {
        XCTAssertEqual(DepthContainer.allCases.filter(\.holdsPortraitMatte), [.appleJPEG, .appleHEIC])
        let map = Image(color: [0.5, 0.5, 0.5, 1]).cropped(to: Rect(x: 0, y: 0, width: 8, height: 8))
        let options = ImageWriteOptions(auxiliaryImages: AuxiliaryImages(
            depthData: DepthData(map: map, kind: .depth), portraitEffectsMatte: PortraitEffectsMatte(map: map), format: .gDepth))
        XCTAssertThrowsError(try Context().encodedData(map, format: .jpeg, options: options)) { error in
            XCTAssertTrue("\(error)".contains("GDepth has no portrait matte"), "\(error)")
        }
    }
}
