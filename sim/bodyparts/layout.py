"""The content model shared by every kind: a file is pseudo-random filler with
real structures (headers, packets, tags) placed over it.

Nothing big is ever stored: a Layout holds only the placed structures, the
filler of any slice is regenerated from the file's seed and the 64 KiB block
index, so a slice of a 50 GB volume costs what the slice costs.
"""
from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import lru_cache

BLOCK = 1 << 16
# Checksums over content (a par2 set's full-file MD5s, IFSC slice hashes and
# recovery packets' MD5s, an archive's member CRCs, an SFV's lines) are
# hashed from the bytes served when the set they belong to (the par2 set's
# protected files, the archive's members, the SFV's files) totals at most
# TRUE_HASH_LIMIT, and for a file, member or recovery slice of at most
# EXACT_LIMIT in any set; the others are derived from the seed, so no request
# of a GB release (its par2 index, any volume's first article) hashes more
# than that. Up to it a release a test downloads verifies with par2 and the
# archivers. A file's yEnc crc32 is hashed up to TRUE_HASH_LIMIT of it.
# Headers and packets are checksummed exactly at any size.
TRUE_HASH_LIMIT = 64 << 20
EXACT_LIMIT = 1 << 20
HASH_CHUNK = 1 << 20        # bytes rendered at a time when hashing a file
FILLER_DOMAIN = b"voyager-filler"


def hashed(size: int, set_total: int) -> bool:
    """Whether a checksum over `size` bytes of a set of `set_total` is hashed."""
    return size <= EXACT_LIMIT or set_total <= TRUE_HASH_LIMIT


def _seed_key(seed) -> bytes:
    return b"%s:%d:" % (FILLER_DOMAIN, int(seed or 0))


@lru_cache(maxsize=96)
def _filler_block(key: bytes, index: int) -> bytes:
    # SHAKE gives one 64 KiB block per call at C speed and is fixed by a standard,
    # so bodies stay byte-identical across Python versions.
    return hashlib.shake_128(key + index.to_bytes(8, "little")).digest(BLOCK)


def filler(seed, begin: int, end: int) -> bytes:
    """The filler bytes [begin, end) of a file with this seed."""
    if end <= begin:
        return b""
    key = _seed_key(seed)
    first, last = begin // BLOCK, (end - 1) // BLOCK
    if first == last:
        base = first * BLOCK
        return _filler_block(key, first)[begin - base:end - base]
    parts = []
    for i in range(first, last + 1):
        base = i * BLOCK
        blk = _filler_block(key, i)
        lo, hi = max(begin, base) - base, min(end, base + BLOCK) - base
        parts.append(blk if (lo, hi) == (0, BLOCK) else blk[lo:hi])
    return b"".join(parts)


def derived(seed, label: str, n: int) -> bytes:
    """n bytes standing in for a value we do not compute (a CRC of GBs, an IV)."""
    return hashlib.shake_128(b"voyager:%s:%d" % (label.encode(), int(seed or 0))).digest(n)


