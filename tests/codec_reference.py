"""The release chunk codec, pure Python: the oracle of ext/codec.pyx (and
`python -m bench.codec CORPUS ref`).

Both produce byte-identical chunks (tests/ext/test_codec.py compares them);
this one is the readable statement of the format, the compiled one is the
only one deployed (the window, the web and the server's PL/Python use it).

    encode(files) -> bytes
    decode(data) -> files

`files` is a list of `(name: bytes, file_bytes: int, segments)`, `segments` a
list of `(part: int, message_id: bytes, article_bytes: int)` (message-ids
without the angle brackets). decode returns tuples in the same shape; a chunk
that is corrupt, truncated or of an unknown version raises ValueError.

Format, version 1 (all integers LEB128 varints unless said otherwise):

    chunk  = VERSION(1 byte) head meta packed crc32(4 bytes LE, of all before)
    head   = varint(meta_len * 2 + z) [varint(stored_len) if z]
    meta   = the metadata below, zstd-compressed (magicless frame, no
             content size, no checksum) when z = 1, else as is
    packed = the per-segment bit stream (LSB first), zero-padded to a byte

The metadata is columnar so that zstd finds the repeats:

    nfiles, ninst, inst * ninst                 templates (see below)
    len(name) * nfiles, then the names concatenated
    file_bytes * nfiles, nsegs * nfiles
    for files with nsegs >= 1: first part; inst ref (0 = none, k = inst k-1);
        zigzag(article bytes - file bytes) for a one-segment file, else
        zigzag(base - the previous such file's base (0 for the first)), the
        base being the least article bytes of all but the last segment
    for files with nsegs >= 2: size width (1 byte); zigzag(last - base)
    for files with nsegs >= 2: count of part exceptions
    for files with nsegs >= 1: count of message-id exceptions
    part exceptions: (index gap, zigzag(delta - 1)) for each part whose delta
        to the previous part is not 1
    message-id exceptions: (index gap, len, bytes) for each message-id that
        the file's template does not produce (all of them without a template)

An index gap is `index - previous index - 1` (previous starts at -1).

A template (an "inst") rebuilds a message-id from its part number and a few
fields read from the bit stream:

    nelems, then per element a kind byte:
      0 LIT    varint len, bytes
      1 PART   the part number in decimal
      2 FIXED  class byte, varint m: m characters of the class, packed in
               chunks (CHUNK[class] characters per chunk, the last shorter),
               each chunk a base-radix number of bit_length(radix^k - 1) bits
      3 NUM    varint base, width byte: a decimal number base + w bits
      4 NUMD   varint first, varint zigzag(dmin), width byte: the first use
               reads no bits and is `first`, later ones are the previous
               value + dmin + w bits
      5 VAR    class byte, varint minlen, lenw byte: lenw bits of extra
               length, then that many characters as in FIXED
      6 TOTAL  the file's last part number in decimal

The classes are digits, lower hex, upper hex, lower base36, upper base36 and
base62. The bit stream holds, per file in order, per segment in order: the
template's fields (unless the segment's message-id is an exception), then for
all but the last segment of a file with nsegs >= 2 the article bytes minus the
base in `size width` bits.

How the encoder finds a template (the decoder never needs to know): the
message-ids of a file with two or more segments (or of all the one-segment
files of the chunk together) are split into runs of [0-9A-Za-z] and runs of
anything else. The ids with the first id's separators match (the rest are
exceptions); when fewer than half do, the first id that does not is tried in
its place and kept if more ids match it. Then per alphanumeric run:

    - constant -> LIT (TOTAL if it is the file's last part number);
    - `A + str(part) + B` with A, B constant -> LIT PART LIT (with TOTAL where
      the last part number is first found in B, else in A);
    - decimals of up to 18 digits without leading zeros -> NUM or NUMD,
      whichever takes fewer bits;
    - else the common prefix and suffix are LITs and the middle is FIXED (one
      length) or VAR.

A group of one id keeps its runs after the last '@' literal, makes NUM of
all-digit runs of 4+ characters and FIXED of other runs of 12+.
"""
from __future__ import annotations

import json
import sys
import threading
import time
import zlib
from pathlib import Path

import zstandard

