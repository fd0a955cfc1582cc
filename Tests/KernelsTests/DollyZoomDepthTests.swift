import Foundation
import GraphEngine
import Kernels
import XCTest

/// A dolly-zoomed depth photo keeps its disparity, reprojected like the photo at the map's own
/// resolution: a synthetic photo (64×48) whose 32×24 disparity map has a square at 1 (the subject)
/// over a background at 0.25. The written map is checked against a float64 model of the z-buffer
/// warp at the map's resolution (as `DollyZoomTests`' model: the source point
/// `c + (q + ½ − c)/σ(d)` of output pixel q, the nearest disparity whose source pixel has it wins,
/// and q takes the map sampled bilinearly there) and against the filter run on the map itself.
final class DollyZoomDepthTests: XCTestCase {
    static let width = 32, height = 24, amount = 0.2
    static func inSquare(_ x: Int, _ y: Int) -> Bool { x >= 13 && x < 19 && y >= 9 && y < 15 }
    static func disparity(_ x: Int, _ y: Int) -> Double { inSquare(x, y) ? 1 : 0.25 }

    /// The map sampled bilinearly at (u, v) (pixel-centre coordinates, rows bottom-up), edges clamped.
    static func bilinear(_ u: Double, _ v: Double) -> Double {
        let cu = min(max(u, 0), Double(width - 1)), cv = min(max(v, 0), Double(height - 1))
        let i = Int(cu), j = Int(cv), fx = cu - Double(i), fy = cv - Double(j)
        let i1 = min(i + 1, width - 1), j1 = min(j + 1, height - 1)
        let low = disparity(i, j) * (1 - fx) + disparity(i1, j) * fx, high = disparity(i, j1) * (1 - fx) + disparity(i1, j1) * fx
        return low * (1 - fy) + high * fy
    }

    /// The model's warped map (rows bottom-up; nil: a hole, filled by the filter from around it).
    static func model() -> [[Double?]] {
        let c = (Double(width) / 2, Double(height) / 2), t = amount
        // Subject disparity 1; the border is all background, so k = (1 − 0.25t)/(1 − t).
        let k = (1 - t * 0.25) / (1 - t)
        var result: [[Double?]] = Array(repeating: Array(repeating: nil, count: width), count: height)
        for y in 0..<height {
            for x in 0..<width {
                for d in [1.0, 0.25] {
                    let s = k * (1 - t) / (1 - t * d)
                    let u = c.0 + (Double(x) + 0.5 - c.0) / s, v = c.1 + (Double(y) + 0.5 - c.1) / s
                    let px = Int(u.rounded(.down)), py = Int(v.rounded(.down))
                    guard px >= 0, px < width, py >= 0, py < height, disparity(px, py) == d else { continue }
                    result[y][x] = bilinear(u - 0.5, v - 0.5)
                    break
                }
            }
        }
        return result
    }

    /// The red channel of `image` as data, rows bottom-up.
    func values(_ image: Image) throws -> [[Double]] {
        var options = ContextOptions()
        options.workingFormat = .rgbaf
        let buffer = try Context(options: options).render(image, format: .rgbaf, colorSpace: .data)
        return (0..<buffer.height).reversed().map { row in (0..<buffer.width).map { Double(buffer.pixel(x: $0, row: row)[0]) } }
    }

    func testTheWrittenDisparityIsWarpedLikeThePhoto() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dolly-depth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var map = [Float](), photo = [Float]()
        for row in 0..<Self.height { for x in 0..<Self.width { map.append(Float(Self.disparity(x, Self.height - 1 - row))) } }
        for row in 0..<2 * Self.height { for x in 0..<2 * Self.width { photo.append(Float(x + row) / 160) } }
        let mapImage = Image(buffer: try ImageBuffer(width: Self.width, height: Self.height, format: .grayf, colorSpace: nil,
                                                     bytes: map.withUnsafeBytes { Array($0) }))
        let source = folder.appendingPathComponent("photo.jpg").path
        var options = ImageWriteOptions(quality: 95)
        options.auxiliaryImages = AuxiliaryImages(depthData: DepthData(map: mapImage, kind: .disparity))
        try Context().write(Image(buffer: try ImageBuffer(width: 2 * Self.width, height: 2 * Self.height, format: .grayf,
                                                          bytes: photo.withUnsafeBytes { Array($0) })),
                            to: source, options: options)

        let depthPhoto = try DepthPhoto(contentsOf: source)
        let original = try Image(contentsOf: source), disparity = try depthPhoto.image(.disparity)
        let parameters: [String: FilterValue] = ["inputDisparityImage": .image(disparity), "inputAmount": .number(Self.amount),
                                                 "inputFocusRect": .rect(Rect(x: 0.45, y: 0.42, width: 0.1, height: 0.15))]
        let zoomed = try original.applyingFilter("GEDepthDollyZoom", parameters: parameters)
        let (auxiliary, warnings) = depthPhoto.auxiliaryImages(following: zoomed, from: original)
        XCTAssertEqual(warnings, [])
        let output = folder.appendingPathComponent("zoomed.jpg").path
        try Context().write(zoomed, to: output, options: ImageWriteOptions(quality: 95, auxiliaryImages: auxiliary))

        let written = try values(try DepthPhoto(contentsOf: output).image(.disparity))
        XCTAssertEqual([written.count, written.first?.count ?? 0], [Self.height, Self.width], "the map's own resolution")
        // 8-bit storage over 0.25...1 (and half-float intermediates): 0.75/255/2 plus a little.
        let tolerance = 0.004
        let model = Self.model()
        var compared = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                guard let expected = model[y][x] else { continue }
                XCTAssertEqual(written[y][x], expected, accuracy: tolerance, "(\(x), \(y))")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, Self.width * Self.height * 9 / 10)
        // The subject (6×6 in the map) grew by k = 0.95/0.8: more of the map is near 1 than before.
        XCTAssertGreaterThan(written.joined().filter { $0 > 0.625 }.count, 36)

        let direct = try values(try disparity.applyingFilter("GEDepthDollyZoom", parameters: parameters))
        for y in 0..<Self.height {
            for x in 0..<Self.width { XCTAssertEqual(written[y][x], direct[y][x], accuracy: tolerance, "(\(x), \(y))") }
        }
    }
}
