"""ZIP archives (and EPUB, which is a ZIP whose first member is `mimetype`).

Local file headers with the data after each, the central directory and the
end record at the end (ZIP64 records when sizes or offsets need them), so
zipfile can list any of them through a lazy file object. Members are stored;
when the file is smaller than stored data would be, the biggest member is
claimed deflated with a smaller compressed size, and when it is bigger the
difference is a gap before the central directory (readers follow the
directory's offsets). Passworded: bit 0 of the flags and the 12-byte
traditional encryption header before each member's data.

A zip posted in volumes is treated as byte slices of one stream, like 7z,
whose filler is the set's: stored members' CRCs are true in either case
when the members total at most TRUE_HASH_LIMIT, or a member is at most
EXACT_LIMIT (derived when claimed deflated, encrypted or bigger).
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from .layout import (Layout, crc32_filler, derived_int, dos_datetime, hashed, members_of,
                     release_of, seed_of, size_of, stamp, text_seed, volume_of, window)

LOCAL, CENTRAL, END = b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06"
END64, LOCATOR64 = b"PK\x06\x06", b"PK\x06\x07"
STORED, DEFLATED = 0, 8
FLAG_ENCRYPTED, FLAG_UTF8 = 0x0001, 0x0800
MAX32, MAX16 = 0xFFFFFFFF, 0xFFFF


@dataclass
class Entry:
    name: str
    size: int                   # uncompressed
    literal: bytes | None = None    # real content (epub text), else filler
    packed: int = -1            # data bytes in the archive, without the encryption header
    method: int = STORED
    crc: int = 0
    encrypted: bool = False
    offset: int = 0             # of the local header

    def __post_init__(self):
        if self.packed < 0:
            self.packed = self.size

    @property
    def zip64(self) -> bool:
        return self.size >= MAX32 or self.packed + 12 >= MAX32

    @property
    def stored_span(self) -> int:
        return self.packed + (12 if self.encrypted else 0)

    def flags(self) -> int:
        return (FLAG_ENCRYPTED if self.encrypted else 0) | \
            (0 if self.name.isascii() else FLAG_UTF8)

    def local(self, mtime: int) -> bytes:
        name = self.name.encode("utf-8")
        extra = b""
        csize, usize = self.stored_span, self.size
        if self.zip64:
            extra = struct.pack("<HHQQ", 1, 16, usize, csize)
            csize = usize = MAX32
        dtime, ddate = dos_datetime(mtime)
        return LOCAL + struct.pack("<HHHHHIIIHH", 45 if self.zip64 else 20, self.flags(),
                                   self.method, dtime, ddate, self.crc, csize, usize,
                                   len(name), len(extra)) + name + extra

    def central(self, mtime: int) -> bytes:
        name = self.name.encode("utf-8")
        csize, usize, offset = self.stored_span, self.size, self.offset
        big = [v for v in (usize, csize) if v >= MAX32 or self.zip64] + \
            ([offset] if offset >= MAX32 else [])
        extra = struct.pack("<HH", 1, 8 * len(big)) + b"".join(struct.pack("<Q", v) for v in big) \
            if big else b""
        if self.zip64:
            csize = usize = MAX32
        if offset >= MAX32:
            offset = MAX32
        dtime, ddate = dos_datetime(mtime)
        return CENTRAL + struct.pack(
            "<HHHHHHIIIHHHHHII", 45 if big else 20, 45 if big else 20, self.flags(),
            self.method, dtime, ddate, self.crc, csize, usize, len(name), len(extra), 0, 0, 0,
            0x20, offset) + name + extra


def end_records(count: int, cd_offset: int, cd_size: int, at: int) -> bytes:
    """The end of central directory record, with ZIP64 ones before it if needed."""
    if count < MAX16 and cd_offset < MAX32 and cd_size < MAX32:
        return END + struct.pack("<HHHHIIH", 0, 0, count, count, cd_size, cd_offset, 0)
    rec64 = END64 + struct.pack("<QHHIIQQQQ", 44, 45, 45, 0, 0, count, count, cd_size, cd_offset)
    loc = LOCATOR64 + struct.pack("<IQI", 0, at, 1)
    return rec64 + loc + END + struct.pack("<HHHHIIH", 0, 0, min(count, MAX16),
                                           min(count, MAX16), min(cd_size, MAX32),
                                           min(cd_offset, MAX32), 0)


def assemble(entries: list[Entry], mtime: int, length: int | None, seed: int,
             stream_seed: int | None):
    """(pieces, total, natural, info) of the archive stream. Filler members'
    CRCs are hashed from `stream_seed`'s filler (None only measures)."""
    def measure() -> tuple[int, int]:
        pos = 0
        for e in entries:
            e.offset = pos
            pos += len(e.local(mtime)) + e.stored_span
        cd = sum(len(e.central(mtime)) for e in entries)
        return pos, cd + len(end_records(len(entries), pos, cd, pos + cd))

    data_end, tail = measure()
    natural = data_end + tail
    gap = 0
    if length is not None and length != natural:
        if length > natural:
            gap = length - natural
        else:
            fill = [e for e in entries if e.literal is None]
            if fill:
                big = max(fill, key=lambda e: e.packed)
                big.packed = max(0, big.packed - (natural - length))
                big.method = DEFLATED if big.packed != big.size else STORED
                data_end, tail = measure()
                gap = max(0, length - data_end - tail)
    pieces = []
    total = sum(e.size for e in entries if e.literal is None)
    for i, e in enumerate(entries):
        data_at = e.offset + len(e.local(mtime)) + (12 if e.encrypted else 0)
        if e.literal is not None:
            e.crc = zlib.crc32(e.literal)
        elif (stream_seed is not None and not e.encrypted and e.method == STORED
              and hashed(e.size, total)):
            e.crc = crc32_filler(stream_seed, data_at, data_at + e.size)
        else:
            e.crc = derived_int(seed, f"zip-crc:{i}")
        pieces.append((e.offset, e.local(mtime)))
        if e.literal is not None:
            pieces.append((data_at, e.literal))
    cd_at = data_end + gap
    directory = b"".join(e.central(mtime) for e in entries)
    pieces.append((cd_at, directory + end_records(len(entries), cd_at, len(directory),
                                                  cd_at + len(directory))))
    total = cd_at + len(directory) + len(end_records(len(entries), cd_at, len(directory),
                                                     cd_at + len(directory)))
    return pieces, total, natural, {"central_at": cd_at, "entries": entries}


