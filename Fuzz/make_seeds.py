#!/usr/bin/env python3
"""Builds the seed inputs of every fuzz target into Fuzz/seeds/TARGET/ (not committed).

Sources: ../shared/testdata (PngSuite, the JPEG conformance and crash files, the depth photos)
and Examples/. Small files are taken whole; from JPEGs the EXIF, ICC, XMP and MPF payloads are
cut out for the metadata targets. `scripts/fuzz.sh seed TARGET` then keeps, of these, the inputs
that add coverage (libFuzzer -merge=1) in the committed corpus Fuzz/corpus/TARGET/.
"""
import base64
import hashlib
import json
import os
import pathlib
import re
import struct
import sys

FUZZ = pathlib.Path(__file__).resolve().parent
ROOT = FUZZ.parent
SHARED = ROOT.parent / "shared" / "testdata"
SEEDS = FUZZ / "seeds"
LIMIT = 8 * 1024  # bytes per seed file
# Whole depth photos (a reduced HEIC keeps its 9.8 KB depth item) may be larger.
WHOLE_FILE_LIMIT = 48 * 1024
WHOLE_FILE_TARGETS = ("aux-jpeg", "heif", "depth-photo")


def save(target, data, name=None):
    if not data or len(data) > (WHOLE_FILE_LIMIT if target in WHOLE_FILE_TARGETS else LIMIT):
        return
    folder = SEEDS / target
    folder.mkdir(parents=True, exist_ok=True)
    name = name or hashlib.sha1(data).hexdigest()[:16]
    (folder / name).write_bytes(data)


