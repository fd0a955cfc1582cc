import XCTest

@testable import GraphCodecs

/// `DynamicDepthPackets.rewrite` (the XMP of an edited Dynamic Depth photo) and the text edits
/// under it (`XMPTextEdit`): the camera's packets keep everything but what the edit changes, and
/// packets that cannot be rewritten are errors naming why.
final class DynamicDepthPacketsTests: XCTestCase {
    /// A Pixel 8 style main packet (directory, hdrgm, SpecialTypeID) naming `extended`.
    static func mainPacket(naming extended: String?) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.1.0-jc003">
          <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about=""
                xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/"
                xmlns:xmpNote="http://ns.adobe.com/xmp/note/"
                xmlns:Container="http://ns.google.com/photos/1.0/container/"
                xmlns:Item="http://ns.google.com/photos/1.0/container/item/"
                xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
              hdrgm:Version="1.0"
              xmpNote:HasExtendedXMP="\(extended.map(XMP.digestGUID(ofExtended:)) ?? "00000000000000000000000000000000")">
              <Container:Directory>
                <rdf:Seq>
                  <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Length="0" Item:Semantic="Primary"/></rdf:li>
                  <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Length="22463" Item:Semantic="GainMap"/></rdf:li>
                  <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Length="857951" Item:Semantic="Original"/></rdf:li>
                  <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Length="242626" Item:Semantic="Depth"/></rdf:li>
                </rdf:Seq>
              </Container:Directory>
              <GCamera:SpecialTypeID><rdf:Bag><rdf:li>com.google.android.apps.camera.gallery.specialtype.SpecialType-PORTRAIT</rdf:li></rdf:Bag></GCamera:SpecialTypeID>
            </rdf:Description>
          </rdf:RDF>
        </x:xmpmeta>
        """
    }

    /// The Pixel 8's extended packet, its images left out.
    static let extendedPacket = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:Device="http://ns.google.com/photos/dd/1.0/device/"
            xmlns:Camera="http://ns.google.com/photos/dd/1.0/camera/" xmlns:Image="http://ns.google.com/photos/dd/1.0/image/"
            xmlns:DepthMap="http://ns.google.com/photos/dd/1.0/depthmap/" xmlns:ImagingModel="http://ns.google.com/photos/dd/1.0/imagingmodel/">
          <Device:Cameras><rdf:Seq><rdf:li rdf:parseType="Resource"><rdf:value rdf:parseType="Resource">
            <Camera:Trait>Physical</Camera:Trait>
            <Camera:Image rdf:parseType="Resource">
              <Image:ItemSemantic>Original</Image:ItemSemantic>
            </Camera:Image>
            <Camera:DepthMap rdf:parseType="Resource">
              <DepthMap:ItemSemantic>Depth</DepthMap:ItemSemantic>
              <DepthMap:Format>RangeInverse</DepthMap:Format>
              <DepthMap:Units>Diopters</DepthMap:Units>
              <DepthMap:Near>0.208841</DepthMap:Near>
              <DepthMap:Far>5.702907</DepthMap:Far>
            </Camera:DepthMap>
            <Camera:ImagingModel rdf:parseType="Resource">
              <ImagingModel:FocalLengthX>2938.025391</ImagingModel:FocalLengthX>
              <ImagingModel:PrincipalPointX>1479.836060</ImagingModel:PrincipalPointX>
            </Camera:ImagingModel>
          </rdf:value></rdf:li></rdf:Seq></Device:Cameras>
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """

    let directory = [
        DynamicDepthPackets.Item(semantic: "Primary", mime: "image/jpeg", length: 0),
        DynamicDepthPackets.Item(semantic: "Depth", mime: "image/jpeg", length: 1000),
        DynamicDepthPackets.Item(semantic: "Confidence", mime: "image/png", length: 77, dataURI: "android/confidencemap"),
    ]

