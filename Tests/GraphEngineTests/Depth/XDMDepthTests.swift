import Foundation
import GraphCodecs
import XCTest
@testable import GraphEngine

/// Intel RealSense XDM 1.0: the R200 photo of `shared/testdata/depth-more` against its README
/// ground truth: camera 0's `Depthmap:Data` is an inline base64 16-bit PNG, 472×352, values
/// 666–19012, RangeLinear Near 0 / Far 65535, Metric False.
final class XDMDepthTests: XCTestCase {
    func testR200DepthMatchesTheGroundTruth() throws {
        let photo = try DepthPhoto(contentsOf: try DepthTestData.path("../depth-more/intel_r200_xdm_depth_photo4.jpg"))
        let aux = try XCTUnwrap(photo.depthMapInfo)
        XCTAssertEqual(aux.kind, .depth)
        XCTAssertEqual(aux.type, "XDM")
        XCTAssertEqual([aux.width, aux.height, aux.channels, aux.bitDepth], [472, 352, 1, 16])
        XCTAssertEqual(aux.problems, [])
        let xdm = try XCTUnwrap(aux.gDepth)
        XCTAssertEqual(xdm.format, .rangeLinear)
        XCTAssertEqual([xdm.near, xdm.far], [0, 65535])
        XCTAssertNil(xdm.units, "Metric False: no unit")
        XCTAssertEqual(xdm.mime, "image/png")

        // RangeLinear over 0...65535 with 16-bit samples: each value is its stored sample.
        let depth = try DepthTestData.values(try photo.depthData().map)
        XCTAssertEqual([depth.width, depth.height], [472, 352])
        XCTAssertEqual(depth.values.min(), 666)
        XCTAssertEqual(depth.values.max(), 19012)
        let disparity = try DepthTestData.values(try photo.depthData(as: .disparity).map)
        XCTAssertEqual(Double(try XCTUnwrap(disparity.values.max())), 1 / 666, accuracy: 1e-9)
    }

    /// XDM properties that cannot be used are a `CodecError` naming the property.
    func testUnusableXDMIsNamed() {
        func packet(_ body: String) -> String {
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:Depthmap="http://ns.xdm.org/photos/1.0/depthmap/">\(body)</rdf:Description></rdf:RDF></x:xmpmeta>
            """
        }
        let cases: [(String, String)] = [
            ("<Depthmap:Near>0</Depthmap:Near>", "XDM: no Depthmap:Format"),
            ("<Depthmap:Format>RangeLinear</Depthmap:Format><Depthmap:Near>0</Depthmap:Near>",
             "XDM: Depthmap:Format RangeLinear needs Depthmap:Near and Depthmap:Far"),
            ("<Depthmap:Format>RangeLinear</Depthmap:Format><Depthmap:Near>0</Depthmap:Near><Depthmap:Far>9</Depthmap:Far>",
             "XDM: no Depthmap:Data: the extended XMP that should carry the depth map is missing or incomplete"),
            ("<Depthmap:Format>RangeLinear</Depthmap:Format><Depthmap:Near>0</Depthmap:Near><Depthmap:Far>9</Depthmap:Far><Depthmap:Data>!!</Depthmap:Data>",
             "XDM: Depthmap:Data is not valid base64"),
        ]
        for (body, expected) in cases {
            XCTAssertThrowsError(try XDM.parse(mainPacket: packet(body), extendedPacket: nil)) { error in
                XCTAssertEqual((error as? CodecError)?.message, expected, body)
            }
        }
        XCTAssertNil(try XDM.parse(mainPacket: packet(""), extendedPacket: nil))
    }
}