def segments(jpeg):
    """(marker, payload) of each APPn/COM segment before SOS."""
    out, i = [], 2
    if jpeg[:2] != b"\xff\xd8":
        return out
    while i + 4 <= len(jpeg) and jpeg[i] == 0xFF:
        marker = jpeg[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        if marker in (0xD9, 0xDA):
            break
        length = struct.unpack(">H", jpeg[i + 2:i + 4])[0]
        out.append((marker, jpeg[i + 4:i + 2 + length]))
        i += 2 + length
    return out


def xmp_input(main, chunks):
    """The xmp target's input: 2-byte big-endian lengths, each followed by a part."""
    return b"".join(struct.pack(">H", len(p)) + p for p in [main] + chunks)


def main():
    pngs = sorted((SHARED / "pngsuite").glob("*.png")) + sorted((ROOT / "Examples").rglob("*.png"))
    jpegs = sorted((SHARED / "jpeg").rglob("*.jpg")) + sorted((SHARED / "depth").glob("*.jpg"))
    for path in pngs:
        save("png", path.read_bytes())
    for path in jpegs:
        data = path.read_bytes()
        save("jpeg", data)
        icc = []
        for marker, payload in segments(data):
            if marker == 0xE1 and payload.startswith(b"Exif\0\0"):
                save("exif", payload[6:])
            elif marker == 0xE1 and payload.startswith(b"http://ns.adobe.com/xap/1.0/\0"):
                save("xmp", xmp_input(payload[29:], []))
            elif marker == 0xE2 and payload.startswith(b"ICC_PROFILE\0"):
                icc.append(payload[14:])
            elif marker == 0xE2 and payload.startswith(b"MPF\0"):
                save("mpf", payload[4:])
        if icc:
            save("icc", b"".join(icc))
    # Extended XMP: a small packet in two chunks, named by the main packet's GUID (its MD5).
    extended = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:GDepth="http://ns.google.com/photos/1.0/depthmap/" GDepth:Data="iVBORw0KGgo="/></rdf:RDF></x:xmpmeta>'
    guid = hashlib.md5(extended).hexdigest().upper().encode()
    main_packet = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="' + guid + b'"/></rdf:RDF></x:xmpmeta>'
    half = len(extended) // 2
    chunks = [guid + struct.pack(">II", len(extended), 0) + extended[:half],
              guid + struct.pack(">II", len(extended), half) + extended[half:]]
    save("xmp", xmp_input(main_packet, chunks), "extended-two-chunks")
    save("xmp", xmp_input(main_packet, chunks[::-1]), "extended-reversed")
    save("xmp", xmp_input(main_packet, chunks[:1]), "extended-missing-chunk")
    # Recipes: the examples, and every kernel they hold as kernel-language input.
    for path in sorted((ROOT / "Examples" / "recipes").glob("*.json")):
        text = path.read_bytes()
        save("recipe", text, path.stem)
        for name, spec in json.loads(text).get("kernels", {}).items():
            if "source" in spec:
                save("kernel", spec["source"].encode(), f"{path.stem}-{name}")
    # Kernels from the tests: every string literal ("..." or """...""") holding "kernel vec",
    # the compile-error tests' broken kernels included.
    for path in sorted((ROOT / "Tests").rglob("*.swift")):
        text = path.read_text()
        for literal in re.findall(r'"""\n(.*?)"""', text, re.S) + re.findall(r'"((?:[^"\\\n]|\\.)*)"', text):
            if "kernel vec" in literal and "\\(" not in literal:
                source = "\n".join(line.strip() for line in literal.splitlines())
                save("kernel", source.replace('\\"', '"').encode())
    depth_seeds()
    for target in sorted(p.name for p in SEEDS.iterdir()):
        files = list((SEEDS / target).iterdir())
        print(f"{target}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")


# --- Depth photos ----------------------------------------------------------------------------
# The real photos in ../shared/testdata/depth are megabytes; their XMP packets, depth SEI and HEIF
# structure are taken from them, and small photos of the same layout are made around those.

XMP_PREFIX = b"http://ns.adobe.com/xap/1.0/\0"
EXTENDED_PREFIX = b"http://ns.adobe.com/xmp/extension/\0"


def all_xmp_packets(data):
    """Every APP1 XMP packet anywhere in a file (the primary's and each auxiliary image's)."""
    packets, at = [], data.find(XMP_PREFIX)
    while at >= 4:
        length = struct.unpack(">H", data[at - 2:at])[0]
        if data[at - 4:at - 2] == b"\xff\xe1":
            packets.append(data[at + len(XMP_PREFIX):at - 2 + length])
        at = data.find(XMP_PREFIX, at + 1)
    return packets


def tiny_jpeg(mode, size, seed, exif=None):
    """A small JPEG (a gradient) from Pillow."""
    import io
    from PIL import Image
    width, height = size
    image = Image.new(mode, size)
    image.putdata([((x * 37 + y * 11 + seed) % 256) if mode == "L" else ((x * 16) % 256, (y * 20) % 256, seed % 256)
                   for y in range(height) for x in range(width)])
    out = io.BytesIO()
    image.save(out, "JPEG", quality=60, **({"exif": exif} if exif else {}))
    return out.getvalue()


def with_app1(jpeg, payloads):
    """APP1 segments inserted right after SOI."""
    segments = b"".join(b"\xff\xe1" + struct.pack(">H", len(p) + 2) + p for p in payloads)
    return jpeg[:2] + segments + jpeg[2:]


def mpf_file(primary, auxiliaries, offset_error=0):
    """primary + auxiliaries with an MPF index after the leading APP0/APP1 segments (as MPF.assemble
    writes it); offset_error shifts the stored offsets (stale offsets, as generic editors leave)."""
    position = 2
    while primary[position + 1] in (0xE0, 0xE1):
        position += 2 + struct.unpack(">H", primary[position + 2:position + 4])[0]
    count = 1 + len(auxiliaries)
    segment_length = 2 + 2 + 4 + 8 + 2 + 3 * 12 + 4 + 16 * count
    primary_length = len(primary) + segment_length
    mp_header = position + 8
    entries = [(0x030000, primary_length, 0)]
    next_offset = primary_length
    for auxiliary in auxiliaries:
        entries.append((0, len(auxiliary), next_offset - mp_header + offset_error))
        next_offset += len(auxiliary)
    segment = b"\xff\xe2" + struct.pack(">H", segment_length - 2) + b"MPF\0" + b"MM\0*\0\0\0\x08" + struct.pack(">H", 3)
    segment += b"\xb0\0\0\x07\0\0\0\x04" + b"0100"
    segment += b"\xb0\x01\0\x04\0\0\0\x01" + struct.pack(">I", count)
    segment += b"\xb0\x02\0\x07" + struct.pack(">II", 16 * count, 8 + 2 + 3 * 12 + 4) + struct.pack(">I", 0)
    segment += b"".join(struct.pack(">IIIHH", a, length, offset, 0, 0) for a, length, offset in entries)
    return primary[:position] + segment + primary[position:] + b"".join(auxiliaries)


def gdepth_packets(depth_png, near=18.8495, far=633.3235, fmt="RangeInverse", original=None):
    extended = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                '<rdf:Description xmlns:GDepth="http://ns.google.com/photos/1.0/depthmap/" '
                'xmlns:GImage="http://ns.google.com/photos/1.0/image/" GDepth:Data="%s"%s/></rdf:RDF></x:xmpmeta>'
                % (base64.b64encode(depth_png).decode(),
                   ' GImage:Data="%s"' % base64.b64encode(original).decode() if original else "")).encode()
    guid = hashlib.md5(extended).hexdigest().upper()
    main = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description xmlns:GFocus="http://ns.google.com/photos/1.0/focus/" '
            'xmlns:GImage="http://ns.google.com/photos/1.0/image/" '
            'xmlns:GDepth="http://ns.google.com/photos/1.0/depthmap/" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" '
            'GFocus:BlurAtInfinity="0.0157" GFocus:FocalDistance="22.6" GImage:Mime="image/jpeg" '
            'GDepth:Format="%s" GDepth:Near="%s" GDepth:Far="%s" GDepth:Mime="image/png" '
            'xmpNote:HasExtendedXMP="%s"/></rdf:RDF></x:xmpmeta>' % (fmt, near, far, guid)).encode()
    return main, extended, guid.encode()