VERSION = 1
LEVEL = 6
MAXV = 1 << 62                 # parts and article bytes: 0 .. MAXV
MAX_FILE_BYTES = (1 << 63) - 1
MAX_COUNT = 1 << 24            # files, and segments, per chunk
MAX_RUNS = 64                  # alphanumeric runs in a message-id with a template
MAX_TEMPLATE_ID = 4096         # longer message-ids are stored as they are
MAX_TEMPLATE_OUT = 1 << 20     # a decoded template's longest message-id
MAX_META = 1 << 30
NUM_LIMIT = 10 ** 18

LIT, PART, FIXED, NUM, NUMD, VAR, TOTAL = range(7)
DIGIT, HEXL, HEXU, B36L, B36U, B62 = range(6)
ALPHABETS = [
    b"0123456789",
    b"0123456789abcdef",
    b"0123456789ABCDEF",
    b"0123456789abcdefghijklmnopqrstuvwxyz",
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
]
RADIX = [len(a) for a in ALPHABETS]
CHUNK = [19, 16, 16, 12, 12, 10]           # characters per chunk: radix^k < 2^64
CHUNK_BITS = [[(RADIX[c] ** k - 1).bit_length() for k in range(CHUNK[c] + 1)] for c in range(6)]
DIGIT_OF = [{ch: i for i, ch in enumerate(a)} for a in ALPHABETS]
ALNUM = frozenset(ALPHABETS[B62])

# The zstd dictionary (raw content) of format version 1: what a chunk's
# metadata commonly holds, so a small chunk does not pay for it. Part of the
# format: changing it needs a new VERSION.
DICTIONARY = (
    b".part01.rar .part001.rar .rar .r00 .r01 .7z.001 .zip .par2 .vol00+01.par2 .vol01+02.par2 "
    b".vol03+04.par2 .vol07+08.par2 .vol15+16.par2 .nfo .sfv .nzb .srr .mkv .mp4 .avi .m2ts .iso "
    b".mp3 .flac .m4a .jpg .png .gif .epub .pdf .cbz .cbr .exe .bin "
    b"2160p 1080p 720p 480p UHD BluRay WEB-DL WEBRip WEB HDTV REMUX BDRip DVDRip x264 x265 h264 "
    b"H.264 H.265 HEVC AV1 AAC DTS DDP5.1 DD5.1 Atmos TrueHD HDR DV REPACK PROPER COMPLETE iNTERNAL "
    b"MULTi GERMAN FRENCH DUBBED SUBBED S01E01 .x64 [FLAC] [MP3 320] [MP3 V0] "
    b"@camelsystem-powerpost.local @ngPost.com .newsmangler "
    b"\x04\x02\x01\x10\x00\x01-\x02\x01\x08\x00\x0c@gopoststuff"
    b"\x02\x02\x01 \x00\x07@ngPost"
    b"\x02\x02\x01 \x00\x0b@ngPost.com"
    b"\x04\x02\x05\x18\x00\x01-\x03\x00\x05@nyuu"
    b"\x07\x00\x04part\x01\x00\x02of\x06\x00\x01.\x02\x05\x10\x00\r@JBinUp.local"
    b"\x03\x00\tpart1of1.\x02\x05\x10\x00\r@JBinUp.local"
    b"\x03\x00\tpart1of1.\x02\x05\x14\x00\x16@powerpost2000AA.local"
    b"\x07\x00\x04part\x01\x00\x02of\x06\x00\x01.\x02\x05\x14\x00\x16@powerpost2000AA.local"
)


def zstd_params():
    """(compression parameters, dictionary) of the metadata's zstd frames."""
    params = zstandard.ZstdCompressionParameters.from_level(
        LEVEL, format=zstandard.FORMAT_ZSTD1_MAGICLESS, write_checksum=0, write_content_size=0, write_dict_id=0)
    return params, zstandard.ZstdCompressionDict(DICTIONARY, dict_type=zstandard.DICT_TYPE_RAWCONTENT)


_zparams, _zdict = zstd_params()
_local = threading.local()       # zstd contexts are not thread-safe: one per thread


def _compress(raw: bytes) -> bytes:
    c = getattr(_local, "c", None)
    if c is None:
        c = _local.c = zstandard.ZstdCompressor(compression_params=_zparams, dict_data=_zdict)
    return c.compress(raw)