def build_zip(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    k, n = volume_of(spec)
    encrypted = bool(spec.get("password"))
    entries = [Entry(m["name"], m["bytes"], encrypted=encrypted and m["bytes"] > 0)
               for m in members_of(spec, default_ext="mkv")]
    set_seed = text_seed(release_of(spec), "zip")
    length = spec.get("set_bytes") or (size if n == 1 else None)
    # a single zip is its own stream; a split one's volumes share the set's
    stream_seed = seed if n == 1 else text_seed(release_of(spec), "zip-stream")
    pieces, total, natural, info = assemble(entries, stamp(set_seed),
                                            int(length) if length else None, seed, stream_seed)
    start = 0 if k == 1 else ((k - 1) * size if k < n else max(0, total - size))
    return Layout(size, seed, window(pieces, start, size),
                  natural=natural if n == 1 else None, info=info,
                  streams=[] if n == 1 else [(0, size, stream_seed, start)])


def natural_zip_bytes(spec: dict) -> int:
    """The length of the whole zip (all volumes) with stored members."""
    entries = [Entry(m["name"], m["bytes"], encrypted=bool(spec.get("password")) and m["bytes"] > 0)
               for m in members_of(spec, default_ext="mkv")]
    return assemble(entries, 0, None, 0, None)[2]


def build_epub(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    title = release_of(spec)
    esc = title.replace("&", "&amp;").replace("<", "&lt;")
    container = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
                 b'<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n'
                 b'  <rootfiles>\n    <rootfile full-path="OEBPS/content.opf" '
                 b'media-type="application/oebps-package+xml"/>\n  </rootfiles>\n</container>\n')
    opf = ('<?xml version="1.0" encoding="UTF-8"?>\n'
           '<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="id">\n'
           '  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n'
           f'    <dc:title>{esc}</dc:title>\n    <dc:language>en</dc:language>\n'
           f'    <dc:identifier id="id">urn:uuid:{derived_int(seed, "epub-id", 64):016x}</dc:identifier>\n'
           '  </metadata>\n  <manifest>\n'
           '    <item id="text" href="text.xhtml" media-type="application/xhtml+xml"/>\n'
           '  </manifest>\n  <spine><itemref idref="text"/></spine>\n</package>\n').encode()
    entries = [Entry("mimetype", 20, literal=b"application/epub+zip"),
               Entry("META-INF/container.xml", len(container), literal=container),
               Entry("OEBPS/content.opf", len(opf), literal=opf),
               Entry("OEBPS/text.xhtml", 0)]
    mtime = stamp(seed)
    # the book's text takes whatever room the file has, stored
    _, _, natural, _ = assemble(entries, mtime, None, seed, None)
    room = max(0, size - natural)
    entries[-1] = Entry("OEBPS/text.xhtml", room)
    _, _, natural2, _ = assemble(entries, mtime, None, seed, None)
    entries[-1] = Entry("OEBPS/text.xhtml", max(0, room - (natural2 - natural - room)))
    pieces, total, natural, info = assemble(entries, mtime, size, seed, seed)
    return Layout(size, seed, pieces, natural=None, info=info)
