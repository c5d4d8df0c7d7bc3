"""7z archives, split the 7-Zip way (.7z.001, .002 ...: plain byte slices).

The archive stream is: the 32-byte signature header, the packed streams
(filler), then the end header that the signature header points at.
Unpassworded: a plain kHeader listing the members (names UTF-16LE, sizes),
one folder with the Copy coder (7z -mx0) when the sizes fit stored data, with
LZMA2 claimed when the file is smaller than stored data would be.
Passworded (-p -mhe): a kEncodedHeader whose only coder is 7zAES, pointing at
an encrypted header stream (filler standing in for AES output), so no name
is readable.

Volume k < n is the window [(k-1)*size, k*size) of the stream, the last
volume the stream's tail; the stream's length is `set_bytes` when the spec
gives it, else what stored members make (see natural_set_bytes). A split
set's filler is one stream's (of the release), so the members' CRCs the end
header lists are true, as for a single archive, when the members total at
most TRUE_HASH_LIMIT (a member of at most EXACT_LIMIT in any set);
claimed-LZMA2 and passworded members' are derived.
"""
from __future__ import annotations

import struct
import zlib

from .layout import (Layout, crc32_filler, derived, derived_int, hashed, members_of, release_of,
                     seed_of, size_of, stamp, text_seed, u32, volume_of, window)

SIGNATURE = b"7z\xbc\xaf\x27\x1c"
VERSION = b"\x00\x04"
START_HEADER = 32

K_END, K_HEADER, K_MAIN_STREAMS, K_FILES_INFO = 0x00, 0x01, 0x04, 0x05
K_PACK_INFO, K_UNPACK_INFO, K_SUBSTREAMS, K_SIZE, K_CRC = 0x06, 0x07, 0x08, 0x09, 0x0A
K_FOLDER, K_CODERS_UNPACK_SIZE, K_NUM_UNPACK_STREAM = 0x0B, 0x0C, 0x0D
K_EMPTY_STREAM, K_EMPTY_FILE, K_NAME, K_MTIME, K_ATTRIBUTES = 0x0E, 0x0F, 0x11, 0x14, 0x15
K_ENCODED_HEADER = 0x17

COPY, LZMA2, AES = b"\x00", b"\x21", b"\x06\xf1\x07\x01"


def number(n: int) -> bytes:
    """7z's UINT64: the count of leading 1 bits of the first byte says how
    many little-endian bytes follow; the first byte's rest is the high part."""
    for extra in range(8):
        if n < 1 << (7 * (extra + 1)):
            first = ((0xFF00 >> extra) & 0xFF) | (n >> (8 * extra))
            return bytes([first]) + n.to_bytes(8, "little")[:extra]
    return b"\xff" + n.to_bytes(8, "little")