def _decompress(data: bytes, size: int) -> bytes:
    """`size` bytes out of a metadata frame. A stream, so that a frame header
    claiming a huge content size allocates nothing."""
    d = getattr(_local, "d", None)
    if d is None:
        d = _local.d = zstandard.ZstdDecompressor(dict_data=_zdict, format=zstandard.FORMAT_ZSTD1_MAGICLESS,
                                                  max_window_size=1 << 23)
    out = bytearray()
    try:
        with d.stream_reader(data) as reader:
            while len(out) <= size:
                piece = reader.read(size + 1 - len(out))
                if not piece:
                    break
                out += piece
    except zstandard.ZstdError as e:
        raise ValueError(f"release chunk: corrupt metadata ({e})") from None
    if len(out) != size:
        raise ValueError("release chunk: metadata length mismatch")
    return bytes(out)


# -- primitives ------------------------------------------------------------------

def _varint(out: bytearray, v: int) -> None:
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)


def _zz(v: int) -> int:
    return v * 2 if v >= 0 else -v * 2 - 1


def _unzz(z: int) -> int:
    return (z >> 1) ^ -(z & 1)


class _Bits:
    __slots__ = ("out", "acc", "n")

    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.n = 0

    def write(self, v: int, w: int) -> None:
        if w:
            self.acc |= v << self.n
            self.n += w
            while self.n >= 8:
                self.out.append(self.acc & 0xFF)
                self.acc >>= 8
                self.n -= 8

    def finish(self) -> bytes:
        if self.n:
            self.out.append(self.acc & 0xFF)
        return bytes(self.out)


def _class_of(chars) -> int:
    lower = upper = lo_hi = up_hi = False
    for ch in chars:
        if 97 <= ch <= 122:
            lower = True
            lo_hi = lo_hi or ch > 102
        elif 65 <= ch <= 90:
            upper = True
            up_hi = up_hi or ch > 70
    if lower and upper:
        return B62
    if lo_hi:
        return B36L
    if lower:
        return HEXL
    if up_hi:
        return B36U
    if upper:
        return HEXU
    return DIGIT


def _write_chars(bits: _Bits, cls: int, s: bytes) -> None:
    k = CHUNK[cls]
    radix = RADIX[cls]
    table = DIGIT_OF[cls]
    for i in range(0, len(s), k):
        piece = s[i:i + k]
        v = 0
        for ch in piece:
            v = v * radix + table[ch]
        bits.write(v, CHUNK_BITS[cls][len(piece)])


def _numeric(v: bytes) -> bool:
    return 0 < len(v) <= 18 and v.isdigit() and (len(v) == 1 or v[0] != 48)


# -- templates -------------------------------------------------------------------

def _tokens(mid: bytes) -> list[tuple[bool, int, int]]:
    toks = []
    i, n = 0, len(mid)
    while i < n:
        a = mid[i] in ALNUM
        j = i + 1
        while j < n and (mid[j] in ALNUM) == a:
            j += 1
        toks.append((a, i, j))
        i = j
    return toks


def _key(mid: bytes, toks) -> tuple:
    return tuple(None if a else mid[s:e] for a, s, e in toks)


class _Template:
    """A group's template: the serialized inst plus what the encoder needs to
    write each matching message-id's fields."""

    def __init__(self, raw: bytes, plans: list, runs: list, delta: bool):
        self.raw = raw            # serialized inst
        self.plans = plans        # per alphanumeric run: the plan
        self.runs = runs          # token index of each alphanumeric run
        self.delta = delta        # holds a NUMD (never shared between files)


def _plan_run(vals: list[bytes], parts: list[int], single: bool, after_at: bool, total: int | None):
    """The plan for one alphanumeric run position: a tuple whose first item is
    the kind ('lit', 'total', 'part', 'num', 'numd', 'fixed', 'var')."""
    v0 = vals[0]
    if single:
        if after_at:
            return ("lit", v0)
        if len(v0) >= 4 and _numeric(v0):
            return ("num", int(v0), 0)
        if len(v0) >= 12:
            return ("fixed", b"", b"", _class_of(v0), len(v0))
        return ("lit", v0)
    t = None if total is None else str(total).encode()
    if all(v == v0 for v in vals):
        return ("total",) if v0 == t else ("lit", v0)
    s0 = str(parts[0]).encode()
    i = v0.find(s0)
    while i >= 0:
        a, b = v0[:i], v0[i + len(s0):]
        if all(v == a + str(p).encode() + b for v, p in zip(vals, parts)):
            return ("part", a, b, t)
        i = v0.find(s0, i + 1)
    n = len(vals)
    if all(_numeric(v) for v in vals):
        nums = [int(v) for v in vals]
        lo = min(nums)
        wr = (max(nums) - lo).bit_length()
        deltas = [b - a for a, b in zip(nums, nums[1:])]
        dmin = min(deltas)
        wd = (max(deltas) - dmin).bit_length()
        if (n - 1) * wd + 8 < n * wr:
            return ("numd", nums[0], dmin, wd)
        return ("num", lo, wr)
    minlen = min(len(v) for v in vals)
    p = 0
    while p < minlen and all(v[p] == v0[p] for v in vals):
        p += 1
    q = 0
    while q < minlen - p and all(v[len(v) - 1 - q] == v0[len(v0) - 1 - q] for v in vals):
        q += 1
    mids = [v[p:len(v) - q] for v in vals]
    cls = _class_of(b"".join(mids))
    lens = [len(m) for m in mids]
    lo, hi = min(lens), max(lens)
    pre, suf = v0[:p], v0[len(v0) - q:]
    if lo == hi:
        return ("fixed", pre, suf, cls, lo)
    return ("var", pre, suf, cls, lo, (hi - lo).bit_length())