    /// Only the directory changes: the items and lengths read back, everything else is kept,
    /// and the extended packet is named by its MD5.
    func testTheDirectoryIsListedAnew() throws {
        let main = Self.mainPacket(naming: Self.extendedPacket)
        let written = try DynamicDepthPackets.rewrite(main: main, extended: Self.extendedPacket,
                                                      changes: DynamicDepthPackets.Changes(directory: directory))
        let items = try XCTUnwrap(try GoogleContainer.directory(mainPacket: XMPProperties.parse(written.main), extendedPacket: XMPProperties()))
        XCTAssertEqual(items.map(\.semantic), ["Primary", "Depth", "Confidence"])
        XCTAssertEqual(items.map(\.length), [0, 1000, 77])
        XCTAssertEqual(items.map(\.mime), ["image/jpeg", "image/jpeg", "image/png"])
        XCTAssertEqual(items.map(\.dataURI), [nil, nil, "android/confidencemap"])
        XCTAssertEqual(written.extended, Self.extendedPacket, "nothing to change there")
        let properties = XMPProperties.parse(written.main)
        XCTAssertEqual(properties.text("http://ns.adobe.com/hdr-gain-map/1.0/", "Version"), "1.0")
        XCTAssertTrue(written.main.contains("SpecialType-PORTRAIT"))
        XCTAssertEqual(XMP.extendedGUID(inMainPacket: written.main), XMP.digestGUID(ofExtended: Self.extendedPacket))
    }

    /// A new range, and the gain map, Original and imaging model dropped: the values replaced in
    /// place, the descriptions gone, the GUID the new packet's MD5.
    func testChangesAndDropsAreWritten() throws {
        let main = Self.mainPacket(naming: Self.extendedPacket)
        let changes = DynamicDepthPackets.Changes(
            directory: directory, depthRange: DynamicDepthPackets.DepthRange(format: .rangeInverse, near: 0.2, far: 2.5),
            dropsGainMap: true, dropsOriginal: true, dropsImagingModel: true)
        let written = try DynamicDepthPackets.rewrite(main: main, extended: Self.extendedPacket, changes: changes)
        let extended = try XCTUnwrap(written.extended)
        let description = try XCTUnwrap(try DynamicDepth.parse(mainPacket: XMPProperties.parse(written.main),
                                                                extendedPacket: XMPProperties.parse(extended)))
        XCTAssertEqual([description.near, description.far], [0.2, 2.5])
        XCTAssertEqual(description.units, "Diopters")
        XCTAssertNil(description.imagingModel)
        XCTAssertFalse(extended.contains("Camera:Image "))
        XCTAssertFalse(extended.contains("Image:ItemSemantic"))
        XCTAssertTrue(extended.contains("<Camera:Trait>Physical</Camera:Trait>"))
        XCTAssertNil(XMPProperties.parse(written.main).text("http://ns.adobe.com/hdr-gain-map/1.0/", "Version"))
        XCTAssertEqual(XMP.extendedGUID(inMainPacket: written.main), XMP.digestGUID(ofExtended: extended))
        XCTAssertNotEqual(XMP.extendedGUID(inMainPacket: written.main), XMP.digestGUID(ofExtended: Self.extendedPacket))
    }

    /// The same frame at another size: `Camera:ImagingModel`'s focal lengths and principal point
    /// scaled per axis and its size replaced in place (README: 2938.025391, 1479.836060 of 3072
    /// wide, so 1935.730271 and 974.996154 at 2024); another frame (2024×2024) gives nil.
    func testAnImagingModelIsScaledToTheSameFrame() throws {
        let model = DynamicDepthMetadata.ImagingModel(focalLengthX: 2938.025391, focalLengthY: 2938.025391, principalPointX: 1479.836060,
                                                      principalPointY: 2039.145508, imageWidth: 3072, imageHeight: 4080)
        XCTAssertNil(model.scaled(toWidth: 2024, height: 2024))
        var unsized = model
        unsized.imageWidth = nil
        XCTAssertNil(unsized.scaled(toWidth: 2024, height: 2688))
        let scaled = try XCTUnwrap(model.scaled(toWidth: 2024, height: 2688))
        let changes = DynamicDepthPackets.Changes(directory: directory, imagingModel: scaled)
        let written = try DynamicDepthPackets.rewrite(main: Self.mainPacket(naming: Self.extendedPacket), extended: Self.extendedPacket,
                                                      changes: changes)
        let extended = try XCTUnwrap(written.extended)
        let properties = XMPProperties.parse(extended)
        XCTAssertEqual(try XCTUnwrap(properties.number(DynamicDepth.imagingModelNamespace, "FocalLengthX")), 1935.730271, accuracy: 1e-5)
        XCTAssertEqual(try XCTUnwrap(properties.number(DynamicDepth.imagingModelNamespace, "PrincipalPointX")), 974.996154, accuracy: 1e-5)
        XCTAssertEqual(XMP.extendedGUID(inMainPacket: written.main), XMP.digestGUID(ofExtended: extended))
    }

