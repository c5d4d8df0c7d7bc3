"""ZIP: the local file headers in a zip's first bytes.

zipfile reads the central directory at the end, which the first segment
does not hold; every member's own local header (signature, flags, sizes,
name) stands before its data, so the first members are listed by walking
them. Bit 0 of the flags is the encryption bit; method 99 is WinZip AES.
A member with bit 3 set has a data descriptor after its data (Info-ZIP's
`zip -e` writes one even with the sizes in the local header): the next
header starts past it.
"""
from __future__ import annotations

import struct

from .errors import ProbeError

LOCAL = b"PK\x03\x04"
SPANNED = b"PK\x07\x08"       # a split (-s) zip's first volume starts with this marker
DESCRIPTOR = SPANNED          # the same signature, optional, opens a data descriptor
_LOCAL = struct.Struct("<4sHHHHHIIIHH")
FLAG_ENCRYPTED, FLAG_DESCRIPTOR, FLAG_UTF8 = 0x0001, 0x0008, 0x0800
METHOD_AES = 99
ZIP64_EXTRA = 0x0001
MAX32 = 0xFFFFFFFF
MAX_ENTRIES = 1000


def _zip64_sizes(extra: bytes, usize: int, csize: int) -> tuple[int, int]:
    at = 0
    while at + 4 <= len(extra):
        tag, size = struct.unpack_from("<HH", extra, at)
        body = extra[at + 4:at + 4 + size]
        if tag == ZIP64_EXTRA:
            values = [struct.unpack_from("<Q", body, i)[0] for i in range(0, len(body) - 7, 8)]
            if usize == MAX32 and values:
                usize = values.pop(0)
            if csize == MAX32 and values:
                csize = values.pop(0)
            break
        at += 4 + size
    return usize, csize


def _name(raw: bytes, flags: int) -> str:
    if flags & FLAG_UTF8:
        return raw.decode("utf-8", "replace")
    try:
        return raw.decode("utf-8")      # most tools write UTF-8 without the flag
    except UnicodeDecodeError:
        return raw.decode("cp437")


def _past_descriptor(data: bytes, at: int, zip64: bool) -> int:
    """Where the next header starts after the data descriptor at `at`: its
    optional signature, the CRC, the two sizes (8 bytes each in a zip64 one)."""
    if data.startswith(DESCRIPTOR, at):
        at += len(DESCRIPTOR)
    for size in ((20, 12) if zip64 else (12, 20)):
        if data.startswith(LOCAL, at + size):
            return at + size
    return at + (20 if zip64 else 12)


def sniff(data: bytes) -> bool:
    return data.startswith(LOCAL) or data.startswith(SPANNED + LOCAL)


def read(data: bytes) -> dict:
    """The archive facts of a zip's first bytes. Raises ProbeError: garbage
    (no local header at the start), truncated (the first header cut off)."""
    if not sniff(data):
        raise ProbeError("garbage")
    start = pos = len(SPANNED) if data.startswith(SPANNED) else 0
    entries = []
    while len(entries) < MAX_ENTRIES and data.startswith(LOCAL, pos):
        if pos + _LOCAL.size > len(data):
            break
        (_, _, flags, method, _, _, _, csize, usize, nlen, xlen) = _LOCAL.unpack_from(data, pos)
        name_at = pos + _LOCAL.size
        if name_at + nlen + xlen > len(data):
            break
        extra = data[name_at + nlen:name_at + nlen + xlen]
        raw_sizes = (usize, csize)
        usize, csize = _zip64_sizes(extra, usize, csize)
        name = _name(data[name_at:name_at + nlen], flags)
        sized = not (flags & FLAG_DESCRIPTOR) or csize or usize
        if not name.endswith("/"):
            entries.append({"name": name, "size": usize if sized else None,
                            "encrypted": bool(flags & FLAG_ENCRYPTED) or method == METHOD_AES})
        data_at = name_at + nlen + xlen
        if sized:
            pos = data_at + csize
            if flags & FLAG_DESCRIPTOR:
                pos = _past_descriptor(data, pos, MAX32 in raw_sizes)
        else:
            # sizes in a descriptor after the data: the next header is found by its signature
            pos = data.find(LOCAL, data_at)
            if pos < 0:
                break
    if not entries and pos == start:
        raise ProbeError("truncated")
    return {"format": "zip", "volume": 1 if start else None, "solid": False, "encrypted_headers": False,
            "encrypted_files": any(e["encrypted"] for e in entries), "entries": entries}