def _candidate(group: list[tuple[int, bytes]], c: int):
    """(count, mid, tokens, matches, members) with group[c] as the reference
    id: the ids with its separators match (members: (part, mid, tokens))."""
    n = len(group)
    mid0 = group[c][1]
    if len(mid0) > MAX_TEMPLATE_ID:
        return 0, mid0, [], [False] * n, []
    toks0 = _tokens(mid0)
    if sum(1 for t in toks0 if t[0]) > MAX_RUNS:
        return 0, mid0, [], [False] * n, []
    key0 = _key(mid0, toks0)
    matches = []
    members = []
    for part, mid in group:
        if len(mid) > MAX_TEMPLATE_ID:
            matches.append(False)
            continue
        toks = _tokens(mid)
        ok = len(toks) == len(toks0) and _key(mid, toks) == key0
        matches.append(ok)
        if ok:
            members.append((part, mid, toks))
    return len(members), mid0, toks0, matches, members


def _infer(group: list[tuple[int, bytes]], singles: bool):
    """(template or None, matches: list[bool]) for a group of (part, mid):
    the segments of one file, or (singles) the one-segment files."""
    n = len(group)
    best = _candidate(group, 0)
    if 2 * best[0] < n:
        # most ids do not look like the first: try the first that does not
        alt = next((i for i in range(1, n) if not best[3][i]), None)
        if alt is not None:
            other = _candidate(group, alt)
            if other[0] > best[0]:
                best = other
    count, mid0, toks0, matches, members = best
    if not count:
        return None, [False] * n
    runs = [i for i, t in enumerate(toks0) if t[0]]
    single = n == 1
    total = None if singles else group[-1][0]
    last_at = mid0.rfind(b"@")
    parts = [m[0] for m in members]
    plans = []
    for r in runs:
        vals = [mid[toks[r][1]:toks[r][2]] for _p, mid, toks in members]
        plans.append(_plan_run(vals, parts, single, toks0[r][1] > last_at, total))
    # the inst: elements in order, adjacent literals merged
    elems: list = []

    def lit(b: bytes):
        if b:
            if elems and elems[-1][0] == LIT:
                elems[-1] = (LIT, elems[-1][1] + b)
            else:
                elems.append((LIT, b))

    plan_iter = iter(plans)
    delta = False
    for a, s, e in toks0:
        if not a:
            lit(mid0[s:e])
            continue
        plan = next(plan_iter)
        kind = plan[0]
        if kind == "lit":
            lit(plan[1])
        elif kind == "total":
            elems.append((TOTAL,))
        elif kind == "part":
            # the total (the file's last part) in what follows the part, else before it
            a, b, t = plan[1], plan[2], plan[3]
            j = -1 if t is None else b.find(t)
            k = a.find(t) if j < 0 and t is not None else -1
            if k >= 0:
                lit(a[:k])
                elems.append((TOTAL,))
                a = a[k + len(t):]
            lit(a)
            elems.append((PART,))
            if j >= 0:
                lit(b[:j])
                elems.append((TOTAL,))
                b = b[j + len(t):]
            lit(b)
        elif kind == "num":
            elems.append((NUM, plan[1], plan[2]))
        elif kind == "numd":
            elems.append((NUMD, plan[1], plan[2], plan[3]))
            delta = True
        elif kind == "fixed":
            lit(plan[1])
            elems.append((FIXED, plan[3], plan[4]))
            lit(plan[2])
        else:
            lit(plan[1])
            elems.append((VAR, plan[3], plan[4], plan[5]))
            lit(plan[2])
    raw = bytearray()
    _varint(raw, len(elems))
    for el in elems:
        raw.append(el[0])
        if el[0] == LIT:
            _varint(raw, len(el[1]))
            raw += el[1]
        elif el[0] == FIXED:
            raw.append(el[1])
            _varint(raw, el[2])
        elif el[0] == NUM:
            _varint(raw, el[1])
            raw.append(el[2])
        elif el[0] == NUMD:
            _varint(raw, el[1])
            _varint(raw, _zz(el[2]))
            raw.append(el[3])
        elif el[0] == VAR:
            raw.append(el[1])
            _varint(raw, el[2])
            raw.append(el[3])
    return _Template(bytes(raw), plans, runs, delta), matches


