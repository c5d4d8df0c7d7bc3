"""RAR volumes: RAR 4 (`rar`) and RAR 5 (`rar5`), stored members.

A set of n volumes carries the members' bytes as one stream. Volume k < n
takes the stream from (k-1)*capacity, the last volume takes the stream's
tail, capacity being what its own size leaves after the headers: exact when
the generator gives equal volumes and a last one with the remainder (as
`rar -v` does), a few bytes off at the seams otherwise. Each volume starts
with the signature and the main header and lists the pieces it carries, with
the split flags of continued files; an end-of-archive block closes it.
A stored member's data in a set of volumes is one filler stream of its own
(from the release and the member), each volume carrying its slice (a single
volume's is its own filler), so its CRCs are true when the members total at
most TRUE_HASH_LIMIT (a piece or member of at most EXACT_LIMIT in any set):
a piece continued in the next volume carries the CRC of the piece, the
member's last piece that of the whole member, as rar writes them.
Claimed-compressed and passworded data stays the volume's own filler with a
derived CRC (nothing could unpack it anyway).
"""
from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from .layout import (Builder, Layout, crc32_filler, derived, derived_int, dos_datetime, hashed,
                     members_of, old_volume_names, release_of, seed_of, size_of, stamp, text_seed,
                     u16, u32, volume_of)

RAR4_SIGNATURE = b"Rar!\x1a\x07\x00"
RAR5_SIGNATURE = b"Rar!\x1a\x07\x01\x00"

# RAR 4 block types and flags (technote.txt of RAR 3.x/4.x)
R4_MAIN, R4_FILE, R4_ENDARC = 0x73, 0x74, 0x7B
MHD_VOLUME, MHD_NEWNUMBERING, MHD_FIRSTVOLUME = 0x0001, 0x0010, 0x0100
LHD_SPLIT_BEFORE, LHD_SPLIT_AFTER, LHD_PASSWORD = 0x01, 0x02, 0x04
LHD_DICT_4M, LHD_LARGE, LHD_UNICODE, LHD_SALT = 0xC0, 0x0100, 0x0200, 0x0400
LONG_BLOCK, SKIP_IF_UNKNOWN4 = 0x8000, 0x4000
EARC_NEXT_VOLUME, EARC_VOLNUMBER = 0x0001, 0x0008

# RAR 5 (rarlab.com/technote.htm)
R5_MAIN, R5_FILE, R5_CRYPT, R5_ENDARC = 1, 2, 4, 5
HFL_DATA, HFL_SKIP, HFL_SPLIT_BEFORE, HFL_SPLIT_AFTER = 0x02, 0x04, 0x08, 0x10
MAIN_VOLUME, MAIN_VOLNUMBER = 0x01, 0x02
FILE_MTIME, FILE_CRC = 0x02, 0x04
R5_KDF_LOG2 = 15

# stream offsets of the volumes of multi-member sets, by set
_WALKS: OrderedDict[tuple, list[int]] = OrderedDict()
_WALK_LOCK = threading.Lock()


def vint(n: int) -> bytes:
    """RAR 5 variable-length integer: 7 bits a byte, low first."""
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def block4(htype: int, flags: int, body: bytes) -> bytes:
    raw = struct.pack("<BHH", htype, flags, 7 + len(body)) + body
    return u16(zlib.crc32(raw) & 0xFFFF) + raw     # HEAD_CRC: low 16 bits of crc32


def block5(htype: int, flags: int, body: bytes, data_size: int | None = None) -> bytes:
    fields = vint(htype) + vint(flags | (HFL_DATA if data_size is not None else 0))
    if data_size is not None:
        fields += vint(data_size)
    fields += body
    head = vint(len(fields)) + fields
    return u32(zlib.crc32(head)) + head


@dataclass
class Piece:
    """The part of one member a volume carries."""
    name: str
    size: int           # the member's whole unpacked size
    start: int          # offset of the piece inside the member
    length: int         # unpacked bytes of the member in this volume
    packed: int         # bytes of data in this volume (== length when stored)
    split_before: bool
    split_after: bool
    index: int          # member index, for per-member times

    @property
    def stored(self) -> bool:
        return self.packed == self.length


