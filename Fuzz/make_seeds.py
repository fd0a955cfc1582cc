#!/usr/bin/env python3
"""Builds the seed inputs of every fuzz target into Fuzz/seeds/TARGET/ (not committed).

Sources: ../shared/testdata (PngSuite, the JPEG conformance and crash files, the depth photos)
and Examples/. Small files are taken whole; from JPEGs the EXIF, ICC, XMP and MPF payloads are
cut out for the metadata targets. `scripts/fuzz.sh seed TARGET` then keeps, of these, the inputs
that add coverage (libFuzzer -merge=1) in the committed corpus Fuzz/corpus/TARGET/.
"""
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


def save(target, data, name=None):
    if not data or len(data) > LIMIT:
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
    for target in sorted(p.name for p in SEEDS.iterdir()):
        files = list((SEEDS / target).iterdir())
        print(f"{target}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} bytes")


if __name__ == "__main__":
    sys.exit(main())
