import XCTest

@testable import GraphCodecs

/// ICC parsing and the built-in profiles.
final class ICCProfileTests: XCTestCase {
    func testBuiltProfilesParseBackToTheirKind() throws {
        let srgb = try ICCProfile(bytes: ICCProfile.sRGBBytes)
        XCTAssertEqual(srgb.kind, .sRGB)
        XCTAssertEqual(srgb.description, "sRGB (GraphCodecs)")
        XCTAssertEqual(srgb.version, "4.3.0")
        XCTAssertEqual(srgb.colorSpace, "RGB ")
        XCTAssertEqual(srgb.transfer?.count, 5)
        XCTAssertEqual(srgb.transfer?[0] ?? 0, 2.4, accuracy: 1e-4)
        // rXYZ of sRGB (Bradford-adapted to D50) as published in the ICC sRGB profiles.
        let m = try XCTUnwrap(srgb.rgbToXYZD50)
        XCTAssertEqual(m[0], 0.4361, accuracy: 0.0005)
        XCTAssertEqual(m[3], 0.2225, accuracy: 0.0005)
        XCTAssertEqual(m[6], 0.0139, accuracy: 0.0005)
        XCTAssertEqual(m[4], 0.7169, accuracy: 0.0005)
        XCTAssertEqual(m[8], 0.7142, accuracy: 0.0005)
        XCTAssertEqual(ByteReader(ICCProfile.sRGBBytes).u32(0).map(Int.init), ICCProfile.sRGBBytes.count)

        let p3 = try ICCProfile(bytes: ICCProfile.displayP3Bytes)
        XCTAssertEqual(p3.kind, .displayP3)
        let pm = try XCTUnwrap(p3.rgbToXYZD50)
        // Apple's Display P3 profile: rXYZ 0.5151 0.2412 -0.0011.
        XCTAssertEqual(pm[0], 0.5151, accuracy: 0.0005)
        XCTAssertEqual(pm[3], 0.2412, accuracy: 0.0005)
        XCTAssertEqual(pm[6], -0.0011, accuracy: 0.0005)

        XCTAssertEqual(try ICCProfile(bytes: ICCProfile.linearSRGBBytes).kind, .linearSRGB)
    }

    func testNameAloneDoesNotMakeSRGB() throws {
        let fake = ICCProfile.makeRGBProfile(description: "sRGB IEC61966-2.1", primaries: .displayP3, transferFunctionType: 0, transfer: [1.8])
        let parsed = try ICCProfile(bytes: fake)
        XCTAssertEqual(parsed.description, "sRGB IEC61966-2.1")
        XCTAssertEqual(parsed.kind, .other)
    }

    func testRealProfiles() throws {
        let root = try TestPaths.sharedTestData("jpeg")
        // monkey12.jpg embeds the ICC sRGB2014 profile (v2, 'desc' type, 'curv' tables).
        let info = try ImageFile.info(path: root + "/libjpeg-turbo/monkey12.jpg")
        let profile = try XCTUnwrap(info.iccProfile)
        XCTAssertEqual(profile.kind, .sRGB)
        XCTAssertTrue(profile.description.contains("sRGB"), profile.description)
        // PngSuite's gamma files report gAMA (never applied).
        let png = try TestPaths.sharedTestData("pngsuite")
        let gamma = try ImageFile.info(path: png + "/g10n0g16.png")
        XCTAssertEqual(gamma.metadata.pngGamma ?? 0, 1.0, accuracy: 1e-5)
    }

    func testGarbageIsNotAProfile() {
        let error = expectCodecError { () throws(CodecError) in try ICCProfile(bytes: [UInt8](repeating: 7, count: 200)) }
        XCTAssertEqual(error?.kind, .corrupt)
    }

    func testMD5() {
        XCTAssertEqual(MD5.hexDigest([]), "D41D8CD98F00B204E9800998ECF8427E")
        XCTAssertEqual(MD5.hexDigest(Array("The quick brown fox jumps over the lazy dog".utf8)), "9E107D9D372BB6826BD81D3542A419D6")
    }
}
