import XCTest

@testable import GraphCodecs

/// The depth-format parsers and writers on their own: XMP properties, Apple and GDepth XMP,
/// base64, the HEIF item structure, the depth SEI, MPF writing and JPEG stream ends.
final class DepthFormatTests: XCTestCase {
    // MARK: XMP

    func testXMPPropertiesResolveNamespacesNotPrefixes() {
        let packet = """
            <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><!-- a comment <not a tag> -->
             <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
              <rdf:Description rdf:about="" xmlns:p="http://ns.apple.com/pixeldatainfo/1.0/"
                  xmlns:G="http://ns.google.com/photos/1.0/depthmap/" G:Near="18.5" G:Mime='image/png'>
               <p:FloatMinValue> 0.25 </p:FloatMinValue>
               <p:AuxiliaryImageType>dis&amp;parity&#x21;</p:AuxiliaryImageType>
               <p:Matrix><rdf:Seq><rdf:li>1</rdf:li><rdf:li>-2.5</rdf:li><rdf:li>3e2</rdf:li></rdf:Seq></p:Matrix>
               <p:Note><![CDATA[a <b> c]]></p:Note>
               <undeclared:Thing>x</undeclared:Thing>
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>
            <?xpacket end="w"?>
            """
        let properties = XMPProperties.parse(packet)
        let apdi = "http://ns.apple.com/pixeldatainfo/1.0/"
        XCTAssertNil(properties.problem)
        XCTAssertEqual(properties.number(apdi, "FloatMinValue"), 0.25)
        XCTAssertEqual(properties.text(apdi, "AuxiliaryImageType"), "dis&parity!")
        XCTAssertEqual(properties.numbers(apdi, "Matrix"), [1, -2.5, 300])
        XCTAssertEqual(properties.text(apdi, "Note"), "a <b> c")
        XCTAssertEqual(properties.number("http://ns.google.com/photos/1.0/depthmap/", "Near"), 18.5)
        XCTAssertEqual(properties.text("http://ns.google.com/photos/1.0/depthmap/", "Mime"), "image/png")
        XCTAssertFalse(properties.values.keys.contains { $0.local == "Thing" }, "an undeclared prefix names no property")
    }

    /// MWG regions are a list of structures (`rdf:li rdf:parseType="Resource"`), as iPhones write
    /// the face and focus point: the first region's fields are read.
    func testXMPRegionListItemsAreStructures() {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"
                xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#">
             <mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:RegionList><rdf:Seq>
              <rdf:li rdf:parseType="Resource">
               <mwg-rs:Area rdf:parseType="Resource"><stArea:y>0.1465</stArea:y><stArea:w>0.119</stArea:w>
                <stArea:x>0.5635</stArea:x><stArea:h>0.089</stArea:h><stArea:unit>normalized</stArea:unit></mwg-rs:Area>
               <mwg-rs:Type>Face</mwg-rs:Type>
              </rdf:li>
              <rdf:li rdf:parseType="Resource">
               <mwg-rs:Area rdf:parseType="Resource"><stArea:x>0.9</stArea:x></mwg-rs:Area><mwg-rs:Type>Focus</mwg-rs:Type>
              </rdf:li>
             </rdf:Seq></mwg-rs:RegionList></mwg-rs:Regions>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let properties = XMPProperties.parse(packet)
        let area = "http://ns.adobe.com/xmp/sType/Area#"
        XCTAssertNil(properties.problem)
        XCTAssertEqual(properties.number(area, "x"), 0.5635)
        XCTAssertEqual(properties.number(area, "y"), 0.1465)
        XCTAssertEqual(properties.number(area, "h"), 0.089)
        XCTAssertEqual(properties.text(area, "unit"), "normalized")
        XCTAssertEqual(properties.text("http://www.metadataworkinggroup.com/schemas/regions/", "Type"), "Face")
        // Every item of the list, not only the first: its fields at any depth.
        let regions = "http://www.metadataworkinggroup.com/schemas/regions/"
        let items = properties.structures(regions, "RegionList") ?? []
        XCTAssertEqual(items.map { $0[XMPProperties.Name(regions, "Type")] }, ["Face", "Focus"])
        XCTAssertEqual(items.map { $0[XMPProperties.Name(area, "x")] }, ["0.5635", "0.9"])
    }