class _Emitter:
    """Writes the fields of a template's matching message-ids, in group order."""

    def __init__(self, tpl: _Template):
        self.tpl = tpl
        self.prev: dict[int, int] = {}

    def emit(self, bits: _Bits, mid: bytes) -> None:
        toks = _tokens(mid)
        for j, (r, plan) in enumerate(zip(self.tpl.runs, self.tpl.plans)):
            kind = plan[0]
            if kind in ("lit", "part", "total"):
                continue
            v = mid[toks[r][1]:toks[r][2]]
            if kind == "num":
                bits.write(int(v) - plan[1], plan[2])
            elif kind == "numd":
                x = int(v)
                if j in self.prev:
                    bits.write(x - self.prev[j] - plan[2], plan[3])
                self.prev[j] = x
            else:
                m = v[len(plan[1]):len(v) - len(plan[2])]
                if kind == "var":
                    bits.write(len(m) - plan[4], plan[5])
                _write_chars(bits, plan[3], m)


# -- encode ------------------------------------------------------------------------

def _check_int(v, lo: int, hi: int, what: str) -> int:
    if not isinstance(v, int):
        raise TypeError(f"release chunk: {what} must be an int, not {type(v).__name__}")
    if not lo <= v <= hi:
        raise ValueError(f"release chunk: {what} {v} out of range {lo}..{hi}")
    return v


def _check_bytes(v, what: str) -> bytes:
    if not isinstance(v, bytes):
        raise TypeError(f"release chunk: {what} must be bytes, not {type(v).__name__}")
    return v