def bits(flags: list[bool]) -> bytes:
    out = bytearray((len(flags) + 7) // 8)
    for i, f in enumerate(flags):
        if f:
            out[i // 8] |= 0x80 >> (i % 8)
    return bytes(out)


def coder(method: bytes, props: bytes = b"") -> bytes:
    return (bytes([len(method) | (0x20 if props else 0)]) + method
            + (number(len(props)) + props if props else b""))


def folder(coder_bytes: bytes) -> bytes:
    return number(1) + coder_bytes          # one simple coder: 1 in, 1 out


def streams_info(pack_pos: int, pack_size: int, coder_bytes: bytes, unpack_size: int,
                 unpack_crc: int | None = None, sub_sizes: list[int] | None = None,
                 sub_crcs: list[int] | None = None) -> bytes:
    out = bytearray([K_PACK_INFO]) + number(pack_pos) + number(1)
    out += bytes([K_SIZE]) + number(pack_size) + bytes([K_END])
    out += bytes([K_UNPACK_INFO, K_FOLDER]) + number(1) + b"\x00" + folder(coder_bytes)
    out += bytes([K_CODERS_UNPACK_SIZE]) + number(unpack_size)
    if unpack_crc is not None:
        out += bytes([K_CRC, 1]) + u32(unpack_crc)
    out += bytes([K_END])
    if sub_sizes is not None:
        out += bytes([K_SUBSTREAMS])
        if len(sub_sizes) != 1:
            out += bytes([K_NUM_UNPACK_STREAM]) + number(len(sub_sizes))
            out += bytes([K_SIZE]) + b"".join(number(s) for s in sub_sizes[:-1])
        if sub_crcs is not None:            # every substream's, all defined
            out += bytes([K_CRC, 1]) + b"".join(u32(c) for c in sub_crcs)
        out += bytes([K_END])
    out += bytes([K_END])
    return bytes(out)


def files_info(members: list[dict], mtime: int) -> bytes:
    out = bytearray([K_FILES_INFO]) + number(len(members))

    def prop(kind: int, data: bytes) -> None:
        out.extend(number(kind) + number(len(data)) + data)

    empty = [m["bytes"] == 0 for m in members]
    if any(empty):
        prop(K_EMPTY_STREAM, bits(empty))
        prop(K_EMPTY_FILE, bits([True] * sum(empty)))
    names = b"".join(m["name"].encode("utf-16-le") + b"\x00\x00" for m in members)
    prop(K_NAME, b"\x00" + names)
    filetime = (mtime + 11644473600) * 10_000_000
    prop(K_MTIME, b"\x01\x00" + b"".join(struct.pack("<Q", filetime + i * 10_000_000)
                                         for i in range(len(members))))
    prop(K_ATTRIBUTES, b"\x01\x00" + u32(0x20) * len(members))
    out.append(K_END)
    return bytes(out)


def plain_header(members: list[dict], packed: int, mtime: int, crcs: list[int]) -> bytes:
    """kHeader: one folder holding every non-empty member as a substream, with
    their CRCs."""
    sizes = [m["bytes"] for m in members if m["bytes"]]
    unpacked = sum(sizes)
    out = bytearray([K_HEADER])
    if sizes:
        method = coder(COPY) if packed == unpacked else coder(LZMA2, b"\x18")
        out += bytes([K_MAIN_STREAMS]) + streams_info(0, packed, method, unpacked,
                                                      sub_sizes=sizes, sub_crcs=crcs)
    out += files_info(members, mtime) + bytes([K_END])
    return bytes(out)


def aes_props(iv: bytes) -> bytes:
    # NumCyclesPower 19 as 7-Zip writes it; IV present, no salt
    return bytes([0x40 | 19, len(iv) - 1]) + iv


def start_header(next_offset: int, next_header: bytes) -> bytes:
    tail = struct.pack("<QQI", next_offset, len(next_header), zlib.crc32(next_header))
    return SIGNATURE + VERSION + u32(zlib.crc32(tail)) + tail


def member_crcs(members: list[dict], stream_seed: int | None, seed) -> list[int]:
    """The CRCs of the stored members, whose data follows the signature header
    in the stream's filler, hashed or derived (always without a stream to
    hash: claimed LZMA2, AES, measuring)."""
    crcs, at = [], START_HEADER
    total = sum(m["bytes"] for m in members)
    for i, m in enumerate(x for x in members if x["bytes"]):
        size = m["bytes"]
        crcs.append(crc32_filler(stream_seed, at, at + size)
                    if stream_seed is not None and hashed(size, total)
                    else derived_int(seed, f"7z-crc:{i}"))
        at += size
    return crcs


def archive(members: list[dict], password, seed, mtime: int, length: int | None,
            stream_seed: int | None = None):
    """(stream pieces, stream length, natural length, info) of a whole archive;
    `length` forces the stream's length (packed data absorbs the difference).
    `stream_seed` is the filler of the stream, for true member CRCs."""
    unpacked = sum(m["bytes"] for m in members)
    stored = -(-unpacked // 16) * 16 if password else unpacked      # AES pads to 16
    derived_crcs = member_crcs(members, None, seed)

    def layout(packed: int):
        true = not password and packed == unpacked and stream_seed is not None
        plain = plain_header(members, packed, mtime,
                             member_crcs(members, stream_seed, seed) if true else derived_crcs)
        if not password:
            return plain, b""
        enc_len = -(-len(plain) // 16) * 16
        encoded = bytes([K_ENCODED_HEADER]) + streams_info(
            packed, enc_len, coder(AES, aes_props(derived(seed, "7z-iv", 16))), len(plain),
            unpack_crc=zlib.crc32(plain))
        return encoded, b"\x00" * enc_len

    header, enc = layout(stored)
    natural = START_HEADER + stored + len(enc) + len(header)
    packed = stored
    if length is not None and length != natural:
        packed = max(0, stored + length - natural)
        for _ in range(3):      # the header's numbers may change length with `packed`
            header, enc = layout(packed)
            packed = max(0, length - START_HEADER - len(enc) - len(header))
        header, enc = layout(packed)
    total = START_HEADER + packed + len(enc) + len(header)
    header_at = total - len(header)
    pieces = [(0, start_header(header_at - START_HEADER, header)), (header_at, header)]
    return pieces, total, natural, {"header_at": header_at, "header": header,
                                    "packed": packed, "encrypted_header": bool(password)}


def natural_7z_bytes(spec: dict) -> int:
    """The length of the whole archive (all volumes) with stored members."""
    _, total, natural, _ = archive(members_of(spec), spec.get("password"), 0, 0, None)
    return natural


def build_7z(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    k, n = volume_of(spec)
    password = spec.get("password")
    members = members_of(spec)
    # values shared by all volumes come from the set, not the volume's seed
    set_seed = text_seed(release_of(spec), "7z")
    length = spec.get("set_bytes") or (size if n == 1 else None)
    # a single archive is its own stream; a split one's volumes share the set's
    stream_seed = seed if n == 1 else text_seed(release_of(spec), "7z-stream")
    pieces, total, natural, info = archive(members, password, set_seed,
                                           stamp(set_seed), int(length) if length else None,
                                           stream_seed)
    start = 0 if k == 1 else ((k - 1) * size if k < n else max(0, total - size))
    info.update(stream_start=start, stream_total=total)
    return Layout(size, seed, window(pieces, start, size),
                  natural=natural if n == 1 else None, info=info,
                  streams=[] if n == 1 else [(0, size, stream_seed, start)])