def plan_pieces(members: list[dict], offset: int, cap: int, total: int) -> list[Piece]:
    """The members' pieces in the stream window [offset, offset+cap)."""
    end = min(total, offset + max(0, cap))
    pieces, pos = [], 0
    for i, m in enumerate(members):
        size = m["bytes"]
        lo, hi = max(pos, offset), min(pos + size, end)
        # empty members go with the volume whose window holds their position,
        # the ones at the very end with the volume that reaches it
        if hi > lo or (size == 0 and offset <= pos and (pos < end or pos == end == total)):
            pieces.append(Piece(m["name"], size, lo - pos, max(0, hi - lo), max(0, hi - lo),
                                lo > pos, hi < pos + size, i))
        pos += size
    return pieces


def _name4(name: str) -> tuple[bytes, int]:
    raw = name.encode("utf-8")
    # unrar and rarfile read a unicode-flagged name without the NUL as UTF-8
    return raw, (0 if raw.isascii() else LHD_UNICODE)


def file_header4(p: Piece, crc: int, mtime: int, salt: bytes | None) -> bytes:
    name, flags = _name4(p.name)
    flags |= LONG_BLOCK | LHD_DICT_4M
    if p.split_before:
        flags |= LHD_SPLIT_BEFORE
    if p.split_after:
        flags |= LHD_SPLIT_AFTER
    large = p.packed >= 1 << 32 or p.size >= 1 << 32
    if large:
        flags |= LHD_LARGE
    if salt is not None:
        flags |= LHD_PASSWORD | LHD_SALT
    dtime, ddate = dos_datetime(mtime)
    body = struct.pack("<IIBIIBBHI", p.packed & 0xFFFFFFFF, p.size & 0xFFFFFFFF, 2, crc,
                       (ddate << 16) | dtime, 29, 0x30 if p.stored else 0x33, len(name), 0x20)
    if large:
        body += struct.pack("<II", p.packed >> 32, p.size >> 32)
    body += name
    if salt is not None:
        body += salt
    return block4(R4_FILE, flags, body)


def file_header5(p: Piece, crc: int, mtime: int) -> bytes:
    flags = (HFL_SPLIT_BEFORE if p.split_before else 0) | (HFL_SPLIT_AFTER if p.split_after else 0)
    name = p.name.encode("utf-8")
    method = 0 if p.stored else 3
    comp = (method << 7) | (7 << 10)      # version 0, dictionary 128 KiB << 7 = 16 MiB
    body = (vint(FILE_MTIME | FILE_CRC) + vint(p.size) + vint(0x20) + u32(mtime & 0xFFFFFFFF)
            + u32(crc) + vint(comp) + vint(0) + vint(len(name)) + name)
    return block5(R5_FILE, flags, body, data_size=p.packed)


def main_header4(k: int, n: int, new_numbering: bool = True) -> bytes:
    flags = 0
    if n > 1:
        # readers look for the next volume by the numbering this flag says
        flags |= MHD_VOLUME | (MHD_NEWNUMBERING if new_numbering else 0) | \
            (MHD_FIRSTVOLUME if k == 1 else 0)
    return block4(R4_MAIN, flags, b"\x00" * 6)


def main_header5(k: int, n: int) -> bytes:
    flags, body = 0, b""
    if n > 1:
        flags |= MAIN_VOLUME
        if k > 1:       # RAR 5 marks the first volume by leaving the number out
            flags |= MAIN_VOLNUMBER
            body = vint(k - 1)
    return block5(R5_MAIN, 0, vint(flags) + body)


def end_header4(k: int, n: int) -> bytes:
    if n == 1:
        return block4(R4_ENDARC, SKIP_IF_UNKNOWN4, b"")
    flags = SKIP_IF_UNKNOWN4 | EARC_VOLNUMBER | (EARC_NEXT_VOLUME if k < n else 0)
    return block4(R4_ENDARC, flags, u16(k - 1))


def end_header5(k: int, n: int) -> bytes:
    return block5(R5_ENDARC, HFL_SKIP, vint(1 if k < n else 0))