    /// The Google camera notes on the frame are listed by name and removed when the pixels moved;
    /// `GCamera:SpecialTypeID` stays.
    func testFrameNotesAreNamedAndDropped() throws {
        let main = Self.mainPacket(naming: nil).replacing("hdrgm:Version=\"1.0\"",
                                                           with: "hdrgm:Version=\"1.0\" GCamera:PortraitNote=\"abc\" GCamera:RelitInputImageData=\"/9j/\"")
        XCTAssertEqual(DynamicDepthPackets.frameNotes(in: [main]), ["GCamera:PortraitNote", "GCamera:RelitInputImageData"])
        let written = try DynamicDepthPackets.rewrite(main: main, extended: nil,
                                                      changes: DynamicDepthPackets.Changes(directory: directory, dropsFrameNotes: true))
        XCTAssertEqual(DynamicDepthPackets.frameNotes(in: [written.main]), [])
        XCTAssertTrue(written.main.contains("SpecialType-PORTRAIT"))
        let kept = try DynamicDepthPackets.rewrite(main: main, extended: nil, changes: DynamicDepthPackets.Changes(directory: directory))
        XCTAssertEqual(DynamicDepthPackets.frameNotes(in: [kept.main]), ["GCamera:PortraitNote", "GCamera:RelitInputImageData"])
    }

    /// Attribute-form properties are edited too.
    func testAttributeValuesAreReplacedAndRemoved() {
        var edit = XMPTextEdit(#"<rdf:Description xmlns:D="urn:d" D:Near="1.5" D:Far='9'/>"#)
        XCTAssertEqual(edit.prefix(for: "urn:d"), "D")
        XCTAssertTrue(edit.setValue("D", "Near", "0.25"))
        XCTAssertTrue(edit.remove("D", "Far"))
        XCTAssertFalse(edit.remove("D", "Far"))
        XCTAssertFalse(edit.setValue("D", "Missing", "x"))
        XCTAssertEqual(edit.text, #"<rdf:Description xmlns:D="urn:d" D:Near="0.25"/>"#)
        var escaped = XMPTextEdit(#"<a xmlns:D="urn:d"><D:Note>x</D:Note></a>"#)
        XCTAssertTrue(escaped.setValue("D", "Note", "<&\">"))
        XCTAssertEqual(escaped.text, #"<a xmlns:D="urn:d"><D:Note>&lt;&amp;&quot;&gt;</D:Note></a>"#)
    }

    /// Packets that cannot be rewritten: each a `CodecError` saying why; broken markup never crashes.
    func testPacketsThatCannotBeRewrittenAreErrors() {
        let changes = DynamicDepthPackets.Changes(directory: directory)
        let main = Self.mainPacket(naming: Self.extendedPacket)
        let cases: [(String, String?, String)] = [
            ("<x:xmpmeta/>", nil, "has no Container:Directory"),
            (main.replacingOccurrences(of: #"xmlns:Item="http://ns.google.com/photos/1.0/container/item/""#, with: ""), nil,
             "does not declare the item namespace"),
            (main.replacingOccurrences(of: "xmpNote:HasExtendedXMP", with: "xmpNote:Other"), Self.extendedPacket,
             "names no extended packet"),
            (main.replacingOccurrences(of: "</Container:Directory>", with: ""), nil, "has no Container:Directory"),
        ]
        for (packet, extended, expected) in cases {
            XCTAssertThrowsError(try DynamicDepthPackets.rewrite(main: packet, extended: extended, changes: changes)) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
            }
        }
        // Every prefix of a real packet: an error or a rewrite, never a crash.
        let bytes = Array(main.utf8)
        for cut in stride(from: 0, to: bytes.count, by: 7) {
            _ = try? DynamicDepthPackets.rewrite(main: String(decoding: bytes[..<cut], as: UTF8.self),
                                                 extended: nil, changes: changes)
        }
    }
}