    /// A Google `Container:Directory`: each item a property element whose fields are its
    /// attributes (the Pixel 8's form) or child elements; every item is kept, in order.
    func testXMPStructureListsKeepEveryItem() {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="" xmlns:Container="http://ns.google.com/photos/1.0/container/"
                xmlns:Item="http://ns.google.com/photos/1.0/container/item/">
             <Container:Directory><rdf:Seq>
              <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Length="0" Item:Semantic="Primary"/></rdf:li>
              <rdf:li rdf:parseType="Resource"><Container:Item rdf:parseType="Resource">
               <Item:Mime>image/png</Item:Mime><Item:Length>22463</Item:Length><Item:Semantic>Depth</Item:Semantic>
              </Container:Item></rdf:li>
             </rdf:Seq></Container:Directory>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let properties = XMPProperties.parse(packet)
        XCTAssertNil(properties.problem)
        let item = "http://ns.google.com/photos/1.0/container/item/"
        let items = properties.structures("http://ns.google.com/photos/1.0/container/", "Directory") ?? []
        XCTAssertEqual(items.map { $0[XMPProperties.Name(item, "Semantic")] }, ["Primary", "Depth"])
        XCTAssertEqual(items.map { $0[XMPProperties.Name(item, "Length")] }, ["0", "22463"])
        XCTAssertEqual(items.map { $0[XMPProperties.Name(item, "Mime")] }, ["image/jpeg", "image/png"])
        // The flat view is unchanged: attributes of a property element are not properties of
        // their own there, so the first Length it has is the element form's.
        XCTAssertEqual(properties.text(item, "Length"), "22463")
    }