@lru_cache(maxsize=64)
def rar5_password_check(password: str, salt: bytes, kdf_log2: int = R5_KDF_LOG2) -> bytes:
    """The 12-byte check value of a RAR 5 encryption header: a real one, so a
    reader holding the right password can confirm it (rarfile does)."""
    pwd = password.encode("utf-16le")[:254].decode("utf-16le").encode("utf-8")
    digest = hashlib.pbkdf2_hmac("sha256", pwd, salt, (1 << kdf_log2) + 32)
    check = bytearray(8)
    for i, v in enumerate(digest):
        check[i & 7] ^= v
    return bytes(check) + hashlib.sha256(bytes(check)).digest()[:4]


def encryption_header5(password: str, salt: bytes) -> bytes:
    body = vint(0) + vint(0x01) + bytes([R5_KDF_LOG2]) + salt + rar5_password_check(password, salt)
    return block5(R5_CRYPT, 0, body)


def member_seed(spec: dict, member: dict) -> int:
    """The seed of a member's data stream, the same in every volume of its set."""
    return text_seed(release_of(spec), "rar-member", member["name"], member["bytes"])


def piece_crc(p: Piece, seed: int, at: int) -> int:
    """The CRC a stored piece's header holds, its data being filler of `seed`
    from `at`."""
    if not p.split_after:           # the member's last piece: the whole member's
        return crc32_filler(seed, at - p.start, at - p.start + p.size)
    return crc32_filler(seed, at, at + p.length)


