import GraphCodecs
import XCTest

/// `MWGRegionOrientation.upright`: MWG region areas (centre and size, top-left origin, stored
/// frame) turned upright for each EXIF orientation, in element and attribute form, with the applied
/// dimensions swapped on quarter turns and the rest of the packet unchanged.
final class MWGRegionOrientationTests: XCTestCase {
    /// Two regions in element form (as iPhones write them) with other prefixes than the usual.
    static func elements(_ regions: [(Double, Double, Double, Double)], width: String = "4032", height: String = "3024") -> String {
        let items = regions.map { x, y, w, h in
            "<rdf:li rdf:parseType=\"Resource\"><mwg-rs:Area rdf:parseType=\"Resource\"><A:y>\(y)</A:y><A:w>\(w)</A:w>"
                + "<A:x>\(x)</A:x><A:h>\(h)</A:h><A:unit>normalized</A:unit></mwg-rs:Area><mwg-rs:Type>Face</mwg-rs:Type></rdf:li>"
        }.joined()
        return """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/" \
            xmlns:A="http://ns.adobe.com/xmp/sType/Area#" xmlns:D="http://ns.adobe.com/xap/1.0/sType/Dimensions#">\
            <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Seq>\(items)</rdf:Seq></mwg-rs:RegionList>\
            <mwg-rs:AppliedToDimensions rdf:parseType="Resource"><D:h>\(height)</D:h><D:w>\(width)</D:w><D:unit>pixel</D:unit>\
            </mwg-rs:AppliedToDimensions></mwg-rs:Regions></rdf:Description></rdf:RDF></x:xmpmeta>
            """
    }

    func testQuarterTurnsMoveTheCentreAndSwapTheSizes() {
        let stored = [(0.5975, 0.659, 0.119, 0.158), (0.2, 0.1, 0.3, 0.05)]
        // Orientation 6 (rotate 90° CW to view): stored (u, v) is upright (1 − v, u).
        XCTAssertEqual(MWGRegionOrientation.upright(Self.elements(stored), from: 6),
                       Self.elements([(1 - 0.659, 0.5975, 0.158, 0.119), (1 - 0.1, 0.2, 0.05, 0.3)], width: "3024", height: "4032"))
        // Orientation 8 (rotate 90° CCW): (v, 1 − u).
        XCTAssertEqual(MWGRegionOrientation.upright(Self.elements(stored), from: 8),
                       Self.elements([(0.659, 1 - 0.5975, 0.158, 0.119), (0.1, 1 - 0.2, 0.05, 0.3)], width: "3024", height: "4032"))
    }

    func testHalfTurnsAndMirrorsKeepTheSizes() {
        let stored = [(0.25, 0.125, 0.5, 0.25)]
        XCTAssertEqual(MWGRegionOrientation.upright(Self.elements(stored), from: 3), Self.elements([(0.75, 0.875, 0.5, 0.25)]))
        XCTAssertEqual(MWGRegionOrientation.upright(Self.elements(stored), from: 2), Self.elements([(0.75, 0.125, 0.5, 0.25)]))
        XCTAssertEqual(MWGRegionOrientation.upright(Self.elements(stored), from: 1), Self.elements(stored))
    }

    func testAttributeFormAndAPacketWithoutRegions() {
        let attributes = #"<rdf:Description xmlns:stArea='http://ns.adobe.com/xmp/sType/Area#'><mwg-rs:Area stArea:x="0.25" stArea:y="0.125" stArea:w="0.5" stArea:h="0.25" stArea:unit="normalized"/></rdf:Description>"#
        XCTAssertEqual(MWGRegionOrientation.upright(attributes, from: 6),
                       #"<rdf:Description xmlns:stArea='http://ns.adobe.com/xmp/sType/Area#'><mwg-rs:Area stArea:x="0.875" stArea:y="0.25" stArea:w="0.25" stArea:h="0.5" stArea:unit="normalized"/></rdf:Description>"#)
        let none = #"<rdf:Description xmlns:GFocus="http://ns.google.com/photos/1.0/focus/" GFocus:FocalPointX="0.3"/>"#
        XCTAssertEqual(MWGRegionOrientation.upright(none, from: 6), none)
    }
}