def encode(files) -> bytes:
    """The chunk of a release: files = [(name, file_bytes, [(part, message_id, article_bytes), ...]), ...]."""
    norm = []
    total = 0
    for f in files:
        if len(f) != 3:
            raise ValueError("release chunk: a file is (name, file_bytes, segments)")
        name, fbytes, segs = f
        _check_bytes(name, "file name")
        _check_int(fbytes, 0, MAX_FILE_BYTES, "file bytes")
        ss = []
        for s in segs:
            if len(s) != 3:
                raise ValueError("release chunk: a segment is (part, message_id, article_bytes)")
            ss.append((_check_int(s[0], 0, MAXV, "part"), _check_bytes(s[1], "message-id"),
                       _check_int(s[2], 0, MAXV, "article bytes")))
        total += len(ss)
        if total > MAX_COUNT:
            raise ValueError("release chunk: too many segments")
        norm.append((name, fbytes, ss))
    if len(norm) > MAX_COUNT:
        raise ValueError("release chunk: too many files")

    singles = [f[2][0] for f in norm if len(f[2]) == 1]
    single_tpl = single_matches = None
    if singles:
        single_tpl, single_matches = _infer([(p, m) for p, m, _b in singles], True)
        single_emit = _Emitter(single_tpl) if single_tpl else None
    single_i = 0

    insts: list[bytes] = []
    inst_ids: dict[bytes, int] = {}

    def inst_ref(tpl: _Template) -> int:
        if tpl is None:
            return 0
        if not tpl.delta and tpl.raw in inst_ids:
            return inst_ids[tpl.raw]
        insts.append(tpl.raw)
        if not tpl.delta:
            inst_ids[tpl.raw] = len(insts)
        return len(insts)

    single_ref = None
    bits = _Bits()
    c_first, c_inst, c_size, c_width, c_last, c_pexc_n, c_mexc_n, c_pexc, c_mexc = (bytearray() for _ in range(9))
    prev_size = 0
    for _name, fb, segs in norm:
        n = len(segs)
        if n == 0:
            continue
        _varint(c_first, segs[0][0])
        if n == 1:
            if single_ref is None:
                single_ref = inst_ref(single_tpl)
            ref, tpl, matches, emitter = single_ref, single_tpl, [single_matches[single_i]], single_emit if single_tpl else None
            single_i += 1
            size_a = segs[0][2]
        else:
            tpl, matches = _infer([(p, m) for p, m, _b in segs], False)
            ref = inst_ref(tpl)
            emitter = _Emitter(tpl) if tpl else None
            size_a = min(s[2] for s in segs[:-1])
        _varint(c_inst, ref)
        if n == 1:
            _varint(c_size, _zz(size_a - fb))
        else:
            _varint(c_size, _zz(size_a - prev_size))
            prev_size = size_a
        width = 0
        if n >= 2:
            width = (max(s[2] for s in segs[:-1]) - size_a).bit_length()
            c_width.append(width)
            _varint(c_last, _zz(segs[-1][2] - size_a))
            exc = [(i, segs[i][0] - segs[i - 1][0]) for i in range(1, n) if segs[i][0] - segs[i - 1][0] != 1]
            _varint(c_pexc_n, len(exc))
            prev = -1
            for i, d in exc:
                _varint(c_pexc, i - prev - 1)
                _varint(c_pexc, _zz(d - 1))
                prev = i
        nexc = 0
        prev = -1
        for i, (_p, mid, size) in enumerate(segs):
            if matches[i]:
                emitter.emit(bits, mid)
            else:
                nexc += 1
                _varint(c_mexc, i - prev - 1)
                _varint(c_mexc, len(mid))
                c_mexc += mid
                prev = i
            if n >= 2 and i < n - 1:
                bits.write(size - size_a, width)
        _varint(c_mexc_n, nexc)

    meta = bytearray()
    _varint(meta, len(norm))
    _varint(meta, len(insts))
    for raw in insts:
        meta += raw
    for name, _fb, _s in norm:
        _varint(meta, len(name))
    for name, _fb, _s in norm:
        meta += name
    for _name, fb, _s in norm:
        _varint(meta, fb)
    for _name, _fb, s in norm:
        _varint(meta, len(s))
    for col in (c_first, c_inst, c_size, c_width, c_last, c_pexc_n, c_mexc_n, c_pexc, c_mexc):
        meta += col
    meta = bytes(meta)
    z = _compress(meta)
    out = bytearray([VERSION])
    if len(z) < len(meta):
        _varint(out, len(meta) * 2 + 1)
        _varint(out, len(z))
        out += z
    else:
        _varint(out, len(meta) * 2)
        out += meta
    out += bits.finish()
    out += zlib.crc32(out).to_bytes(4, "little")
    return bytes(out)


# -- decode ------------------------------------------------------------------------

class _Reader:
    __slots__ = ("buf", "pos")

    def __init__(self, buf: bytes, pos: int = 0):
        self.buf = buf
        self.pos = pos

    def varint(self) -> int:
        v = shift = 0
        buf = self.buf
        while True:
            if self.pos >= len(buf):
                raise ValueError("release chunk: truncated metadata")
            b = buf[self.pos]
            self.pos += 1
            if shift == 63 and b > 1:
                raise ValueError("release chunk: varint overflow")
            v |= (b & 0x7F) << shift
            if b < 0x80:
                return v
            shift += 7

    def byte(self) -> int:
        if self.pos >= len(self.buf):
            raise ValueError("release chunk: truncated metadata")
        self.pos += 1
        return self.buf[self.pos - 1]

    def take(self, n: int) -> bytes:
        if n > len(self.buf) - self.pos:
            raise ValueError("release chunk: truncated metadata")
        self.pos += n
        return self.buf[self.pos - n:self.pos]


class _BitReader:
    __slots__ = ("buf", "pos", "end")

    def __init__(self, buf: bytes):
        self.buf = buf
        self.pos = 0
        self.end = len(buf) * 8

    def read(self, w: int) -> int:
        if not w:
            return 0
        if self.pos + w > self.end:
            raise ValueError("release chunk: truncated bit stream")
        b = self.pos >> 3
        v = int.from_bytes(self.buf[b:(self.pos + w + 7) >> 3], "little") >> (self.pos & 7)
        self.pos += w
        return v & ((1 << w) - 1)


def _corrupt(what: str):
    raise ValueError(f"release chunk: corrupt ({what})")