def gdepth_jpeg(primary, main, extended, guid, chunk=2000):
    chunks = [EXTENDED_PREFIX + guid + struct.pack(">II", len(extended), at) + extended[at:at + chunk]
              for at in range(0, len(extended), chunk)]
    return with_app1(primary, [XMP_PREFIX + main] + chunks)


def tiny_png(size, seed):
    import io
    from PIL import Image
    image = Image.new("L", size)
    image.putdata([(x * 29 + y * 7 + seed) % 256 for y in range(size[1]) for x in range(size[0])])
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def heif_boxes(data, start, end):
    """(type, start, payload start, end) of the boxes in data[start:end]."""
    out, at = [], start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[at + 8:at + 16])[0], 16
        elif size == 0:
            size = end - at
        out.append((kind.decode("latin-1"), at, at + header, at + size))
        at += size
    return out


def reduced_heic(data, keep, with_mdat=True):
    """The HEIC's ftyp and meta, with an mdat holding only the items in `keep` (their iloc offsets
    rewritten); every other item points at the first kept item's data (still inside the file)."""
    top = heif_boxes(data, 0, len(data))
    ftyp = next(b for b in top if b[0] == "ftyp")
    meta = next(b for b in top if b[0] == "meta")
    iloc = next(b for b in heif_boxes(data, meta[2] + 4, meta[3]) if b[0] == "iloc")
    head = bytearray(data[ftyp[1]:ftyp[3]] + data[meta[1]:meta[3]])
    shift = meta[1] - ftyp[3]  # meta's start in `head` is ftyp's length
    at = iloc[2] - shift
    version = head[at]
    at += 4
    sizes = struct.unpack(">H", head[at:at + 2])[0]
    at += 2
    offset_size, length_size, base_size, index_size = sizes >> 12, sizes >> 8 & 15, sizes >> 4 & 15, sizes & 15
    assert offset_size == 4 and length_size == 4 and base_size == 0, "unexpected iloc field sizes"
    id_size = 2 if version < 2 else 4
    count = int.from_bytes(head[at:at + id_size], "big")
    at += id_size
    extents = []  # (item, offset field position, length field position, offset, length)
    for _ in range(count):
        item = int.from_bytes(head[at:at + id_size], "big")
        at += id_size
        method = 0
        if version >= 1:
            method = struct.unpack(">H", head[at:at + 2])[0] & 15
            at += 2
        at += 2
        extent_count = struct.unpack(">H", head[at:at + 2])[0]
        at += 2
        for _ in range(extent_count):
            at += index_size if version >= 1 else 0
            offset, length = struct.unpack(">II", head[at:at + 8])
            if method == 0:
                extents.append((item, at, at + 4, offset, length))
            at += 8
    mdat_start = len(head) + 8
    payload, placed = b"", {}
    for item, offset_at, length_at, offset, length in extents:
        if item in keep and with_mdat:
            placed[(item, offset)] = mdat_start + len(payload)
            payload += data[offset:offset + length]
    first = min(placed.values()) if placed else 0
    for item, offset_at, length_at, offset, length in extents:
        if (item, offset) in placed:
            head[offset_at:offset_at + 4] = struct.pack(">I", placed[(item, offset)])
        else:
            head[offset_at:offset_at + 4] = struct.pack(">I", first)
            head[length_at:length_at + 4] = struct.pack(">I", min(length, len(payload)))
    return bytes(head) + struct.pack(">I4s", 8 + len(payload), b"mdat") + payload


