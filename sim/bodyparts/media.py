"""Media and other single files: the right magic and header structures at the
start (and the end where the format has one), filler for the payload.

Enough for `file`-style sniffing and for reading the title a header holds
(mkv Segment Info Title, ID3 TIT2, FLAC TITLE, PDF /Title); the payload is
not decodable media.
"""
from __future__ import annotations

import struct

from .layout import (Builder, Layout, derived, derived_int, release_of, seed_of, size_of,
                     stamp, u32)


# --- Matroska ------------------------------------------------------------------

def ebml_size(n: int, width: int | None = None) -> bytes:
    """EBML data size: width-1 zero bits, a marker bit, then the value."""
    if width is None:
        width = 1
        while n >= (1 << (7 * width)) - 1:
            width += 1
    return ((1 << (7 * width)) | n).to_bytes(width, "big")


def element(eid: int, data: bytes) -> bytes:
    return eid.to_bytes((eid.bit_length() + 7) // 8, "big") + ebml_size(len(data)) + data


def uint(eid: int, v: int) -> bytes:
    return element(eid, v.to_bytes(max(1, (v.bit_length() + 7) // 8), "big"))


def build_mkv(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    title = release_of(spec).encode("utf-8")
    ebml = element(0x1A45DFA3, uint(0x4286, 1) + uint(0x42F7, 1) + uint(0x42F2, 4)
                   + uint(0x42F3, 8) + element(0x4282, b"matroska") + uint(0x4287, 4)
                   + uint(0x4285, 2))
    info = element(0x1549A966, uint(0x2AD7B1, 1_000_000) + element(0x7BA9, title)
                   + element(0x4D80, b"libebml v1.4.4 + libmatroska v1.7.1")
                   + element(0x5741, b"mkvmerge v79.0 ('Funeral Pyres') 64-bit")
                   + element(0x4489, struct.pack(">d", 1000.0 * (1200 + seed % 6000))))
    height = (2160, 1080, 720)[seed % 3]
    video = element(0xE0, uint(0xB0, height * 16 // 9) + uint(0xBA, height))
    track = element(0xAE, uint(0xD7, 1) + element(0x73C5, derived(seed, "mkv-uid", 8))
                    + uint(0x83, 1) + element(0x86, b"V_MPEG4/ISO/AVC") + video)
    tracks = element(0x1654AE6B, track)
    seg_id, clu_id = b"\x18\x53\x80\x67", b"\x1f\x43\xb6\x75"
    seg_at = len(ebml) + len(seg_id) + 8
    head = info + tracks
    cluster_at = seg_at + len(head) + len(clu_id) + 8
    timecode = uint(0xE7, 0)
    out = Builder()
    out.put(ebml + seg_id + ebml_size(max(0, size - seg_at), 8) + head + clu_id
            + ebml_size(max(0, size - cluster_at), 8) + timecode)
    return Layout(size, seed, out.pieces)


# --- MP4 / AVI -------------------------------------------------------------------

def box(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", 8 + len(body)) + kind + body


def build_mp4(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    ftyp = box(b"ftyp", b"isom" + struct.pack(">I", 0x200) + b"isomiso2avc1mp41")
    title = release_of(spec).encode("utf-8")
    mvhd = box(b"mvhd", struct.pack(">IIIII", 0, 0, 0, 1000, 1000 * (1200 + seed % 6000))
               + struct.pack(">IH", 0x00010000, 0x0100) + b"\x00" * 10
               + struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
               + b"\x00" * 24 + struct.pack(">I", 2))
    name = box(b"\xa9nam", struct.pack(">HH", len(title), 0x55C4) + title)
    moov = box(b"moov", mvhd + box(b"udta", name))
    # mdat between ftyp and a moov at the end, the order most encoders write
    room = size - len(ftyp) - len(moov)
    if room - 8 >= 1 << 32:
        mdat = struct.pack(">I", 1) + b"mdat" + struct.pack(">Q", room)
    else:
        mdat = struct.pack(">I", max(8, room)) + b"mdat"
    out = [(0, ftyp + mdat)]
    if room >= len(mdat):
        out.append((size - len(moov), moov))
    return Layout(size, seed, out)


def build_avi(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    w, h = 1280, 720
    avih = struct.pack("<14I", 41708, 500000, 0, 0x10, 1000 + seed % 100000, 0, 2, 1 << 20,
                       w, h, 0, 0, 0, 0)
    title = release_of(spec).encode("latin-1", "replace") + b"\x00"
    info = b"INFO" + b"INAM" + u32(len(title)) + title + b"\x00" * (len(title) % 2)
    hdrl = b"hdrl" + b"avih" + u32(len(avih)) + avih
    head = (b"RIFF" + u32(min(0xFFFFFFFF, max(0, size - 8))) + b"AVI "
            + b"LIST" + u32(len(hdrl)) + hdrl + b"LIST" + u32(len(info)) + info)
    movi = b"LIST" + u32(min(0xFFFFFFFF, max(4, size - len(head) - 8))) + b"movi"
    return Layout(size, seed, [(0, head + movi)])


# --- pictures, audio, documents ----------------------------------------------------

def build_jpg(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x48\x00\x48\x00\x00"
    comment = release_of(spec).encode("utf-8")[:1000]
    com = b"\xff\xfe" + struct.pack(">H", len(comment) + 2) + comment
    pieces = [(0, b"\xff\xd8" + app0 + com)]
    if size >= len(pieces[0][1]) + 2:
        pieces.append((size - 2, b"\xff\xd9"))
    return Layout(size, seed, pieces)


def syncsafe(n: int) -> bytes:
    return bytes([(n >> 21) & 0x7F, (n >> 14) & 0x7F, (n >> 7) & 0x7F, n & 0x7F])


def id3_frame(fid: bytes, text: str) -> bytes:
    body = b"\x03" + text.encode("utf-8")       # encoding 3: UTF-8 (ID3v2.4)
    return fid + syncsafe(len(body)) + b"\x00\x00" + body


def build_mp3(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    release = release_of(spec)
    artist = release.split("-")[0].replace("_", " ").replace(".", " ").strip() or release
    frames = (id3_frame(b"TIT2", f"{release} (Track {seed % 20 + 1:02d})")
              + id3_frame(b"TPE1", artist) + id3_frame(b"TALB", release)
              + id3_frame(b"TRCK", str(seed % 20 + 1)))
    padding = 512
    tag = b"ID3\x04\x00\x00" + syncsafe(len(frames) + padding) + frames + b"\x00" * padding
    # an MPEG-1 Layer III frame header (128 kbit/s, 44.1 kHz) where audio starts
    return Layout(size, seed, [(0, tag + b"\xff\xfb\x90\x64")])


def build_flac(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    samples = 44100 * (180 + seed % 300)
    streaminfo = (struct.pack(">HH", 4096, 4096) + (14).to_bytes(3, "big")
                  + (16384).to_bytes(3, "big")
                  + ((44100 << 44) | (1 << 41) | (15 << 36) | samples).to_bytes(8, "big")
                  + derived(seed, "flac-md5", 16))
    vendor = b"reference libFLAC 1.4.3 20230623"
    comments = [f"TITLE={release_of(spec)}".encode("utf-8"), f"TRACKNUMBER={seed % 20 + 1}".encode()]
    vorbis = u32(len(vendor)) + vendor + u32(len(comments)) + b"".join(
        u32(len(c)) + c for c in comments)
    head = (b"fLaC" + bytes([0]) + len(streaminfo).to_bytes(3, "big") + streaminfo
            + bytes([0x80 | 4]) + len(vorbis).to_bytes(3, "big") + vorbis
            + b"\xff\xf8")          # frame sync where the audio frames start
    return Layout(size, seed, [(0, head)])


def build_pdf(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    title = release_of(spec).replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    head = (b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Title (" + title.encode("latin-1", "replace")
            + b") /Producer (Voyager sim) >>\nendobj\n2 0 obj\n<< /Length "
            + str(max(0, size - 200)).encode() + b" >>\nstream\n")
    tail = b"\nendstream\nendobj\ntrailer\n<< /Info 1 0 R >>\n%%EOF\n"
    pieces = [(0, head)]
    if size >= len(head) + len(tail):
        pieces.append((size - len(tail), tail))
    return Layout(size, seed, pieces)


DOS_STUB = (bytes.fromhex("0e1fba0e00b409cd21b8014ccd21")
            + b"This program cannot be run in DOS mode.\r\r\n$" + b"\x00" * 7)


def build_exe(spec: dict) -> Layout:
    """An MZ header and a PE32+ header with three sections: a 'film' that is a program."""
    size, seed = size_of(spec), seed_of(spec)
    lfanew = 0x80
    dos = bytearray(64)
    dos[0:2] = b"MZ"
    struct.pack_into("<HHHHHHHHHHHHH", dos, 2, 0x90, 3, 0, 4, 0, 0xFFFF, 0, 0xB8, 0, 0, 0, 0x40, 0)
    struct.pack_into("<I", dos, 0x3C, lfanew)
    stub = (bytes(dos) + DOS_STUB).ljust(lfanew, b"\x00")
    coff = struct.pack("<HHIIIHH", 0x8664, 3, stamp(seed), 0, 0, 240, 0x22)
    optional = bytearray(240)
    struct.pack_into("<HBBIIIII", optional, 0, 0x20B, 14, 36, 0x1000, 0x1000, 0, 0x1000, 0x1000)
    struct.pack_into("<QII", optional, 24, 0x140000000, 0x1000, 0x200)
    struct.pack_into("<HHHHHHI", optional, 40, 6, 0, 0, 0, 6, 0, 0)
    struct.pack_into("<IIIHH", optional, 56, 0x4000, 0x400, derived_int(seed, "pe-sum"), 2, 0x8160)
    struct.pack_into("<QQQQII", optional, 72, 1 << 20, 0x1000, 1 << 20, 0x1000, 0, 16)
    sections = b""
    for i, name in enumerate((b".text", b".rdata", b".rsrc")):
        raw = max(0, (size - 0x400) // 3) // 0x200 * 0x200
        sections += struct.pack("<8sIIIIIIHHI", name, raw, 0x1000 * (i + 1), raw,
                                0x400 + i * raw, 0, 0, 0, 0,
                                (0x60000020, 0x40000040, 0x40000040)[i])
    return Layout(size, seed, [(0, stub + b"PE\x00\x00" + coff + bytes(optional) + sections)])


def build_bin(spec: dict) -> Layout:
    return Layout(size_of(spec), seed_of(spec), [])