def _read_inst(r: _Reader) -> list:
    n = r.varint()
    if n > 4 * MAX_RUNS + 2:
        _corrupt("template size")
    elems = []
    out_len = 0
    for _ in range(n):
        kind = r.byte()
        if kind == LIT:
            b = r.take(r.varint())
            elems.append((LIT, b))
            out_len += len(b)
        elif kind == PART or kind == TOTAL:
            elems.append((kind,))
            out_len += 20
        elif kind == FIXED:
            cls = r.byte()
            m = r.varint()
            if cls > B62 or not 1 <= m <= MAX_TEMPLATE_OUT:
                _corrupt("template field")
            elems.append((FIXED, cls, m))
            out_len += m
        elif kind == NUM:
            base = r.varint()
            w = r.byte()
            if base >= NUM_LIMIT or w > 60:
                _corrupt("template number")
            elems.append((NUM, base, w))
            out_len += 18
        elif kind == NUMD:
            first = r.varint()
            dmin = _unzz(r.varint())
            w = r.byte()
            if first >= NUM_LIMIT or not -NUM_LIMIT < dmin < NUM_LIMIT or w > 61:
                _corrupt("template number")
            elems.append((NUMD, first, dmin, w))
            out_len += 18
        elif kind == VAR:
            cls = r.byte()
            lo = r.varint()
            w = r.byte()
            if cls > B62 or lo > MAX_TEMPLATE_OUT or w > 16:
                _corrupt("template field")
            elems.append((VAR, cls, lo, w))
            out_len += lo + (1 << w) - 1
        else:
            _corrupt("template kind")
        if out_len > MAX_TEMPLATE_OUT:
            _corrupt("template length")
    return elems


