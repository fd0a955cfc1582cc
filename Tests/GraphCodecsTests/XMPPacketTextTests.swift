import GraphCodecs
import XCTest

/// `XMP.packetText`: an XMP packet's text without what follows its trailer or trailing NULs.
final class XMPPacketTextTests: XCTestCase {
    let packet = #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">  </x:xmpmeta><?xpacket end="w"?>"#

    func testTextAfterTheTrailerIsDropped() {
        XCTAssertEqual(XMP.packetText(Array(packet.utf8) + [0]), packet)
        XCTAssertEqual(XMP.packetText(Array(packet.utf8) + [0, 0x3C, 0x78, 0x3A]), packet)
        XCTAssertEqual(XMP.packetText(Array(packet.utf8)), packet)
    }

    func testTrailingNULsAreDroppedWithoutATrailer() {
        let bare = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>\n"
        XCTAssertEqual(XMP.packetText(Array(bare.utf8) + [0, 0, 0]), bare)
        XCTAssertEqual(XMP.packetText([0]), "")
        XCTAssertEqual(XMP.packetText([]), "")
        // A trailer that never closes is no trailer.
        XCTAssertEqual(XMP.packetText(Array("a<?xpacket end=\"w\"".utf8) + [0]), "a<?xpacket end=\"w\"")
    }
}