def build_rar(spec: dict, rar5: bool, checksums: bool = True) -> Layout:
    """One volume; `checksums=False` only measures (headers keep their length,
    CRCs are left 0), for sizing a set without hashing it."""
    size, seed = size_of(spec), seed_of(spec)
    k, n = volume_of(spec)
    password = spec.get("password")
    members = members_of(spec)
    total = sum(m["bytes"] for m in members)
    set_salt = derived(text_seed(release_of(spec), password), "rar-salt", 16)
    out = Builder()
    out.put(RAR5_SIGNATURE if rar5 else RAR4_SIGNATURE)

    if rar5 and password:
        # rar -hp: only the encryption header is plain; every later header is
        # an IV plus AES blocks, which filler stands in for.
        out.put(encryption_header5(str(password), set_salt))
        natural = None
        if n == 1:
            def sealed(length: int) -> int:
                return -(-length // 16) * 16            # AES-CBC blocks

            natural = out.pos + sum(16 + sealed(len(h)) for h in (main_header5(1, 1),
                                                                 end_header5(1, 1)))
            for p in plan_pieces(members, 0, total, total):
                natural += 16 + sealed(len(file_header5(p, 0, 0))) + sealed(p.packed)
        return Layout(size, seed, out.pieces, natural=natural,
                      info={"encrypted_headers": True, "headers_end": out.pos})

    main = main_header5(k, n) if rar5 else main_header4(k, n, not old_volume_names(spec))
    end = end_header5(k, n) if rar5 else end_header4(k, n)
    out.put(main)
    fixed = out.pos + len(end)
    salt = derived(seed, "rar4-salt", 8) if password else None
    base_time = stamp(text_seed(release_of(spec)))

    def headers(pieces: list[Piece]) -> list[bytes]:
        return [file_header5(p, 0, base_time) if rar5 else file_header4(p, 0, base_time, salt)
                for p in pieces]

    main_of = main_header5 if rar5 else main_header4
    end_of = end_header5 if rar5 else end_header4

    def fit(j: int, offset_for) -> list[Piece]:
        """Volume j's pieces when its window starts at offset_for(capacity):
        the capacity depends on the headers, the headers on the pieces."""
        fixed_j = out.pos - len(main) + len(main_of(j, n)) + len(end_of(j, n))
        cap, pieces = size - fixed_j - 64, []
        for _ in range(6):
            pieces = plan_pieces(members, min(max(0, offset_for(cap)), total), cap, total)
            new_cap = size - fixed_j - sum(map(len, headers(pieces)))
            if new_cap == cap:
                break
            cap = new_cap
        return pieces

    if n == 1:
        pieces = plan_pieces(members, 0, total, total)
    elif k == n:
        pieces = fit(k, lambda cap: total - cap)        # the last volume holds the tail
    elif len(members) == 1:
        # earlier volumes of the same size carried a little more or less data
        # where their main header is shorter (RAR 5 leaves the first volume's
        # number out, and numbers grow a byte past 127)
        drift = sum(len(main) - len(main_of(j, n)) for j in range(1, k))
        pieces = fit(k, lambda cap: (k - 1) * cap + drift)
    else:
        # several members: each earlier volume's header count differs, walk
        # them once per set (remembered, so a set of n volumes costs O(n))
        key = (rar5, bool(password), size, n, tuple((m["name"], m["bytes"]) for m in members))
        with _WALK_LOCK:
            offsets = _WALKS.pop(key, None) or [0]
            _WALKS[key] = offsets
            while len(_WALKS) > 64:
                _WALKS.popitem(last=False)
            while len(offsets) < k:
                j, at = len(offsets), offsets[-1]
                offsets.append(stream_end(members, fit(j, lambda cap: at), at))
            offset = offsets[k - 1]
        pieces = fit(k, lambda cap: offset)
    natural = fixed + sum(map(len, headers(pieces))) + sum(p.packed for p in pieces)
    slack = size - natural
    if slack < 0 and pieces:
        # the volume is smaller than stored data would be: the biggest piece is
        # claimed compressed (method 3 / 0x33), its packed size shrunk to fit
        big = max(pieces, key=lambda p: p.packed)
        big.packed = max(0, big.packed + slack)

    single = n == 1
    streams = []
    for p, blank in zip(pieces, headers(pieces)):
        data_at = out.pos + len(blank)      # CRC and time do not change a header's length
        crc = None
        if p.stored and not password:
            if single:
                at, data_seed = data_at, seed
            else:
                at, data_seed = p.start, member_seed(spec, members[p.index])
                streams.append((data_at, p.packed, data_seed, at))
            if not checksums:
                crc = 0
            elif hashed(p.length if p.split_after else p.size, total):
                crc = piece_crc(p, data_seed, at)
        if crc is None:
            crc = derived_int(seed, f"rar-crc:{p.index}")
        hdr = file_header5(p, crc, base_time + p.index) if rar5 else \
            file_header4(p, crc, base_time + p.index, salt)
        out.put(hdr)
        out.skip(p.packed)
    out.put(end)
    return Layout(size, seed, out.pieces, natural=natural if single else None,
                  info={"pieces": pieces, "members": members, "end_at": out.pos - len(end)},
                  streams=streams)


def stream_end(members: list[dict], pieces: list[Piece], default: int = 0) -> int:
    """Where a volume's data ends in the members' stream."""
    if not pieces:
        return default
    last = pieces[-1]
    return sum(m["bytes"] for m in members[:last.index]) + last.start + last.length


def rar_volume_sizes(spec: dict, volume_size: int) -> list[int]:
    """Sizes of the volumes of `rar -v<volume_size>` for this spec's members:
    every volume volume_size bytes, the last one what remains, so that the
    volumes this model builds meet exactly at their seams."""
    rar5 = spec.get("kind") == "rar5"
    single = dict(spec, volume=1, volumes=1, bytes=1)
    natural = build_rar(single, rar5, checksums=False).natural
    if natural is not None and natural <= volume_size:
        return [natural]
    members = members_of(spec)
    total = sum(m["bytes"] for m in members)
    if rar5 and spec.get("password"):
        # headers are opaque: plain even slices of the stored stream
        n = max(1, -(-total // max(1, volume_size - 128)))
        return [volume_size] * (n - 1) + [max(1, total - (n - 1) * (volume_size - 128) + 128)]
    sizes, done, k = [], 0, 1
    while True:
        vol = build_rar(dict(spec, volume=k, volumes=1 << 30, bytes=volume_size), rar5,
                        checksums=False)
        end = stream_end(members, vol.info["pieces"])
        if end >= total or end <= done:
            break
        sizes.append(volume_size)
        done, k = end, k + 1
    n = k
    guess = total - done + 256
    for _ in range(6):
        last = build_rar(dict(spec, volume=n, volumes=n, bytes=guess), rar5, checksums=False)
        first = last.info["pieces"][0] if last.info["pieces"] else None
        start = (sum(m["bytes"] for m in members[:first.index]) + first.start) if first else total
        if start == done:
            break
        guess += start - done
    return sizes + [guess]