# decimal and hex chunks print with format(); the others two digits a step
_FORMAT = {0: "d", 1: "x", 2: "X"}
_PAIRS = {c: [ALPHABETS[c][i // RADIX[c]:i // RADIX[c] + 1] + ALPHABETS[c][i % RADIX[c]:i % RADIX[c] + 1]
              for i in range(RADIX[c] ** 2)] for c in range(6) if c not in _FORMAT}


def _read_chars(bits: _BitReader, cls: int, m: int) -> bytes:
    k = CHUNK[cls]
    widths = CHUNK_BITS[cls]
    fmt = _FORMAT.get(cls)
    out = []
    for i in range(0, m, k):
        c = min(k, m - i)
        v = bits.read(widths[c])
        if fmt is not None:
            text = format(v, fmt)
            if len(text) > c:
                _corrupt("packed characters")
            out.append(text.rjust(c, "0").encode("ascii"))
            continue
        radix = RADIX[cls]
        pairs = _PAIRS[cls]
        square = radix * radix
        digits = []
        n = c
        while n >= 2:
            v, d = divmod(v, square)
            digits.append(pairs[d])
            n -= 2
        if n:
            v, d = divmod(v, radix)
            digits.append(ALPHABETS[cls][d:d + 1])
        if v:
            _corrupt("packed characters")
        digits.reverse()
        out.append(b"".join(digits))
    return b"".join(out)


class _Maker:
    """Rebuilds message-ids from one inst."""

    def __init__(self, elems):
        self.elems = elems
        self.prev: dict[int, int] = {}

    def make(self, bits: _BitReader, part: int, total: int) -> bytes:
        out = bytearray()
        for j, el in enumerate(self.elems):
            kind = el[0]
            if kind == LIT:
                out += el[1]
            elif kind == PART:
                out += str(part).encode()
            elif kind == TOTAL:
                out += str(total).encode()
            elif kind == FIXED:
                out += _read_chars(bits, el[1], el[2])
            elif kind == NUM:
                v = el[1] + bits.read(el[2])
                if v >= NUM_LIMIT:
                    _corrupt("number")
                out += str(v).encode()
            elif kind == NUMD:
                if j in self.prev:
                    v = self.prev[j] + el[2] + bits.read(el[3])
                    if not 0 <= v < NUM_LIMIT:
                        _corrupt("number")
                else:
                    v = el[1]
                self.prev[j] = v
                out += str(v).encode()
            else:
                m = el[2] + bits.read(el[3])
                out += _read_chars(bits, el[1], m)
        return bytes(out)


def decode(data) -> list:
    """The files of a chunk made by encode, in the same shape."""
    data = bytes(data)
    if len(data) < 6:
        raise ValueError("release chunk: too short")
    if data[0] != VERSION:
        raise ValueError(f"release chunk: unknown version {data[0]}")
    if zlib.crc32(data[:-4]) != int.from_bytes(data[-4:], "little"):
        raise ValueError("release chunk: checksum mismatch")
    body = data[:-4]
    h = _Reader(body, 1)
    head = h.varint()
    meta_len, z = head >> 1, head & 1
    if meta_len > MAX_META:
        _corrupt("metadata length")
    if z:
        stored = h.varint()
        meta = _decompress(h.take(stored), meta_len)
    else:
        meta = h.take(meta_len)
    bits = _BitReader(body[h.pos:])
    r = _Reader(meta)
    nfiles = r.varint()
    ninst = r.varint()
    if nfiles > min(MAX_COUNT, len(meta)) or ninst > nfiles:
        _corrupt("counts")
    makers = [_Maker(_read_inst(r)) for _ in range(ninst)]
    name_lens = [r.varint() for _ in range(nfiles)]
    names = [r.take(n) for n in name_lens]
    fbytes = [r.varint() for _ in range(nfiles)]
    for fb in fbytes:
        if fb > MAX_FILE_BYTES:
            _corrupt("file bytes")
    nsegs = [r.varint() for _ in range(nfiles)]
    if sum(nsegs) > MAX_COUNT:
        _corrupt("segment count")
    some = [i for i in range(nfiles) if nsegs[i] >= 1]
    multi = [i for i in range(nfiles) if nsegs[i] >= 2]
    first = {i: r.varint() for i in some}
    inst = {i: r.varint() for i in some}
    size_a = {}
    prev = 0
    for i in some:
        if nsegs[i] == 1:
            size_a[i] = fbytes[i] + _unzz(r.varint())
        else:
            prev += _unzz(r.varint())
            size_a[i] = prev
        if not 0 <= size_a[i] <= MAXV:
            _corrupt("article bytes")
    width = {i: r.byte() for i in multi}
    last = {i: size_a[i] + _unzz(r.varint()) for i in multi}
    pexc_n = {i: r.varint() for i in multi}
    mexc_n = {i: r.varint() for i in some}
    for i in some:
        if first[i] > MAXV or inst[i] > ninst or mexc_n[i] > nsegs[i] or (inst[i] == 0 and mexc_n[i] != nsegs[i]):
            _corrupt("file record")
    for i in multi:
        if width[i] > 63 or not 0 <= last[i] <= MAXV or pexc_n[i] >= nsegs[i]:
            _corrupt("file record")
    pexc = {}
    for i in multi:
        d = {}
        prev = -1
        for _ in range(pexc_n[i]):
            k = prev + r.varint() + 1
            dz = _unzz(r.varint())
            if not 1 <= k < nsegs[i] or not -MAXV - 1 <= dz < MAXV:
                _corrupt("part exception")
            d[k] = dz + 1
            prev = k
        pexc[i] = d
    mexc = {}
    for i in some:
        d = {}
        prev = -1
        for _ in range(mexc_n[i]):
            k = prev + r.varint() + 1
            if k >= nsegs[i]:
                _corrupt("message-id exception")
            d[k] = r.take(r.varint())
            prev = k
        mexc[i] = d
    if r.pos != len(meta):
        _corrupt("trailing metadata")
    files = []
    for i in range(nfiles):
        n = nsegs[i]
        segs = []
        if n:
            part = first[i]
            maker = makers[inst[i] - 1] if inst[i] else None
            pe = pexc.get(i, {})
            me = mexc[i]
            base = size_a[i]
            w = width.get(i, 0)
            parts = [part]
            for k in range(1, n):
                part += pe.get(k, 1)
                if not 0 <= part <= MAXV:
                    _corrupt("part")
                parts.append(part)
            for k in range(n):
                part = parts[k]
                mid = me.get(k)
                if mid is None:
                    mid = maker.make(bits, part, parts[-1])
                if n == 1:
                    size = base
                elif k < n - 1:
                    size = base + bits.read(w)
                    if size > MAXV:
                        _corrupt("article bytes")
                else:
                    size = last[i]
                segs.append((part, mid, size))
        files.append((names[i], fbytes[i], segs))
    if (bits.pos + 7) >> 3 != len(bits.buf) or (bits.pos & 7 and bits.buf[-1] >> (bits.pos & 7)):
        _corrupt("trailing bits")
    return files