def auxc_subtypes(data):
    """The subtype bytes of every auxC property (the HEVC depth SEI of a depth item)."""
    out, at = [], data.find(b"auxC")
    while at >= 4:
        size = struct.unpack(">I", data[at - 4:at])[0]
        box = data[at - 4:at - 4 + size]
        urn_end = box.index(b"\0", 12)
        if len(box) > urn_end + 1:
            out.append(box[urn_end + 1:])
        at = data.find(b"auxC", at + 1)
    return out


def depth_seeds():
    depth = SHARED / "depth"
    photos = {path.name: path.read_bytes() for path in sorted(depth.iterdir()) if path.suffix in (".jpg", ".heic")}
    packets = []
    for name, data in photos.items():
        packets += all_xmp_packets(data)
    heic = photos["iphone13pro_pug_depth.heic"]
    at = heic.find(b"<x:xmpmeta")
    while at >= 0:
        end = heic.find(b"</x:xmpmeta>", at)
        packets.append(heic[at:end + len(b"</x:xmpmeta>")])
        at = heic.find(b"<x:xmpmeta", end)
    apple = [p for p in packets if b"ns.apple.com/pixeldatainfo" in p or b"ns.apple.com/depthData" in p]
    for packet in packets:
        save("xmp-props", packet)
    for packet in apple:
        save("apple-xmp", packet)
    for subtype in auxc_subtypes(heic):
        save("hevc-depth", subtype)
    save("heif", reduced_heic(heic, keep={50, 51, 53, 54, 55}), "pug-depth-reduced")
    save("heif", reduced_heic(heic, keep=set(), with_mdat=False), "pug-meta-only")
    save("depth-photo", reduced_heic(heic, keep={50, 51, 53, 54, 55}), "pug-depth-reduced")

    # iPhone JPEGs: a 16x12 primary (EXIF orientation 6 in one) and 8x6 grey auxiliary images
    # carrying the real disparity and matte XMP.
    disparity_xmp = next(p for p in apple if b"disparity" in p and b"portraitEffectsMatte" not in p)
    matte_xmp = next((p for p in apple if b"portraitEffectsMatte" in p), None)
    exif_orientation_6 = b"Exif\0\0MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0\x06\0\0\0\0\0\0"
    primary = tiny_jpeg("RGB", (16, 12), 3)
    rotated = with_app1(tiny_jpeg("RGB", (16, 12), 5), [exif_orientation_6])
    disparity = with_app1(tiny_jpeg("L", (8, 6), 1), [XMP_PREFIX + disparity_xmp])
    photos_made = {
        "iphone-disparity": mpf_file(primary, [disparity]),
        "iphone-disparity-rotated": mpf_file(rotated, [disparity]),
        "iphone-stale-offsets": mpf_file(primary, [disparity], offset_error=7),
        "iphone-truncated": mpf_file(primary, [disparity[:-2]]),
    }
    if matte_xmp:
        matte = with_app1(tiny_jpeg("L", (8, 6), 9), [XMP_PREFIX + matte_xmp])
        photos_made["iphone-disparity-matte"] = mpf_file(primary, [disparity, matte])
    # GDepth: a 4x3 PNG depth map (and an original image) in a two-chunk extended XMP.
    main, extended, guid = gdepth_packets(tiny_png((4, 3), 2), original=tiny_jpeg("RGB", (4, 3), 7))
    photos_made["gdepth"] = gdepth_jpeg(tiny_jpeg("RGB", (4, 3), 1), main, extended, guid, chunk=700)
    for name, data in photos_made.items():
        save("aux-jpeg", data, name)
        save("depth-photo", data, name)
    # GDepth packets: main, NUL, extended (the gdepth target's input), both formats.
    for fmt, near, far in [("RangeInverse", 18.8495, 633.3235), ("RangeLinear", 0.5, 4.0)]:
        main, extended, _ = gdepth_packets(tiny_png((2, 2), 4), near, far, fmt)
        save("gdepth", main + b"\0" + extended, f"gdepth-{fmt}")
        save("xmp-props", extended, f"gdepth-extended-{fmt}")
    # Intel XDM (the gdepth target parses it too): a 4x3 PNG inline in Depthmap:Data.
    xdm = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
           '<rdf:Description rdf:about="" xmlns:Device="http://ns.xdm.org/photos/1.0/device/" '
           'xmlns:Camera="http://ns.xdm.org/photos/1.0/camera/" xmlns:Depthmap="http://ns.xdm.org/photos/1.0/depthmap/">'
           '<Device:Cameras><rdf:Seq><rdf:li rdf:parseType="Resource"><Camera:DepthMap rdf:parseType="Resource">'
           '<Depthmap:Data>%s</Depthmap:Data><Depthmap:Far>65535.000000</Depthmap:Far><Depthmap:Format>RangeLinear</Depthmap:Format>'
           '<Depthmap:Metric>False</Depthmap:Metric><Depthmap:Mime>image/png</Depthmap:Mime><Depthmap:Near>0.000000</Depthmap:Near>'
           '</Camera:DepthMap></rdf:li></rdf:Seq></Device:Cameras></rdf:Description></rdf:RDF></x:xmpmeta>'
           % base64.b64encode(tiny_png((4, 3), 5)).decode()).encode()
    save("gdepth", b'<x:xmpmeta xmlns:x="adobe:ns:meta/"/>' + b"\0" + xdm, "xdm")
    gdepth_main = [p for p in all_xmp_packets(photos["gdepth_motorola_xt912_exifr.jpg"]) if b"GDepth" in p]
    for packet in gdepth_main:
        save("gdepth", packet)
    # Dynamic Depth (Pixel 8 layout): the directory in the main packet, the Device/Camera/DepthMap
    # description in the extended one, tiny depth and confidence JPEGs appended.
    for name, data in dynamic_depth_seeds().items():
        target, _, label = name.partition(":")
        save(target, data, label)
    # .cube tables: the example and small ones with every keyword.
    save("cube", (ROOT / "Examples" / "recipes" / "teal-orange.cube").read_bytes(), "teal-orange")
    corners = "".join(f"{r} {g} {b}\n" for b in (0, 1) for g in (0, 1) for r in (0, 1))
    save("cube", f'TITLE "identity"\n# comment\nDOMAIN_MIN 0 0 0\nDOMAIN_MAX 1 1 1\nLUT_3D_SIZE 2\n{corners}'.encode(), "identity-2")
    save("cube", ("LUT_3D_INPUT_RANGE 0 1\r\nLUT_3D_SIZE 2\r\n" + corners.replace("\n", "\r\n")).encode(), "crlf-2")