    func testMalformedXMPStopsWithAProblemAndKeepsWhatWasRead() {
        let ns = "http://ns.apple.com/pixeldatainfo/1.0/"
        let broken = XMPProperties.parse(
            #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:a="\#(ns)" a:X="1"><a:Y>2</a:Z>"#)
        XCTAssertEqual(broken.number(ns, "X"), 1)
        XCTAssertTrue(broken.problem?.contains("does not match") == true, broken.problem ?? "")
        let deep = XMPProperties.parse(String(repeating: "<a>", count: 1000))
        XCTAssertTrue(deep.problem?.contains("deeper") == true)
        for text in ["<", "<a b=>", "<a b=\"x>", "<![CDATA[", "<!--", "</a>", "<?x", "&#xFFFFFFFF;<a/>", "<a:b xmlns:a=''/>"] {
            _ = XMPProperties.parse(text)  // no trap
        }
        XCTAssertNil(XMPProperties.parse("<a b=\"1\"/>").problem)
    }

    /// Entities in attribute values (copied in runs between ampersands): XDM's base64 broken by
    /// `&#xA;`, the five named entities, an unknown entity and a bare ampersand kept as written.
    func testEntitiesInAttributeValues() {
        let ns = "urn:t"
        let packet = #"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:t="urn:t" "#
            + #"t:Data="QUJD&#xA;REVG&#xa;" t:Named="&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;" t:Odd="x &foo; y & z &#x41;&" "#
            + #"t:Plain="no entities here"/></rdf:RDF>"#
        let properties = XMPProperties.parse(packet)
        XCTAssertEqual(properties.text(ns, "Data"), "QUJD\nREVG", "trailing space trimmed")
        XCTAssertEqual(properties.text(ns, "Named"), #"<a> & "b" 'c'"#)
        XCTAssertEqual(properties.text(ns, "Odd"), "x &foo; y & z A&")
        XCTAssertEqual(properties.text(ns, "Plain"), "no entities here")
        XCTAssertEqual(Base64.decode(properties.text(ns, "Data") ?? ""), Array("ABCDEF".utf8))
    }

    func testAppleXMPWritesWhatItReads() {
        var metadata = AppleAuxiliaryMetadata()
        metadata.auxiliaryImageType = "disparity"
        metadata.nativeFormat = AppleAuxiliaryMetadata.code("hdis")
        metadata.storedFormat = AppleAuxiliaryMetadata.code("L008")
        (metadata.floatMinValue, metadata.floatMaxValue, metadata.intMinValue, metadata.intMaxValue) = (0.787109, 1.735352, 0, 255)
        metadata.depthDataVersion = 65538
        metadata.accuracy = "relative"
        metadata.filtered = true
        metadata.quality = "high"
        metadata.calibration = CameraCalibration(
            intrinsicMatrix: [6658.83, 0, 0, 0, 6658.83, 0, 2034.18, 1533.53, 1], referenceWidth: 4032, referenceHeight: 3024,
            extrinsicMatrix: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0], pixelSize: 0.001, lensDistortionCenter: (2027.97, 1533.93),
            lensDistortionCoefficients: [0, 0.75, -0.56], inverseLensDistortionCoefficients: [0, -0.75, 0.56])
        XCTAssertEqual(AppleDepthXMP.parse(AppleDepthXMP.packet(metadata)), metadata)
        XCTAssertEqual(AppleAuxiliaryMetadata.fourCC(1751411059), "hdis")
        XCTAssertEqual(AppleAuxiliaryMetadata.code("L008"), 1278226488)
        XCTAssertNil(metadata.valueEncodingProblem)
        metadata.floatMaxValue = nil
        XCTAssertEqual(metadata.valueEncodingProblem, "the XMP has no apdi:FloatMaxValue")

        var matte = AppleAuxiliaryMetadata()
        matte.auxiliaryImageType = "depth"
        matte.auxiliaryImageSubType = "portraiteffectsmatte"
        matte.portraitEffectsMatteVersion = 65536
        let parsed = AppleDepthXMP.parse(AppleDepthXMP.packet(matte))
        XCTAssertEqual(parsed, matte)
        XCTAssertEqual(parsed?.isPortraitEffectsMatte, true)
        XCTAssertNil(AppleDepthXMP.parse("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>"))
    }

    func testGDepthPacketsRoundTrip() throws {
        let depth = GDepthMetadata(format: .rangeLinear, near: 0.5, far: 9, units: "Meters", mime: "image/png", data: [1, 2, 3, 250],
                                   originalImageMime: "image/jpeg", originalImage: [0xFF, 0xD8, 0xFF])
        let (main, extended) = GDepth.packets(depth, focus: [("FocalDistance", "2.5")])
        XCTAssertEqual(XMP.extendedGUID(inMainPacket: main), XMP.digestGUID(ofExtended: extended))
        XCTAssertEqual(try GDepth.parse(mainPacket: main, extendedPacket: extended), depth)
        XCTAssertEqual(GDepth.focusProperties(inMainPacket: main).first?.1, "2.5")
        XCTAssertEqual(depth.depth(normalized: 0.5), 4.75)
        let inverse = GDepthMetadata(format: .rangeInverse, near: 2, far: 10, mime: "", data: [])
        for dn in [0.0, 0.3, 1.0] { XCTAssertEqual(inverse.normalized(depth: inverse.depth(normalized: dn)), dn, accuracy: 1e-12) }
        XCTAssertEqual(inverse.depth(normalized: 0), 2)
        XCTAssertEqual(inverse.depth(normalized: 1), 10)
        XCTAssertThrowsError(try GDepth.parse(mainPacket: main, extendedPacket: nil)) { error in
            XCTAssertTrue("\(error)".contains("extended XMP"), "\(error)")
        }
        let noFar = main.replacingAll("GDepth:Far=", "GDepth:Faraway=")
        XCTAssertThrowsError(try GDepth.parse(mainPacket: noFar, extendedPacket: extended)) { error in
            XCTAssertTrue("\(error)".contains("needs GDepth:Near and GDepth:Far"), "\(error)")
        }
        XCTAssertNil(try GDepth.parse(mainPacket: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>", extendedPacket: nil))
    }

    // MARK: Base64

    func testBase64() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), encoded)
            XCTAssertEqual(Base64.decode(encoded), Array(plain.utf8))
        }
        XCTAssertEqual(Base64.decode("Zm9v\n YmFy"), Array("foobar".utf8))
        XCTAssertEqual(Base64.decode("Zm9vYg"), Array("foob".utf8), "padding is optional")
        for bad in ["Zm9*", "Zg==Zg==", "Z", "Zm9vY", "Zg==="] { XCTAssertNil(Base64.decode(bad), bad) }
        var random = SplitMix64(seed: 3)
        let bytes = (0..<1000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        XCTAssertEqual(Base64.decode(Base64.encode(bytes)), bytes)
    }

    // MARK: HEIF