def derived_int(seed, label: str, bits: int = 32) -> int:
    return int.from_bytes(derived(seed, label, (bits + 7) // 8), "little") & ((1 << bits) - 1)


def text_seed(*parts) -> int:
    """A seed from text (release names, passwords) for values shared by a whole set."""
    h = hashlib.blake2b("\x00".join(str(p) for p in parts).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "little")


@lru_cache(maxsize=1024)
def crc32_filler(seed, begin: int, end: int) -> int:
    """The CRC32 of filler [begin, end), streamed (the volumes of a set ask
    for the same member's again)."""
    crc = 0
    for pos in range(begin, end, HASH_CHUNK):
        crc = zlib.crc32(filler(seed, pos, min(end, pos + HASH_CHUNK)), crc)
    return crc


def stamp(seed) -> int:
    """A posting-era unix time (2015..2024) for archive member times."""
    return 1420070400 + derived_int(seed, "mtime", 32) % (10 * 365 * 86400)


def dos_datetime(ts: int) -> tuple[int, int]:
    """(time, date) in MS-DOS format, as rar4 and zip store them."""
    import time
    t = time.gmtime(max(ts, 315532800))      # DOS dates start in 1980
    dtime = (t.tm_hour << 11) | (t.tm_min << 5) | (t.tm_sec // 2)
    ddate = ((t.tm_year - 1980) << 9) | (t.tm_mon << 5) | t.tm_mday
    return dtime, ddate


@dataclass
class Layout:
    """A file's content: `size` bytes of filler from `seed` with `pieces`
    (offset, bytes) placed over it, sorted and not overlapping. `streams`
    (offset, length, seed, at) are runs whose filler is another stream's,
    from its offset `at`: the data of an archive member, which every volume
    of its set carries a slice of, so its CRC is one stream's."""
    size: int
    seed: int
    pieces: list[tuple[int, bytes]] = field(default_factory=list)
    # the size the structure would have if the spec's bytes fit it exactly
    natural: int | None = None
    # free notes for tests and callers (offsets of interesting things)
    info: dict = field(default_factory=dict)
    streams: list[tuple[int, int, int, int]] = field(default_factory=list)

    def __post_init__(self):
        self.pieces = _clip(self.pieces, 0, self.size)
        self._starts = [off for off, _ in self.pieces]
        self.streams = sorted((o, n, s, a) for o, n, s, a in self.streams if n > 0)

    def _filler(self, begin: int, end: int) -> bytes:
        parts, pos = [], begin
        for off, length, seed, at in self.streams:
            lo, hi = max(off, pos), min(off + length, end)
            if hi <= lo:
                if off >= end:
                    break
                continue
            if lo > pos:
                parts.append(filler(self.seed, pos, lo))
            parts.append(filler(seed, at + lo - off, at + hi - off))
            pos = hi
        if pos < end:
            parts.append(filler(self.seed, pos, end))
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def render(self, begin: int, end: int) -> bytes:
        begin, end = max(0, begin), min(self.size, end)
        if end <= begin:
            return b""
        raw = self._filler(begin, end) if self.streams else filler(self.seed, begin, end)
        i = max(0, bisect_right(self._starts, begin) - 1)
        out = None
        for off, data in self.pieces[i:]:
            if off >= end:
                break
            stop = off + len(data)
            if stop <= begin:
                continue
            if out is None:
                out = bytearray(raw)
            lo, hi = max(off, begin), min(stop, end)
            out[lo - begin:hi - begin] = data[lo - off:hi - off]
        return raw if out is None else bytes(out)


def _clip(pieces, begin: int, end: int) -> list[tuple[int, bytes]]:
    out = []
    for off, data in sorted(((o, d) for o, d in pieces if d), key=lambda p: p[0]):
        lo, hi = max(off, begin), min(off + len(data), end)
        if hi <= lo:
            continue
        if out and lo < out[-1][0] + len(out[-1][1]):
            raise ValueError(f"overlapping structures at {lo}")
        out.append((lo, bytes(data[lo - off:hi - off])))
    return out


def window(pieces, start: int, size: int) -> list[tuple[int, bytes]]:
    """The pieces of a stream seen through a volume's window [start, start+size),
    in the volume's own offsets (byte-split 7z / zip volumes)."""
    out = []
    for off, data in pieces:
        lo, hi = max(off, start), min(off + len(data), start + size)
        if hi > lo:
            out.append((lo - start, data[lo - off:hi - off]))
    return out


class Builder:
    """Appends structures at a running offset; filler gaps are skipped, not stored."""

    def __init__(self, pos: int = 0):
        self.pos = pos
        self.pieces: list[tuple[int, bytes]] = []

    def put(self, data: bytes) -> int:
        at = self.pos
        if data:
            self.pieces.append((at, bytes(data)))
        self.pos += len(data)
        return at

    def skip(self, n: int) -> int:
        at = self.pos
        self.pos += max(0, n)
        return at


# --- spec helpers -------------------------------------------------------------

CONTENT_FIELDS = ("kind", "bytes", "volume", "volumes", "release", "password",
                  "members", "seed", "slice_size", "set_bytes")


def content_key(spec: dict) -> str:
    """What a file's content depends on. Not its posted name: the par2 of a
    renamed upload describes the same content under the real name."""
    key = {k: spec.get(k) for k in CONTENT_FIELDS}
    if spec.get("kind") == "par2vol":
        key["name"] = spec.get("name")      # the exponents come from .volNN+MM
    if spec.get("kind") == "rar" and old_volume_names(spec):
        key["old_names"] = True             # .rar, .r00: the main header says so
    return json.dumps(key, sort_keys=True, separators=(",", ":"), default=str)


OLD_VOLUME_NAME = re.compile(r"\.(rar|r\d\d\d?)$", re.IGNORECASE)
NEW_VOLUME_NAME = re.compile(r"\.part\d+\.rar$", re.IGNORECASE)


def old_volume_names(spec: dict) -> bool:
    """A RAR 4 volume named the old way (.rar, .r00, .r01 ...), not .partNN.rar
    (a content key says so itself: it holds no name)."""
    if spec.get("old_names"):
        return True
    name = str(spec.get("yenc_name") or spec.get("name") or "")
    return bool(OLD_VOLUME_NAME.search(name)) and not NEW_VOLUME_NAME.search(name)


def size_of(spec: dict) -> int:
    return max(0, int(spec.get("bytes") or 0))


def seed_of(spec: dict) -> int:
    return int(spec.get("seed") or 0)


def release_of(spec: dict) -> str:
    rel = spec.get("release")
    if rel:
        return str(rel)
    name = str(spec.get("yenc_name") or spec.get("name") or "release")
    return name.split(".part")[0].rsplit(".", 1)[0] or name


def volume_of(spec: dict) -> tuple[int, int]:
    n = max(1, int(spec.get("volumes") or 1))
    k = min(n, max(1, int(spec.get("volume") or 1)))
    return k, n


def members_of(spec: dict, default_ext: str = "mkv") -> list[dict]:
    """The inner files; an archive described without them holds one file
    named after the release that fills the whole set."""
    members = [m for m in (spec.get("members") or []) if isinstance(m, dict)]
    if members:
        return [{"name": str(m.get("name") or f"file{i}"),
                 "bytes": max(0, int(m.get("bytes") or 0))} for i, m in enumerate(members)]
    _, n = volume_of(spec)
    return [{"name": f"{release_of(spec)}.{default_ext}", "bytes": size_of(spec) * n}]


u16 = struct.Struct("<H").pack
u32 = struct.Struct("<I").pack
u64 = struct.Struct("<Q").pack