def dynamic_depth_packets(items, fmt="RangeInverse", units="Diopters", near="0.208841", far="5.702907"):
    """(main, extended, guid) of a Dynamic Depth photo: items is [(semantic, mime, length)]."""
    directory = "".join('<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="%s" Item:Length="%s" '
                        'Item:Semantic="%s"/></rdf:li>' % (mime, length, semantic) for semantic, mime, length in items)
    extended = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                '<rdf:Description rdf:about="" xmlns:Device="http://ns.google.com/photos/dd/1.0/device/" '
                'xmlns:Camera="http://ns.google.com/photos/dd/1.0/camera/" '
                'xmlns:DepthMap="http://ns.google.com/photos/dd/1.0/depthmap/" '
                'xmlns:ImagingModel="http://ns.google.com/photos/dd/1.0/imagingmodel/"><Device:Cameras><rdf:Seq>'
                '<rdf:li rdf:parseType="Resource"><rdf:value rdf:parseType="Resource">'
                '<Camera:DepthMap rdf:parseType="Resource"><DepthMap:ItemSemantic>Depth</DepthMap:ItemSemantic>'
                '<DepthMap:Format>%s</DepthMap:Format><DepthMap:Units>%s</DepthMap:Units><DepthMap:Near>%s</DepthMap:Near>'
                '<DepthMap:Far>%s</DepthMap:Far><DepthMap:ConfidenceURI>android/confidencemap</DepthMap:ConfidenceURI>'
                '<DepthMap:FocalTableEntryCount>2</DepthMap:FocalTableEntryCount>'
                '<DepthMap:FocalTable>etpVPgAAAAAXqlY+AAAAAA==</DepthMap:FocalTable></Camera:DepthMap>'
                '<Camera:ImagingModel rdf:parseType="Resource"><ImagingModel:FocalLengthX>29.3</ImagingModel:FocalLengthX>'
                '<ImagingModel:FocalLengthY>29.3</ImagingModel:FocalLengthY><ImagingModel:PrincipalPointX>8</ImagingModel:PrincipalPointX>'
                '<ImagingModel:PrincipalPointY>6</ImagingModel:PrincipalPointY></Camera:ImagingModel>'
                '</rdf:value></rdf:li></rdf:Seq></Device:Cameras></rdf:Description></rdf:RDF></x:xmpmeta>'
                % (fmt, units, near, far)).encode()
    guid = hashlib.md5(extended).hexdigest().upper()
    main = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description rdf:about="" xmlns:xmpNote="http://ns.adobe.com/xmp/note/" '
            'xmlns:Container="http://ns.google.com/photos/1.0/container/" '
            'xmlns:Item="http://ns.google.com/photos/1.0/container/item/" xmpNote:HasExtendedXMP="%s">'
            '<Container:Directory><rdf:Seq>%s</rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>'
            % (guid, directory)).encode()
    return main, extended, guid.encode()


def dynamic_depth_seeds():
    """TARGET:NAME -> bytes: google-container inputs (packets, NUL, tail) and whole depth photos."""
    depth, confidence = tiny_jpeg("L", (8, 6), 4), tiny_jpeg("L", (8, 6), 250)
    items = [("Primary", "image/jpeg", 0), ("Depth", "image/jpeg", len(depth)), ("Confidence", "image/jpeg", len(confidence))]
    seeds = {}
    for label, fmt, units, tail_items in [("pixel8-layout", "RangeInverse", "Diopters", items),
                                          ("linear-metres", "RangeLinear", "Meters", items),
                                          ("wrong-length", "RangeInverse", "Diopters", items[:1] + [("Depth", "image/jpeg", 9)] + items[2:])]:
        main, extended, guid = dynamic_depth_packets(tail_items, fmt, units)
        seeds["google-container:" + label] = main + b"\0" + extended + b"\0" + depth + confidence
        seeds["depth-photo:dynamic-depth-" + label] = gdepth_jpeg(tiny_jpeg("RGB", (16, 12), 2), main, extended, guid,
                                                                  chunk=900) + depth + confidence
    return seeds


if __name__ == "__main__":
    sys.exit(main())