    func testHEIFStructureOfTheIPhoneHEIC() throws {
        let bytes = try ImageFile.read(path: try TestPaths.sharedTestData("depth") + "/iphone13pro_pug_depth.heic")
        let structure = try HEIFStructure.parse(bytes)
        XCTAssertEqual(structure.majorBrand, "heic")
        XCTAssertEqual(structure.primaryItemID, 49)
        XCTAssertEqual(structure.item(49)?.type, "grid")
        XCTAssertEqual(structure.items(referring: "auxl", to: 49).map(\.id), [52, 54])
        let depth = try XCTUnwrap(structure.item(54))
        XCTAssertTrue(depth.properties.contains(.spatialExtent(width: 768, height: 576)))
        XCTAssertTrue(depth.properties.contains(.pixelInformation(bitsPerChannel: [8])))
        XCTAssertEqual(HEIFCodec.urn(of: depth), "urn:mpeg:hevc:2015:auxid:2")
        let xmpItem = try XCTUnwrap(structure.items(referring: "cdsc", to: 54).first)
        XCTAssertEqual(xmpItem.contentType, "application/rdf+xml")
        let xmp = String(decoding: try structure.data(of: xmpItem.id, in: bytes), as: UTF8.self)
        XCTAssertEqual(AppleDepthXMP.parse(xmp)?.floatMaxValue, 4.382812)
        for case .auxiliaryType(_, let subtype) in depth.properties {
            XCTAssertEqual(HEVCDepthRepresentation.parse(auxiliarySubtype: subtype),
                           HEVCDepthRepresentation(type: 1, dMin: 1.498046875, dMax: 4.3828125, disparityReferenceView: 0))
        }
        // Damaged structures are errors naming the box, never traps.
        let meta = try XCTUnwrap((0..<bytes.count - 4).first { bytes[$0..<$0 + 4].elementsEqual(Array("meta".utf8)) })
        XCTAssertThrowsError(try HEIFStructure.parse(Array(bytes[0..<(meta + 500)]))) { error in
            XCTAssertEqual((error as? CodecError)?.kind, .corrupt)
        }
        var huge = bytes
        huge[meta - 4] = 0x7F  // the meta box claims 2 GB
        XCTAssertThrowsError(try HEIFStructure.parse(huge)) { error in
            XCTAssertTrue("\(error)".contains("meta"), "\(error)")
        }
        var random = SplitMix64(seed: 11)
        for _ in 0..<300 {
            var damaged = bytes
            for _ in 0..<3 { damaged[meta + Int(random.next() % 5000)] ^= UInt8(truncatingIfNeeded: random.next() | 1) }
            if let parsed = try? HEIFStructure.parse(damaged) {
                for item in parsed.items { _ = try? parsed.data(of: item.id, in: damaged) }
            }
        }
    }

    /// `irot`/`imir` in property order, as the EXIF orientation that shows the same thing.
    func testHEIFTransformationsAsEXIFOrientation() {
        typealias P = HEIFStructure.Property
        let cases: [([P], Int)] = [
            ([], 1), ([.rotation(quarterTurns: 1)], 8), ([.rotation(quarterTurns: 2)], 3), ([.rotation(quarterTurns: 3)], 6),
            ([.mirror(axis: 0)], 2), ([.mirror(axis: 1)], 4),
            ([.rotation(quarterTurns: 1), .mirror(axis: 0)], 7), ([.mirror(axis: 0), .rotation(quarterTurns: 1)], 5),
            ([.rotation(quarterTurns: 2), .mirror(axis: 1)], 2),
        ]
        for (properties, orientation) in cases {
            XCTAssertEqual(HEIFCodec.orientation(of: properties), orientation, "\(properties)")
        }
    }

