import XCTest
@testable import GraphEngine

/// Per-input regions of interest of general kernels: a kernel that reads a photo within a radius
/// and a low-resolution map at a scaled position is not charged the photo's radius on the map.
final class PerInputRegionOfInterestTests: XCTestCase {
    private let kernel = try? Kernel(source: """
        kernel vec4 guided(sampler photo, sampler map) {
            vec2 p = destCoord();
            vec4 blurred = (sample(photo, p + vec2(3.0, 0.0)) + sample(photo, p - vec2(3.0, 0.0))) * 0.5;
            float d = sample(map, p * 0.25).r;
            return mix(sample(photo, p), blurred, d);
        }
        """)

    private func images() -> (photo: Image, map: Image) {
        let photo = Image(color: [0.2, 0.4, 0.6, 1]).cropped(to: Rect(x: 0, y: 0, width: 64, height: 48))
        let map = Image(color: [0.5, 0.5, 0.5, 1], colorSpace: .linearSRGB).cropped(to: Rect(x: 0, y: 0, width: 16, height: 12))
        return (photo, map)
    }

    private func operation(_ image: Image) throws -> any GeneralOperation {
        guard case .general(let operation) = image.node.kind else { throw XCTSkip("not a general node") }
        return operation
    }

    func testEachInputHasItsOwnRegion() throws {
        let kernel = try XCTUnwrap(kernel)
        let (photo, map) = images()
        let tile = Rect(x: 16, y: 16, width: 8, height: 8)
        let shared = try Image.applying(kernel, arguments: [.image(photo), .image(map)], regionOfInterest: .radius(3))
        let perInput = try Image.applying(kernel, arguments: [.image(photo), .image(map)],
                                          regionOfInterest: .perInput([.radius(3), .wholeInput]))
        XCTAssertEqual(try operation(shared).regionOfInterest(input: 1, for: tile), Rect(x: 13, y: 13, width: 14, height: 14))
        XCTAssertEqual(try operation(perInput).regionOfInterest(input: 0, for: tile), Rect(x: 13, y: 13, width: 14, height: 14))
        XCTAssertEqual(try operation(perInput).regionOfInterest(input: 1, for: tile), map.extent)
        // The default extent grows by each input's own radius only.
        XCTAssertEqual(perInput.extent, Rect(x: -3, y: -3, width: 70, height: 54))
        let callback = try Image.applying(kernel, arguments: [.image(photo), .image(map)],
                                          regionOfInterest: .perInput([.radius(3), .callback { _, rect in
                                              Rect(x: rect.x / 4, y: rect.y / 4, width: rect.width / 4 + 1, height: rect.height / 4 + 1) }]))
        XCTAssertEqual(try operation(callback).regionOfInterest(input: 1, for: tile), Rect(x: 4, y: 4, width: 3, height: 3))
    }

    func testPerInputRegionsRenderTheSamePixels() throws {
        let kernel = try XCTUnwrap(kernel)
        let (photo, map) = images()
        let context = Context(options: { var o = ContextOptions(); o.tileSize = 16; return o }())
        let whole = try Image.applying(kernel, arguments: [.image(photo), .image(map)], regionOfInterest: .wholeInput)
        let scaled = try Image.applying(kernel, arguments: [.image(photo), .image(map)],
                                        regionOfInterest: .perInput([.radius(3), .callback { _, rect in
                                            Rect(x: (rect.x / 4).rounded(.down) - 1, y: (rect.y / 4).rounded(.down) - 1,
                                                 width: rect.width / 4 + 3, height: rect.height / 4 + 3) }]))
        let area = Rect(x: 0, y: 0, width: 64, height: 48)
        let a = try context.render(whole.cropped(to: area), format: .rgba8)
        let b = try context.render(scaled.cropped(to: area), format: .rgba8)
        XCTAssertEqual(a.bytes, b.bytes)
    }
}