    /// A depth SEI built bit by bit: uniform Z (type 2) with z_near 0.5 and z_far 8, and an
    /// emulation prevention byte in the NAL unit.
    func testDepthRepresentationSEI() {
        var bits: [Bool] = []
        func put(_ value: Int, _ count: Int) { for i in (0..<count).reversed() { bits.append(value >> i & 1 == 1) } }
        put(0b1100, 4)  // z_near, z_far, no d_min, no d_max
        put(0b011, 3)  // ue(v) = 2: uniform Z
        for exponent in [30, 34] {  // 2^(30-31)·1 = 0.5, 2^(34-31)·1 = 8
            put(0, 1); put(exponent, 7); put(31, 5); put(0, 32)  // 32 zero mantissa bits: 00 00 00 in the NAL
        }
        put(1, 1)
        while bits.count % 8 != 0 { bits.append(false) }
        var payload: [UInt8] = []
        for byte in stride(from: 0, to: bits.count, by: 8) {
            payload.append(bits[byte..<byte + 8].reduce(0) { $0 << 1 | ($1 ? 1 : 0) })
        }
        let rbsp = [0xB1, UInt8(payload.count)] + payload + [0x80]
        var nal: [UInt8] = [0x4E, 0x01]
        var zeros = 0
        for byte in rbsp {  // emulation prevention, as an encoder adds it
            if zeros >= 2 && byte <= 3 { nal.append(3); zeros = 0 }
            nal.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        var subtype: [UInt8] = []
        subtype.appendBE32(nal.count + 4)
        subtype.appendBE32(nal.count)
        subtype += nal
        XCTAssertEqual(HEVCDepthRepresentation.parse(auxiliarySubtype: subtype), HEVCDepthRepresentation(type: 2, zNear: 0.5, zFar: 8))
        XCTAssertTrue(nal.contains(3) && payload.contains(0), "the test exercises emulation prevention")
        for cut in 0..<subtype.count { _ = HEVCDepthRepresentation.parse(auxiliarySubtype: Array(subtype[0..<cut])) }
        XCTAssertNil(HEVCDepthRepresentation.parse(auxiliarySubtype: [0, 0, 0, 9, 0, 0, 0, 5, 0x4E]))
    }

    // MARK: MPF and JPEG streams

    func testMPFAssemblyIndexesEveryImage() throws {
        let pixels = [UInt8](repeating: 90, count: 16 * 8 * 3)
        let primary = try JPEGCodec.encode(width: 16, height: 8, channels: 3, bytes: pixels, iccProfile: ICCProfile.sRGBBytes,
                                           xmp: "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>", exif: EXIF.makeOrientationTIFF(1))
        let aux = try (1...2).map { n in try JPEGCodec.encode(width: 4 * n, height: 4, channels: 1, bytes: [UInt8](repeating: 9, count: 16 * n)) }
        let file = try MPF.assemble(primary: primary, auxiliaries: aux)
        let info = try JPEGCodec.readInfo(file)
        XCTAssertEqual(info.warnings, [])
        XCTAssertEqual(info.metadata.mpfEntries.count, 3)
        XCTAssertEqual(info.metadata.mpfEntries[0].length, primary.count + MPF.segmentLength(images: 3))
        XCTAssertEqual(info.metadata.segments.map(\.name), ["APP1 Exif", "APP1 XMP", "APP2 MPF", "APP2 ICC_PROFILE 1/1"])
        for (entry, image) in zip(info.metadata.mpfEntries.dropFirst(), aux) {
            XCTAssertEqual(Array(file[entry.absoluteOffset..<(entry.absoluteOffset + entry.length)]), image)
        }
        XCTAssertEqual(info.metadata.mpfEntries[2].absoluteOffset + aux[1].count, file.count)
        // Re-assembling replaces the index instead of adding a second one.
        let primaryOnly = Array(file[0..<info.metadata.mpfEntries[0].length])
        let again = try MPF.assemble(primary: primaryOnly, auxiliaries: [aux[1]])
        let reread = try JPEGCodec.readInfo(again)
        XCTAssertEqual(reread.metadata.segments.filter { $0.name == "APP2 MPF" }.count, 1)
        XCTAssertEqual(reread.metadata.mpfEntries.count, 2)
        XCTAssertEqual(JPEGStreams.endOfStream(again, from: reread.metadata.mpfEntries[1].absoluteOffset), again.count)
        XCTAssertThrowsError(try MPF.assemble(primary: primary, auxiliaries: [[1, 2, 3, 4]]))
        XCTAssertThrowsError(try MPF.assemble(primary: Array(primary[0..<30]), auxiliaries: aux))
    }

    /// Apple's MPF stub inside each auxiliary image (version and image count, no entries) is not
    /// a problem: no warning when an auxiliary image is inspected on its own.
    func testAppleMPFStubDoesNotWarn() throws {
        let bytes = try ImageFile.read(path: try TestPaths.sharedTestData("depth") + "/iphoneX_depth_matte_shu223.jpg")
        let info = try ImageFile.info(bytes)
        for image in info.auxiliaryImages {
            guard case .jpeg(let stream) = image.location else { return XCTFail("not an MPF image") }
            let aux = try ImageFile.info(Array(bytes[stream.range]))
            XCTAssertTrue(aux.metadata.segments.contains { $0.name == "APP2 MPF" })
            XCTAssertEqual(aux.warnings, [], "\(image.kind)")
            XCTAssertEqual(try JPEGCodec.decode(Array(bytes[stream.range])).warnings, [])
        }
    }

    /// The end of a JPEG stream is its EOI, not an FF D9 inside a segment or the entropy data.
    func testEndOfStreamSkipsSegmentsAndStuffedBytes() throws {
        let image = try JPEGCodec.encode(width: 32, height: 32, channels: 3,
                                         bytes: (0..<(32 * 32 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) },
                                         comment: String(decoding: [0xFF, 0xD9, 0x41] as [UInt8], as: UTF8.self))
        XCTAssertEqual(JPEGStreams.endOfStream(image, from: 0), image.count)
        XCTAssertEqual(JPEGStreams.endOfStream(image + [1, 2, 3], from: 0), image.count)
        XCTAssertNil(JPEGStreams.endOfStream(Array(image.dropLast(2)), from: 0))
        for cut in stride(from: 0, to: image.count, by: 7) { _ = JPEGStreams.endOfStream(Array(image[0..<cut]), from: 0) }
    }
}
