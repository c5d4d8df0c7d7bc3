# cython: language_level=3
"""The release chunk codec: what the window writes and every NZB is read from.

    encode(files) -> bytes
    decode(data) -> files
    nzb(chunks, title, poster, posted_at, groups, category, password) -> bytes
    decode_nzb(chunks, head, file_open, file_groups) -> bytes

The format is stated by its pure-Python oracle, bench/codec_reference.py; the
two write the same bytes (tests/ext/test_codec.py compares them). `files` is
a list of `(name: bytes, file_bytes: int, segments)`, segments a list of
`(part: int, message_id: bytes, article_bytes: int)`. decode raises
ValueError on a corrupt, truncated or unknown-version chunk. nzb is the one
NZB writer (voyager.nzb() in the server's Python, and the web's downloads):
decode_nzb writes the XML as it decodes the chunks, without decode's objects
(same ValueErrors); both read a chunk through d_parse and d_file.
"""
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF, Py_XDECREF, PyObject
from cpython.long cimport PyLong_FromLongLong, PyLong_AsLongLongAndOverflow
from cpython.memoryview cimport PyMemoryView_FromMemory
from cpython.buffer cimport PyBUF_READ
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memchr, memcpy, memcmp, memset
from libc.stdint cimport uint64_t, int64_t, uint8_t, int8_t, uint16_t, uint32_t
from ext.buf cimport Buf, buf_grow, put_byte, put_bytes, put_varint
from ext.chars cimport parse_num

import re
import threading
import zlib
from xml.sax.saxutils import escape, quoteattr

import zstandard

cdef extern from *:
    """
    static inline int vy_bitlen(unsigned long long v) { return v ? 64 - __builtin_clzll(v) : 0; }
    static inline unsigned long long vy_load64(const unsigned char* p) {
        unsigned long long v; memcpy(&v, p, 8); return v;   /* little-endian hosts */
    }
    """
    int vy_bitlen(unsigned long long v) nogil
    unsigned long long vy_load64(const unsigned char* p) nogil

cdef enum:
    VERSION = 1
    MAX_RUNS = 64
    MAX_TOK = 2 * 64 + 1
    MAX_TEMPLATE_ID = 4096
    MAX_TEMPLATE_OUT = 1 << 20
    # inst element kinds
    K_LIT = 0
    K_PART = 1
    K_FIXED = 2
    K_NUM = 3
    K_NUMD = 4
    K_VAR = 5
    K_TOTAL = 6
    # run plans
    P_LIT = 0
    P_PART = 1
    P_NUM = 2
    P_NUMD = 3
    P_FIXED = 4
    P_VAR = 5
    P_TOTAL = 6
    # classes
    C_DIGIT = 0
    C_HEXL = 1
    C_HEXU = 2
    C_B36L = 3
    C_B36U = 4
    C_B62 = 5

cdef int64_t MAXV = (<int64_t>1) << 62
cdef int64_t MAX_FILE_BYTES = 0x7FFFFFFFFFFFFFFF
cdef int64_t MAX_COUNT = 1 << 24
cdef int64_t MAX_META = 1 << 30
cdef int64_t NUM_LIMIT = 1000000000000000000

# The format's tables and its zstd dictionary (bench/codec_reference.py states them;
# tests/ext/test_codec.py holds the two to the same values)
ALPHABETS = (
    b"0123456789",
    b"0123456789abcdef",
    b"0123456789ABCDEF",
    b"0123456789abcdefghijklmnopqrstuvwxyz",
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
)
CHUNKS = (19, 16, 16, 12, 12, 10)          # characters per chunk: radix^k < 2^64
LIMITS = (VERSION, MAXV, MAX_FILE_BYTES, MAX_COUNT, MAX_RUNS, MAX_TEMPLATE_ID, MAX_TEMPLATE_OUT, MAX_META,
          NUM_LIMIT)
LEVEL = 6
# Part of format version 1: what a chunk's metadata commonly holds, so a small
# chunk does not pay for it (changing it needs a new VERSION).
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
_zparams = zstandard.ZstdCompressionParameters.from_level(
    LEVEL, format=zstandard.FORMAT_ZSTD1_MAGICLESS, write_checksum=0, write_content_size=0, write_dict_id=0)
_zdict = zstandard.ZstdCompressionDict(DICTIONARY, dict_type=zstandard.DICT_TYPE_RAWCONTENT)
_local = threading.local()       # zstd contexts are not thread-safe: one per thread


def _compress(bytes raw):
    c = getattr(_local, "c", None)
    if c is None:
        c = _local.c = zstandard.ZstdCompressor(compression_params=_zparams, dict_data=_zdict)
    return c.compress(raw)


def _decompress(data, Py_ssize_t size):
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

cdef uint8_t IS_ALNUM[256]
cdef int8_t DIGIT_VAL[6][256]
cdef uint8_t ALPHA[6][64]
cdef int RADIX[6]
cdef int CHUNK[6]
cdef int CHUNK_BITS[6][20]
cdef uint8_t PAIR[6][7688]      # the two characters of each value below RADIX**2
cdef uint64_t FULL[6]           # RADIX ** CHUNK: a whole chunk's values are below it (0: all are)
cdef uint64_t POW10[20]         # 0, 10, 100, ... 10**19 (fmt_u64's length)
cdef uint8_t MID_PLAIN[256]     # 1: a byte an NZB takes as it is (ASCII that XML 1.0 allows, no markup)


def _init_tables():
    cdef int c, i
    for i in range(256):
        IS_ALNUM[i] = 1 if i in ALPHABETS[C_B62] else 0
    for c in range(6):
        RADIX[c] = len(ALPHABETS[c])
        CHUNK[c] = CHUNKS[c]
        for i in range(256):
            DIGIT_VAL[c][i] = -1
        for i, ch in enumerate(ALPHABETS[c]):
            DIGIT_VAL[c][ch] = i
            ALPHA[c][i] = ch
        for i in range(CHUNK[c] + 1):
            CHUNK_BITS[c][i] = ((<object>RADIX[c]) ** (<object>i) - 1).bit_length()
        for i in range(RADIX[c] * RADIX[c]):
            PAIR[c][2 * i] = ALPHA[c][i // RADIX[c]]
            PAIR[c][2 * i + 1] = ALPHA[c][i % RADIX[c]]
        full = (<object>RADIX[c]) ** (<object>CHUNK[c])   # a Python int
        FULL[c] = full if full < 2 ** 64 else 0
    for i, p in enumerate([0] + [10 ** k for k in range(1, 20)]):
        POW10[i] = p
    for i in range(256):
        MID_PLAIN[i] = 1 if (32 <= i < 128 or i in b"\t\n\r") and i not in b"&<>" else 0
    # full_chunk's splits
    assert tuple(RADIX[c] for c in range(6)) == (10, 16, 16, 36, 36, 62)
    assert tuple(CHUNK[c] for c in range(6)) == (19, 16, 16, 12, 12, 10)


_init_tables()

# -- the bit writer (the byte buffers are ext/buf.pxd's) -----------------------------

cdef inline uint64_t zz(int64_t v) noexcept nogil:
    return (<uint64_t>v << 1) ^ <uint64_t>(v >> 63)


cdef inline int64_t unzz(uint64_t z) noexcept nogil:
    return <int64_t>(z >> 1) ^ -<int64_t>(z & 1)


cdef struct BitW:
    Buf buf
    uint64_t acc
    int n


cdef inline int bw_write32(BitW* w, uint64_t v, int width) except -1:
    w.acc |= (v & ((<uint64_t>1 << width) - 1)) << w.n
    w.n += width
    if w.n >= 32:
        if w.buf.n + 4 > w.buf.cap:
            buf_grow(&w.buf, 4)
        w.buf.p[w.buf.n] = <uint8_t>w.acc
        w.buf.p[w.buf.n + 1] = <uint8_t>(w.acc >> 8)
        w.buf.p[w.buf.n + 2] = <uint8_t>(w.acc >> 16)
        w.buf.p[w.buf.n + 3] = <uint8_t>(w.acc >> 24)
        w.buf.n += 4
        w.acc >>= 32
        w.n -= 32
    return 0


cdef inline int bw_write(BitW* w, uint64_t v, int width) except -1:
    if width == 0:
        return 0
    if width > 32:
        bw_write32(w, v & <uint64_t>0xFFFFFFFF, 32)
        bw_write32(w, v >> 32, width - 32)
    else:
        bw_write32(w, v, width)
    return 0


cdef int bw_finish(BitW* w) except -1:
    while w.n > 0:
        put_byte(&w.buf, <uint8_t>w.acc)
        w.acc >>= 8
        w.n -= 8
    w.n = 0
    return 0

# -- small helpers ------------------------------------------------------------------

cdef inline int fmt_u64(uint8_t* out, uint64_t v) noexcept nogil:
    """v in decimal at out (up to 20 bytes); the length. Two digits a step,
    from the end: the length first (bit length * log10(2), then one compare)."""
    cdef int t = (vy_bitlen(v | 1) * 1233) >> 12
    cdef int n = t + 1 - (v < POW10[t])
    cdef int i = n
    cdef uint64_t q
    cdef const uint8_t* pair = PAIR[C_DIGIT]
    while v >= 100:
        q = v // 100
        i -= 2
        memcpy(out + i, pair + 2 * (v - q * 100), 2)
        v = q
    if v >= 10:
        memcpy(out + i - 2, pair + 2 * v, 2)
    else:
        out[i - 1] = <uint8_t>(48 + v)
    return n


cdef inline Py_ssize_t find(const uint8_t* h, Py_ssize_t hn, const uint8_t* s, Py_ssize_t sn) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(hn - sn + 1):
        if memcmp(h + i, s, sn) == 0:
            return i
    return -1


cdef inline int class_flags(const uint8_t* s, Py_ssize_t n) noexcept nogil:
    """Bits: 1 lower, 2 lower above f, 4 upper, 8 upper above F."""
    cdef int f = 0
    cdef Py_ssize_t i
    cdef uint8_t ch
    for i in range(n):
        ch = s[i]
        if 97 <= ch <= 122:
            f |= 1
            if ch > 102:
                f |= 2
        elif 65 <= ch <= 90:
            f |= 4
            if ch > 70:
                f |= 8
    return f


cdef inline int class_of(int f) noexcept nogil:
    if (f & 1) and (f & 4):
        return C_B62
    if f & 2:
        return C_B36L
    if f & 1:
        return C_HEXL
    if f & 8:
        return C_B36U
    if f & 4:
        return C_HEXU
    return C_DIGIT


cdef int write_chars(BitW* bw, int cls, const uint8_t* s, Py_ssize_t n) except -1:
    cdef int k = CHUNK[cls]
    cdef uint64_t radix = RADIX[cls]
    cdef Py_ssize_t i = 0, t, c
    cdef uint64_t v
    while i < n:
        c = n - i
        if c > k:
            c = k
        v = 0
        for t in range(c):
            v = v * radix + <uint64_t>DIGIT_VAL[cls][s[i + t]]
        bw_write(bw, v, CHUNK_BITS[cls][c])
        i += c
    return 0

# -- encoder: templates ---------------------------------------------------------------

cdef struct Seg:
    const uint8_t* mid
    Py_ssize_t mlen
    int64_t part
    int64_t size


cdef struct Plan:
    int kind
    Py_ssize_t plen          # FIXED/VAR: prefix length; PART: len(A)
    Py_ssize_t slen          # FIXED/VAR: suffix length; PART: len(B)
    int cls
    int64_t m                # FIXED: m; VAR: minlen
    int w
    int64_t base             # NUM: base; NUMD: first
    int64_t dmin
    int64_t prev
    int started


cdef struct Elem:
    int kind
    Py_ssize_t off           # LIT: offset in the group's literal buffer
    Py_ssize_t len
    int cls
    int64_t a
    int64_t b
    int w


cdef struct Group:
    Py_ssize_t n             # members
    Py_ssize_t cap
    Seg** mem
    uint8_t* match
    uint16_t* ro             # per member, per run: (start, end) (ids up to MAX_TEMPLATE_ID)
    Py_ssize_t rocap
    int64_t* tmp             # numbers of a run, per matched member
    int ok                   # a template was made
    Py_ssize_t ref           # the member whose id is the reference
    int delta                # it holds a NUMD
    int ntok
    int nrun
    int first_alnum
    Py_ssize_t ts[MAX_TOK]
    Py_ssize_t te[MAX_TOK]
    Plan plans[MAX_RUNS]
    Elem elems[4 * MAX_RUNS + 8]
    int nelems
    Buf lits
    Buf raw


cdef void group_free(Group* g) noexcept:
    free(g.mem)
    free(g.match)
    free(g.ro)
    free(g.tmp)
    free(g.lits.p)
    free(g.raw.p)


cdef int group_reset(Group* g, Py_ssize_t n) except -1:
    if n > g.cap:
        free(g.mem)
        free(g.match)
        free(g.tmp)
        g.mem = <Seg**>malloc(n * sizeof(Seg*))
        g.match = <uint8_t*>malloc(n)
        g.tmp = <int64_t*>malloc(n * sizeof(int64_t))
        if g.mem == NULL or g.match == NULL or g.tmp == NULL:
            g.cap = 0
            raise MemoryError()
        g.cap = n
    g.n = n
    g.ok = 0
    g.delta = 0
    g.nelems = 0
    g.lits.n = 0
    g.raw.n = 0
    return 0


cdef inline uint16_t* RO(Group* g, Py_ssize_t k, int j) noexcept nogil:
    return g.ro + 2 * (k * g.nrun + j)


cdef int match_tokens(Group* g, const uint8_t* s, Py_ssize_t n, uint16_t* ro) noexcept nogil:
    """1 when s has the reference id's separators (its runs go to ro)."""
    cdef const uint8_t* mid0 = g.mem[g.ref].mid
    cdef Py_ssize_t i = 0, j, L
    cdef int t = 0, r = 0
    cdef uint8_t a
    if n > MAX_TEMPLATE_ID:
        return 0
    while i < n:
        a = IS_ALNUM[s[i]]
        j = i + 1
        while j < n and IS_ALNUM[s[j]] == a:
            j += 1
        if t >= g.ntok or (t == 0 and a != g.first_alnum):
            return 0
        if a:
            ro[2 * r] = <uint16_t>i
            ro[2 * r + 1] = <uint16_t>j
            r += 1
        else:
            L = g.te[t] - g.ts[t]
            if j - i != L or memcmp(s + i, mid0 + g.ts[t], L) != 0:
                return 0
        t += 1
        i = j
    return t == g.ntok


cdef inline int elem_lit(Group* g, const uint8_t* s, Py_ssize_t n) except -1:
    cdef Elem* e
    if n == 0:
        return 0
    if g.nelems and g.elems[g.nelems - 1].kind == K_LIT:
        e = &g.elems[g.nelems - 1]
        e.len += n
    else:
        e = &g.elems[g.nelems]
        g.nelems += 1
        e.kind = K_LIT
        e.off = g.lits.n
        e.len = n
    put_bytes(&g.lits, s, n)
    return 0


cdef inline Elem* elem_add(Group* g, int kind) noexcept:
    cdef Elem* e = &g.elems[g.nelems]
    g.nelems += 1
    memset(e, 0, sizeof(Elem))
    e.kind = kind
    return e


cdef int plan_run(Group* g, int j, int single, int after_at, int has_total, int64_t total) except -1:
    cdef Plan* pl = &g.plans[j]
    cdef uint16_t* r0 = RO(g, g.ref, j)
    cdef const uint8_t* v0 = g.mem[g.ref].mid + r0[0]
    cdef Py_ssize_t l0 = r0[1] - r0[0]
    cdef Py_ssize_t k, i, lb, l, p, q, minlen, lo, hi, ml, nm = 0
    cdef uint16_t* rk
    cdef const uint8_t* v
    cdef uint8_t tbuf[24]
    cdef uint8_t sbuf[24]
    cdef uint8_t pbuf[24]
    cdef int tl = 0, sl, plen_, ok, flags
    cdef int64_t x, nlo, nhi, dlo, dhi, d, prevx
    cdef int wr, wd
    memset(pl, 0, sizeof(Plan))
    if single:
        if after_at:
            pl.kind = P_LIT
            return 0
        if l0 >= 4:
            x = parse_num(<const char*>v0, l0)
            if x >= 0:
                pl.kind = P_NUM
                pl.base = x
                pl.w = 0
                return 0
        if l0 >= 12:
            pl.kind = P_FIXED
            pl.cls = class_of(class_flags(v0, l0))
            pl.m = l0
            return 0
        pl.kind = P_LIT
        return 0
    # constant
    ok = 1
    for k in range(g.n):
        if not g.match[k]:
            continue
        rk = RO(g, k, j)
        if rk[1] - rk[0] != l0 or memcmp(g.mem[k].mid + rk[0], v0, l0) != 0:
            ok = 0
            break
    if ok:
        pl.kind = P_LIT
        if has_total:
            tl = fmt_u64(tbuf, <uint64_t>total)
            if tl == l0 and memcmp(tbuf, v0, l0) == 0:
                pl.kind = P_TOTAL
        return 0
    # A + str(part) + B
    sl = fmt_u64(sbuf, <uint64_t>g.mem[g.ref].part)
    for i in range(l0 - sl + 1):
        if memcmp(v0 + i, sbuf, sl) != 0:
            continue
        lb = l0 - i - sl
        ok = 1
        for k in range(g.n):
            if not g.match[k]:
                continue
            rk = RO(g, k, j)
            v = g.mem[k].mid + rk[0]
            l = rk[1] - rk[0]
            plen_ = fmt_u64(pbuf, <uint64_t>g.mem[k].part)
            if (l != i + plen_ + lb or memcmp(v, v0, i) != 0 or memcmp(v + i, pbuf, plen_) != 0
                    or memcmp(v + i + plen_, v0 + i + sl, lb) != 0):
                ok = 0
                break
        if ok:
            pl.kind = P_PART
            pl.plen = i
            pl.slen = lb
            return 0
    # decimals
    ok = 1
    for k in range(g.n):
        if not g.match[k]:
            continue
        rk = RO(g, k, j)
        x = parse_num(<const char*>(g.mem[k].mid + rk[0]), rk[1] - rk[0])
        if x < 0:
            ok = 0
            break
        g.tmp[nm] = x
        nm += 1
    if ok:
        nlo = nhi = g.tmp[0]
        dlo = dhi = 0
        for k in range(1, nm):
            x = g.tmp[k]
            if x < nlo:
                nlo = x
            if x > nhi:
                nhi = x
            d = x - g.tmp[k - 1]
            if k == 1 or d < dlo:
                dlo = d
            if k == 1 or d > dhi:
                dhi = d
        wr = vy_bitlen(<uint64_t>(nhi - nlo))
        wd = vy_bitlen(<uint64_t>(dhi - dlo))
        if (nm - 1) * <int64_t>wd + 8 < nm * <int64_t>wr:
            pl.kind = P_NUMD
            pl.base = g.tmp[0]
            pl.dmin = dlo
            pl.w = wd
        else:
            pl.kind = P_NUM
            pl.base = nlo
            pl.w = wr
        return 0
    # common prefix and suffix, the middle FIXED or VAR
    minlen = l0
    for k in range(g.n):
        if g.match[k]:
            rk = RO(g, k, j)
            if rk[1] - rk[0] < minlen:
                minlen = rk[1] - rk[0]
    p = 0
    while p < minlen:
        ok = 1
        for k in range(g.n):
            if g.match[k] and g.mem[k].mid[RO(g, k, j)[0] + p] != v0[p]:
                ok = 0
                break
        if not ok:
            break
        p += 1
    q = 0
    while q < minlen - p:
        ok = 1
        for k in range(g.n):
            if g.match[k] and g.mem[k].mid[RO(g, k, j)[1] - 1 - q] != v0[l0 - 1 - q]:
                ok = 0
                break
        if not ok:
            break
        q += 1
    flags = 0
    lo = hi = l0 - p - q
    for k in range(g.n):
        if g.match[k]:
            rk = RO(g, k, j)
            ml = rk[1] - rk[0] - p - q
            flags |= class_flags(g.mem[k].mid + rk[0] + p, ml)
            if ml < lo:
                lo = ml
            if ml > hi:
                hi = ml
    pl.plen = p
    pl.slen = q
    pl.cls = class_of(flags)
    pl.m = lo
    if lo == hi:
        pl.kind = P_FIXED
    else:
        pl.kind = P_VAR
        pl.w = vy_bitlen(<uint64_t>(hi - lo))
    return 0


cdef Py_ssize_t try_ref(Group* g, Py_ssize_t c) except -1:
    """Member c's id as the reference: g.match and the runs of the ids with
    its separators; how many match (0: c cannot be a reference)."""
    cdef const uint8_t* mid0 = g.mem[c].mid
    cdef Py_ssize_t n0 = g.mem[c].mlen, i, j, k, count = 0
    cdef int t = 0, r = 0
    cdef uint8_t a
    memset(g.match, 0, g.n)
    if n0 > MAX_TEMPLATE_ID:
        return 0
    i = 0
    while i < n0:
        a = IS_ALNUM[mid0[i]]
        j = i + 1
        while j < n0 and IS_ALNUM[mid0[j]] == a:
            j += 1
        if a:
            r += 1
            if r > MAX_RUNS:
                return 0
        g.ts[t] = i
        g.te[t] = j
        t += 1
        i = j
    g.ref = c
    g.ntok = t
    g.nrun = r
    g.first_alnum = IS_ALNUM[mid0[0]] if n0 else 0
    if g.n * r * 2 > g.rocap:
        free(g.ro)
        g.rocap = g.n * r * 2
        g.ro = <uint16_t*>malloc(g.rocap * sizeof(uint16_t) + 2)
        if g.ro == NULL:
            g.rocap = 0
            raise MemoryError()
    for k in range(g.n):
        g.match[k] = match_tokens(g, g.mem[k].mid, g.mem[k].mlen, RO(g, k, 0))
        count += g.match[k]
    return count


cdef int infer(Group* g, int singles) except -1:
    """The group's template (g.ok, g.raw, g.plans) and matches (g.match)."""
    cdef const uint8_t* mid0
    cdef Py_ssize_t n0, i, j, k, last_at, jj, kk, count, alt, other
    cdef int t = 0, r = 0, single, has_total
    cdef int64_t total = 0
    cdef Plan* pl
    cdef Elem* e
    cdef const uint8_t* v0
    cdef uint16_t* r0
    cdef Py_ssize_t l0
    cdef uint8_t tbuf[24]
    cdef int tl = 0
    count = try_ref(g, 0)
    if 2 * count < g.n:
        alt = -1
        for k in range(1, g.n):
            if not g.match[k]:
                alt = k
                break
        if alt >= 0:
            other = try_ref(g, alt)
            if other > count:
                count = other
            else:
                try_ref(g, 0)
    if count == 0:
        memset(g.match, 0, g.n)
        return 0
    mid0 = g.mem[g.ref].mid
    n0 = g.mem[g.ref].mlen
    r = g.nrun
    g.ok = 1
    single = g.n == 1
    has_total = not singles
    if has_total:
        total = g.mem[g.n - 1].part
        tl = fmt_u64(tbuf, <uint64_t>total)
    last_at = -1
    for i in range(n0):
        if mid0[i] == 64:
            last_at = i
    for j in range(r):
        plan_run(g, j, single, RO(g, g.ref, j)[0] > last_at, has_total, total)
    # the inst's elements
    r = 0
    for t in range(g.ntok):
        if not IS_ALNUM[mid0[g.ts[t]]]:
            elem_lit(g, mid0 + g.ts[t], g.te[t] - g.ts[t])
            continue
        pl = &g.plans[r]
        r0 = RO(g, g.ref, r)
        v0 = mid0 + r0[0]
        l0 = r0[1] - r0[0]
        r += 1
        if pl.kind == P_LIT:
            elem_lit(g, v0, l0)
        elif pl.kind == P_TOTAL:
            elem_add(g, K_TOTAL)
        elif pl.kind == P_PART:
            # A = v0[:plen], B = v0[l0 - slen:]
            jj = find(v0 + l0 - pl.slen, pl.slen, tbuf, tl) if has_total else -1
            kk = find(v0, pl.plen, tbuf, tl) if has_total and jj < 0 else -1
            if kk >= 0:
                elem_lit(g, v0, kk)
                elem_add(g, K_TOTAL)
                elem_lit(g, v0 + kk + tl, pl.plen - kk - tl)
            else:
                elem_lit(g, v0, pl.plen)
            elem_add(g, K_PART)
            if jj >= 0:
                elem_lit(g, v0 + l0 - pl.slen, jj)
                elem_add(g, K_TOTAL)
                elem_lit(g, v0 + l0 - pl.slen + jj + tl, pl.slen - jj - tl)
            else:
                elem_lit(g, v0 + l0 - pl.slen, pl.slen)
        elif pl.kind == P_NUM:
            e = elem_add(g, K_NUM)
            e.a = pl.base
            e.w = pl.w
        elif pl.kind == P_NUMD:
            e = elem_add(g, K_NUMD)
            e.a = pl.base
            e.b = pl.dmin
            e.w = pl.w
            g.delta = 1
        else:
            elem_lit(g, v0, pl.plen)
            e = elem_add(g, K_FIXED if pl.kind == P_FIXED else K_VAR)
            e.cls = pl.cls
            e.a = pl.m
            e.w = pl.w
            elem_lit(g, v0 + l0 - pl.slen, pl.slen)
    # serialized
    put_varint(&g.raw, g.nelems)
    for i in range(g.nelems):
        e = &g.elems[i]
        put_byte(&g.raw, <uint8_t>e.kind)
        if e.kind == K_LIT:
            put_varint(&g.raw, e.len)
            put_bytes(&g.raw, g.lits.p + e.off, e.len)
        elif e.kind == K_FIXED:
            put_byte(&g.raw, <uint8_t>e.cls)
            put_varint(&g.raw, <uint64_t>e.a)
        elif e.kind == K_NUM:
            put_varint(&g.raw, <uint64_t>e.a)
            put_byte(&g.raw, <uint8_t>e.w)
        elif e.kind == K_NUMD:
            put_varint(&g.raw, <uint64_t>e.a)
            put_varint(&g.raw, zz(e.b))
            put_byte(&g.raw, <uint8_t>e.w)
        elif e.kind == K_VAR:
            put_byte(&g.raw, <uint8_t>e.cls)
            put_varint(&g.raw, <uint64_t>e.a)
            put_byte(&g.raw, <uint8_t>e.w)
    return 0


cdef int emit(Group* g, Py_ssize_t k, BitW* bw) except -1:
    """The fields of member k's message-id."""
    cdef int j
    cdef Plan* pl
    cdef uint16_t* rk
    cdef const uint8_t* v
    cdef Py_ssize_t l
    cdef int64_t x
    for j in range(g.nrun):
        pl = &g.plans[j]
        if pl.kind == P_LIT or pl.kind == P_PART or pl.kind == P_TOTAL:
            continue
        rk = RO(g, k, j)
        v = g.mem[k].mid + rk[0]
        l = rk[1] - rk[0]
        if pl.kind == P_NUM:
            bw_write(bw, <uint64_t>(parse_num(<const char*>v, l) - pl.base), pl.w)
        elif pl.kind == P_NUMD:
            x = parse_num(<const char*>v, l)
            if pl.started:
                bw_write(bw, <uint64_t>(x - pl.prev - pl.dmin), pl.w)
            pl.prev = x
            pl.started = 1
        else:
            l -= pl.plen + pl.slen
            if pl.kind == P_VAR:
                bw_write(bw, <uint64_t>(l - pl.m), pl.w)
            write_chars(bw, pl.cls, v + pl.plen, l)
    return 0

# -- encode ------------------------------------------------------------------------------

cdef int64_t get_int(object o, int64_t hi, str what) except? -1:
    cdef int overflow = 0
    cdef long long v
    if not isinstance(o, int):
        raise TypeError(f"release chunk: {what} must be an int, not {type(o).__name__}")
    v = PyLong_AsLongLongAndOverflow(o, &overflow)
    if overflow or v < 0 or v > hi:
        raise ValueError(f"release chunk: {what} {o} out of range 0..{hi}")
    return v


cdef class _Ctx:
    """The C buffers of one encode call."""
    cdef Seg* segs
    cdef Py_ssize_t nsegs
    cdef Group single
    cdef Group file
    cdef BitW bits
    cdef Buf cols[9]
    cdef Buf meta

    def __dealloc__(self):
        cdef int i
        free(self.segs)
        group_free(&self.single)
        group_free(&self.file)
        free(self.bits.buf.p)
        for i in range(9):
            free(self.cols[i].p)
        free(self.meta.p)


cdef enum:
    COL_FIRST = 0
    COL_INST = 1
    COL_SIZE = 2
    COL_WIDTH = 3
    COL_LAST = 4
    COL_PEXC_N = 5
    COL_MEXC_N = 6
    COL_PEXC = 7
    COL_MEXC = 8


cdef int seg_order(const void* a, const void* b) noexcept nogil:
    """Python's order of (part, message-id, bytes) tuples, on Segs."""
    cdef const Seg* x = <const Seg*>a
    cdef const Seg* y = <const Seg*>b
    cdef Py_ssize_t m = x.mlen if x.mlen < y.mlen else y.mlen
    cdef int c
    if x.part != y.part:
        return -1 if x.part < y.part else 1
    c = memcmp(x.mid, y.mid, m)
    if c:
        return c
    if x.mlen != y.mlen:
        return -1 if x.mlen < y.mlen else 1
    if x.size != y.size:
        return -1 if x.size < y.size else 1
    return 0


cdef Py_ssize_t packed_count(bytes packed) noexcept:
    """The segments of a window's packed list: (part u32 LE, bytes u32 LE,
    message-id length u8, message-id) each, a short tail ignored."""
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(packed)
    cdef Py_ssize_t at = 0, n = PyBytes_GET_SIZE(packed), k = 0
    while at + 9 <= n:
        at += 9 + p[at + 8]
        k += 1
    return k


def encode(files):
    """The chunk of a release: files = [(name, file_bytes, [(part, message_id, article_bytes), ...]), ...]."""
    return _encode(files, False)


def encode_packed(files):
    """encode() of the window's files as they are: [(name, file_bytes, packed)]
    with the segments packed (window.segments_of reads them), put in part
    order here, without a Python object per segment."""
    return _encode(files, True)


cdef bytes _encode(files, bint packed):
    cdef _Ctx ctx = _Ctx()
    cdef list norm = []
    cdef Py_ssize_t total = 0, i, k, n, off, nfiles, single_i = 0, prev, nexc
    cdef Seg* s
    cdef Seg* fs
    cdef int64_t size_a, hi, prev_size = 0, d
    cdef int width
    cdef uint64_t ref, single_ref = 0
    cdef int have_single_ref = 0
    cdef Group* g
    cdef Buf* cols = ctx.cols
    cdef Py_ssize_t gk
    cdef bytes raw
    cdef object name, m
    cdef list keep = []
    cdef list insts = []
    cdef dict inst_ids = {}

    cdef Py_ssize_t cnt, at, plen
    cdef const uint8_t* pp
    for f in files:
        if len(f) != 3:
            raise ValueError("release chunk: a file is (name, file_bytes, segments)")
        name, fb, segs = f
        if not isinstance(name, bytes):
            raise TypeError(f"release chunk: file name must be bytes, not {type(name).__name__}")
        get_int(fb, MAX_FILE_BYTES, "file bytes")
        if packed:
            if type(segs) is not bytes:
                raise TypeError(f"release chunk: packed segments must be bytes, not {type(segs).__name__}")
            cnt = packed_count(segs)
        else:
            if not isinstance(segs, (list, tuple)):
                segs = list(segs)
            cnt = len(segs)
        total += cnt
        if total > MAX_COUNT:
            raise ValueError("release chunk: too many segments")
        norm.append((name, fb, segs, cnt))
    nfiles = len(norm)
    if nfiles > MAX_COUNT:
        raise ValueError("release chunk: too many files")
    ctx.segs = <Seg*>malloc((total + 1) * sizeof(Seg))
    if ctx.segs == NULL:
        raise MemoryError()
    k = 0
    for f in norm:
        if packed:                      # the message-ids stay in the packed bytes, which norm holds
            raw = f[2]
            pp = <const uint8_t*>PyBytes_AS_STRING(raw)
            plen = PyBytes_GET_SIZE(raw)
            at = 0
            fs = &ctx.segs[k]
            while at + 9 <= plen:
                s = &ctx.segs[k]
                s.part = pp[at] | (pp[at + 1] << 8) | (pp[at + 2] << 16) | (<int64_t>pp[at + 3] << 24)
                s.size = pp[at + 4] | (pp[at + 5] << 8) | (pp[at + 6] << 16) | (<int64_t>pp[at + 7] << 24)
                s.mlen = pp[at + 8]
                s.mid = pp + at + 9
                at += 9 + s.mlen
                k += 1
            qsort(fs, f[3], sizeof(Seg), seg_order)
            continue
        for sg in f[2]:
            if len(sg) != 3:
                raise ValueError("release chunk: a segment is (part, message_id, article_bytes)")
            s = &ctx.segs[k]
            s.part = get_int(sg[0], MAXV, "part")
            m = sg[1]
            if not isinstance(m, bytes):
                raise TypeError(f"release chunk: message-id must be bytes, not {type(m).__name__}")
            if type(sg) is not tuple and type(sg) is not list:
                keep.append(m)            # not held by a container of ours
            s.mid = <const uint8_t*>PyBytes_AS_STRING(m)
            s.mlen = PyBytes_GET_SIZE(m)
            s.size = get_int(sg[2], MAXV, "article bytes")
            k += 1
    ctx.nsegs = total
    norm = [(f[0], f[1], f[3], f[2]) for f in norm]     # (name, file bytes, segment count, what holds them)

    # the one-segment files' group
    off = 0
    n = 0
    for f in norm:
        if f[2] == 1:
            n += 1
    if n:
        group_reset(&ctx.single, n)
        k = 0
        for f in norm:
            if f[2] == 1:
                ctx.single.mem[k] = &ctx.segs[off]
                k += 1
            off += f[2]
        infer(&ctx.single, 1)

    off = 0
    for f in norm:
        n = f[2]
        fs = &ctx.segs[off]
        off += n
        if n == 0:
            continue
        put_varint(&cols[COL_FIRST], <uint64_t>fs[0].part)
        if n == 1:
            g = &ctx.single
            gk = single_i
            single_i += 1
            if not have_single_ref:
                have_single_ref = 1
                if g.ok:
                    single_ref = _inst_ref(g, insts, inst_ids)
            ref = single_ref
            size_a = fs[0].size
        else:
            g = &ctx.file
            group_reset(g, n)
            for k in range(n):
                g.mem[k] = &fs[k]
            infer(g, 0)
            ref = _inst_ref(g, insts, inst_ids) if g.ok else 0
            gk = -1
            size_a = fs[0].size
            for k in range(1, n - 1):
                if fs[k].size < size_a:
                    size_a = fs[k].size
        put_varint(&cols[COL_INST], ref)
        if n == 1:
            put_varint(&cols[COL_SIZE], zz(size_a - <int64_t>f[1]))
        else:
            put_varint(&cols[COL_SIZE], zz(size_a - prev_size))
            prev_size = size_a
        width = 0
        if n >= 2:
            hi = size_a
            for k in range(n - 1):
                if fs[k].size > hi:
                    hi = fs[k].size
            width = vy_bitlen(<uint64_t>(hi - size_a))
            put_byte(&cols[COL_WIDTH], <uint8_t>width)
            put_varint(&cols[COL_LAST], zz(fs[n - 1].size - size_a))
            nexc = 0
            for k in range(1, n):
                if fs[k].part - fs[k - 1].part != 1:
                    nexc += 1
            put_varint(&cols[COL_PEXC_N], nexc)
            prev = -1
            for k in range(1, n):
                d = fs[k].part - fs[k - 1].part
                if d != 1:
                    put_varint(&cols[COL_PEXC], <uint64_t>(k - prev - 1))
                    put_varint(&cols[COL_PEXC], zz(d - 1))
                    prev = k
        nexc = 0
        prev = -1
        for k in range(n):
            if g.match[gk if gk >= 0 else k]:
                emit(g, gk if gk >= 0 else k, &ctx.bits)
            else:
                nexc += 1
                put_varint(&cols[COL_MEXC], <uint64_t>(k - prev - 1))
                put_varint(&cols[COL_MEXC], <uint64_t>fs[k].mlen)
                put_bytes(&cols[COL_MEXC], fs[k].mid, fs[k].mlen)
                prev = k
            if n >= 2 and k < n - 1:
                bw_write(&ctx.bits, <uint64_t>(fs[k].size - size_a), width)
        put_varint(&cols[COL_MEXC_N], nexc)
    bw_finish(&ctx.bits)

    cdef Buf* meta = &ctx.meta
    put_varint(meta, nfiles)
    put_varint(meta, len(insts))
    for raw in insts:
        put_bytes(meta, <const uint8_t*>PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw))
    for f in norm:
        put_varint(meta, PyBytes_GET_SIZE(f[0]))
    for f in norm:
        name = f[0]
        put_bytes(meta, <const uint8_t*>PyBytes_AS_STRING(name), PyBytes_GET_SIZE(name))
    for f in norm:
        put_varint(meta, <uint64_t>(<int64_t>f[1]))
    for f in norm:
        put_varint(meta, f[2])
    for i in range(9):
        put_bytes(meta, cols[i].p, cols[i].n)
    meta_bytes = PyBytes_FromStringAndSize(<char*>meta.p, meta.n)
    z = _compress(meta_bytes)
    cdef Buf out
    out.p = NULL
    out.n = out.cap = 0
    cdef bytes result
    try:
        put_byte(&out, VERSION)
        if len(z) < meta.n:
            put_varint(&out, <uint64_t>meta.n * 2 + 1)
            put_varint(&out, len(z))
            put_bytes(&out, <const uint8_t*>PyBytes_AS_STRING(z), PyBytes_GET_SIZE(z))
        else:
            put_varint(&out, <uint64_t>meta.n * 2)
            put_bytes(&out, meta.p, meta.n)
        put_bytes(&out, ctx.bits.buf.p, ctx.bits.buf.n)
        crc = zlib.crc32(PyMemoryView_FromMemory(<char*>out.p, out.n, PyBUF_READ))
        put_bytes(&out, <const uint8_t*>b"\0\0\0\0", 4)
        out.p[out.n - 4] = <uint8_t>(crc & 0xFF)
        out.p[out.n - 3] = <uint8_t>((crc >> 8) & 0xFF)
        out.p[out.n - 2] = <uint8_t>((crc >> 16) & 0xFF)
        out.p[out.n - 1] = <uint8_t>((crc >> 24) & 0xFF)
        result = PyBytes_FromStringAndSize(<char*>out.p, out.n)
    finally:
        free(out.p)
    return result


cdef uint64_t _inst_ref(Group* g, list insts, dict inst_ids) except? 0:
    cdef bytes raw = PyBytes_FromStringAndSize(<char*>g.raw.p, g.raw.n)
    if not g.delta:
        got = inst_ids.get(raw)
        if got is not None:
            return got
    insts.append(raw)
    if not g.delta:
        inst_ids[raw] = len(insts)
    return len(insts)

# -- decode ------------------------------------------------------------------------------

cdef struct Reader:
    const uint8_t* p
    Py_ssize_t pos
    Py_ssize_t n


cdef int corrupt(str what) except -1:
    raise ValueError(f"release chunk: corrupt ({what})")


cdef int rd_varint(Reader* r, uint64_t* out) except -1:
    cdef uint64_t v = 0
    cdef int shift = 0
    cdef uint8_t b
    while True:
        if r.pos >= r.n:
            raise ValueError("release chunk: truncated metadata")
        b = r.p[r.pos]
        r.pos += 1
        if shift == 63 and b > 1:
            raise ValueError("release chunk: varint overflow")
        v |= <uint64_t>(b & 0x7F) << shift
        if b < 0x80:
            out[0] = v
            return 0
        shift += 7


cdef inline uint64_t rd_u(Reader* r) except? 0xFFFFFFFFFFFFFFFF:
    cdef uint64_t v
    rd_varint(r, &v)
    return v


cdef inline int rd_byte(Reader* r) except -1:
    if r.pos >= r.n:
        raise ValueError("release chunk: truncated metadata")
    r.pos += 1
    return r.p[r.pos - 1]


cdef inline const uint8_t* rd_take(Reader* r, uint64_t n) except NULL:
    if n > <uint64_t>(r.n - r.pos):
        raise ValueError("release chunk: truncated metadata")
    r.pos += n
    return r.p + r.pos - n


cdef struct BitR:
    const uint8_t* p         # zero-padded by 8 bytes
    uint64_t pos
    uint64_t end


cdef inline int br_read(BitR* r, int w, uint64_t* out) except -1:
    cdef uint64_t lo
    if w == 0:
        out[0] = 0
        return 0
    if r.pos + w > r.end:
        raise ValueError("release chunk: truncated bit stream")
    if w <= 56:
        out[0] = (vy_load64(r.p + (r.pos >> 3)) >> (r.pos & 7)) & ((<uint64_t>1 << w) - 1)
        r.pos += w
    else:
        lo = (vy_load64(r.p + (r.pos >> 3)) >> (r.pos & 7)) & <uint64_t>0xFFFFFFFF
        r.pos += 32
        out[0] = lo | (((vy_load64(r.p + (r.pos >> 3)) >> (r.pos & 7)) & ((<uint64_t>1 << (w - 32)) - 1)) << 32)
        r.pos += w - 32
    return 0


cdef struct DElem:
    int kind
    const uint8_t* lit
    Py_ssize_t len
    int cls
    int64_t a
    int64_t b
    int w
    int64_t prev
    int started


cdef inline void b62_5(uint32_t x, const uint8_t* pair, const uint8_t* alpha, uint8_t* o) noexcept nogil:
    """five base-62 characters of x < 62**5"""
    cdef uint32_t q = x // 3844
    cdef uint32_t r = x - q * 3844
    cdef uint32_t d = q // 3844
    o[0] = alpha[d]
    memcpy(o + 1, pair + 2 * (q - d * 3844), 2)
    memcpy(o + 3, pair + 2 * r, 2)


cdef inline void b36_6(uint32_t x, const uint8_t* pair, uint8_t* o) noexcept nogil:
    """six base-36 characters of x < 36**6"""
    cdef uint32_t q = x // 1296
    cdef uint32_t r = x - q * 1296
    cdef uint32_t d = q // 1296
    memcpy(o, pair + 2 * d, 2)
    memcpy(o + 2, pair + 2 * (q - d * 1296), 2)
    memcpy(o + 4, pair + 2 * r, 2)


cdef inline void dec_8(uint32_t x, const uint8_t* pair, uint8_t* o) noexcept nogil:
    """eight digits of x < 10**8"""
    cdef uint32_t hi = x // 10000
    cdef uint32_t lo = x - hi * 10000
    memcpy(o, pair + 2 * (hi // 100), 2)
    memcpy(o + 2, pair + 2 * (hi % 100), 2)
    memcpy(o + 4, pair + 2 * (lo // 100), 2)
    memcpy(o + 6, pair + 2 * (lo % 100), 2)


cdef inline void full_chunk(int cls, uint64_t v, uint8_t* o) noexcept nogil:
    """The CHUNK[cls] characters of v < FULL[cls] (read_chars' loop, in pairs
    and halves that do not wait on each other)."""
    cdef const uint8_t* pair = PAIR[cls]
    cdef uint64_t hi
    cdef int t
    if cls == C_B62:                    # 10 = 5 + 5
        hi = v // <uint64_t>916132832
        b62_5(<uint32_t>hi, pair, ALPHA[cls], o)
        b62_5(<uint32_t>(v - hi * <uint64_t>916132832), pair, ALPHA[cls], o + 5)
    elif cls == C_HEXL or cls == C_HEXU:  # 16: a pair a byte
        for t in range(8):
            memcpy(o + 2 * t, pair + 2 * ((v >> (56 - 8 * t)) & 255), 2)
    elif cls == C_DIGIT:                # 19 = 3 + 8 + 8
        hi = v // <uint64_t>10000000000000000
        o[0] = <uint8_t>(48 + hi // 100)
        memcpy(o + 1, pair + 2 * (hi % 100), 2)
        v -= hi * <uint64_t>10000000000000000
        hi = v // <uint64_t>100000000
        dec_8(<uint32_t>hi, pair, o + 3)
        dec_8(<uint32_t>(v - hi * <uint64_t>100000000), pair, o + 11)
    else:                               # base 36, 12 = 6 + 6
        hi = v // <uint64_t>2176782336
        b36_6(<uint32_t>hi, pair, o)
        b36_6(<uint32_t>(v - hi * <uint64_t>2176782336), pair, o + 6)


cdef Py_ssize_t read_chars(BitR* br, int cls, Py_ssize_t m, uint8_t* out) except -1:
    cdef int k = CHUNK[cls]
    cdef Py_ssize_t i = 0, c, t
    cdef uint64_t v
    cdef const uint8_t* alpha = ALPHA[cls]
    while i < m:
        c = m - i
        if c > k:
            c = k
        br_read(br, CHUNK_BITS[cls][c], &v)
        if c == k:
            if FULL[cls] and v >= FULL[cls]:
                corrupt("packed characters")
            full_chunk(cls, v, out + i)
            i += c
            continue
        if cls == C_B62:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v % 62]
                v //= 62
        elif cls == C_HEXL or cls == C_HEXU:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v & 15]
                v >>= 4
        elif cls == C_DIGIT:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v % 10]
                v //= 10
        else:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v % 36]
                v //= 36
        if v:
            corrupt("packed characters")
        i += c
    return m


cdef Py_ssize_t make_mid(DElem* el, Py_ssize_t ne, BitR* br, int64_t part, int64_t total,
                         uint8_t* out) except -1:
    cdef Py_ssize_t n = 0, i
    cdef DElem* e
    cdef uint64_t r
    cdef int64_t v
    for i in range(ne):
        e = &el[i]
        if e.kind == K_LIT:
            memcpy(out + n, e.lit, e.len)
            n += e.len
        elif e.kind == K_PART:
            n += fmt_u64(out + n, <uint64_t>part)
        elif e.kind == K_TOTAL:
            n += fmt_u64(out + n, <uint64_t>total)
        elif e.kind == K_FIXED:
            n += read_chars(br, e.cls, e.a, out + n)
        elif e.kind == K_NUM:
            br_read(br, e.w, &r)
            v = e.a + <int64_t>r
            if v >= NUM_LIMIT:
                corrupt("number")
            n += fmt_u64(out + n, <uint64_t>v)
        elif e.kind == K_NUMD:
            if e.started:
                br_read(br, e.w, &r)
                v = e.prev + e.b + <int64_t>r
                if v < 0 or v >= NUM_LIMIT:
                    corrupt("number")
            else:
                v = e.a
                e.started = 1
            e.prev = v
            n += fmt_u64(out + n, <uint64_t>v)
        else:
            br_read(br, e.w, &r)
            n += read_chars(br, e.cls, e.a + <int64_t>r, out + n)
    return n


cdef class _DCtx:
    """The C state of one decode: the chunk's metadata as d_parse read it, then
    one file's segments at a time in C arrays (d_file), for decode's objects or
    decode_nzb's XML."""
    cdef DElem* elems
    cdef Py_ssize_t* inst_at
    cdef int64_t* f64            # per file: F_N numbers
    cdef const uint8_t** names
    cdef int64_t* pexc           # (index, delta) pairs
    cdef int64_t* mexc           # (index, offset in meta, len) triples
    cdef uint8_t* packed
    cdef bytes meta_obj          # names, literals and message-id exceptions point into it
    cdef const uint8_t* meta
    cdef BitR br
    cdef Py_ssize_t nfiles, packed_len, total_segs, maxn, maxout, mk_total
    cdef Py_ssize_t pk, mk       # the next part and message-id exceptions
    # the current file's segments (d_file): part, article bytes, message-id in pool
    cdef int64_t* parts
    cdef int64_t* sizes
    cdef Py_ssize_t* moff
    cdef Py_ssize_t* mlen
    cdef uint8_t* pool
    cdef Py_ssize_t pool_cap, pool_used
    cdef Py_ssize_t* inst_len    # per template: the most bytes of a message-id it writes,
    cdef uint8_t* inst_plain     # and whether they are all MID_PLAIN (its literals are)
    cdef uint8_t* mplain         # the current file's message-ids: MID_PLAIN throughout
    cdef Py_ssize_t* order       # decode_nzb: the segments in part order when they are not
    cdef uint8_t* op             # decode_nzb: the document (the module's scratch when free)
    cdef Py_ssize_t on, ocap
    cdef bint scratch

    def __dealloc__(self):
        free(self.elems)
        free(self.inst_at)
        free(self.f64)
        free(self.names)
        free(self.pexc)
        free(self.mexc)
        free(self.packed)
        free(self.parts)
        free(self.sizes)
        free(self.moff)
        free(self.mlen)
        free(self.pool)
        free(self.order)
        free(self.inst_len)
        free(self.inst_plain)
        free(self.mplain)
        global _scratch, _scratch_cap, _scratch_busy
        if self.scratch:                # back to the module, unless a giant release grew it
            if self.ocap <= SCRATCH_KEEP:
                _scratch, _scratch_cap = self.op, self.ocap
            else:
                free(self.op)
                _scratch, _scratch_cap = NULL, 0
            _scratch_busy = False
        else:
            free(self.op)


cdef enum:
    F_NAMELEN = 0
    F_FB = 1
    F_NSEGS = 2
    F_FIRST = 3
    F_INST = 4
    F_SIZE = 5
    F_WIDTH = 6
    F_LAST = 7
    F_PEXC_N = 8
    F_MEXC_N = 9
    F_N = 10


cdef inline void* xalloc(Py_ssize_t n) except NULL:
    cdef void* p = malloc(n if n > 0 else 1)
    if p == NULL:
        raise MemoryError()
    return p


cdef int d_parse(_DCtx ctx, bytes buf) except -1:
    """The header, checksum and metadata of a chunk into ctx (ValueError when
    corrupt); the bit stream is read file by file by d_file."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(buf)
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(buf)
    cdef Reader h, r
    cdef uint64_t head, meta_len, stored, nfiles, ninst, u, nelems, total_segs = 0, maxn = 0
    cdef Py_ssize_t i, k, j, npexc = 0, nmexc = 0, maxout = 0, out_len, cnt, pk, mk
    cdef int64_t* F
    cdef int64_t prev, dz
    cdef DElem* el
    cdef bytes meta_obj
    cdef const uint8_t* meta
    cdef Py_ssize_t packed_len
    cdef int kind
    if n < 6:
        raise ValueError("release chunk: too short")
    if p[0] != VERSION:
        raise ValueError(f"release chunk: unknown version {p[0]}")
    crc = zlib.crc32(PyMemoryView_FromMemory(<char*>p, n - 4, PyBUF_READ))
    if crc != (p[n - 4] | (p[n - 3] << 8) | (p[n - 2] << 16) | (<uint64_t>p[n - 1] << 24)):
        raise ValueError("release chunk: checksum mismatch")
    h.p = p
    h.pos = 1
    h.n = n - 4
    head = rd_u(&h)
    meta_len = head >> 1
    if meta_len > <uint64_t>MAX_META:
        corrupt("metadata length")
    if head & 1:
        stored = rd_u(&h)
        rd_take(&h, stored)
        meta_obj = _decompress(buf[h.pos - stored:h.pos], meta_len)
    else:
        rd_take(&h, meta_len)
        meta_obj = buf[h.pos - meta_len:h.pos]
    ctx.meta_obj = meta_obj
    meta = <const uint8_t*>PyBytes_AS_STRING(meta_obj)
    ctx.meta = meta
    packed_len = h.n - h.pos
    ctx.packed_len = packed_len
    ctx.packed = <uint8_t*>xalloc(packed_len + 8)
    memcpy(ctx.packed, p + h.pos, packed_len)
    memset(ctx.packed + packed_len, 0, 8)
    ctx.br.p = ctx.packed
    ctx.br.pos = 0
    ctx.br.end = <uint64_t>packed_len * 8

    r.p = meta
    r.pos = 0
    r.n = PyBytes_GET_SIZE(meta_obj)
    nfiles = rd_u(&r)
    ninst = rd_u(&r)
    if nfiles > <uint64_t>MAX_COUNT or nfiles > <uint64_t>r.n or ninst > nfiles:
        corrupt("counts")
    ctx.nfiles = nfiles
    # templates
    ctx.inst_at = <Py_ssize_t*>xalloc((ninst + 1) * sizeof(Py_ssize_t))
    ctx.inst_len = <Py_ssize_t*>xalloc((ninst + 1) * sizeof(Py_ssize_t))
    ctx.inst_plain = <uint8_t*>xalloc(ninst + 1)
    cdef Py_ssize_t ecap = 16, ne = 0
    ctx.elems = <DElem*>xalloc(ecap * sizeof(DElem))
    for i in range(<Py_ssize_t>ninst):
        ctx.inst_at[i] = ne
        nelems = rd_u(&r)
        if nelems > 4 * MAX_RUNS + 2:
            corrupt("template size")
        if ne + <Py_ssize_t>nelems > ecap:
            ecap = 2 * (ne + nelems)
            el = <DElem*>realloc(ctx.elems, ecap * sizeof(DElem))
            if el == NULL:
                raise MemoryError()
            ctx.elems = el
        out_len = 0
        ctx.inst_plain[i] = 1
        for k in range(<Py_ssize_t>nelems):
            el = &ctx.elems[ne]
            ne += 1
            memset(el, 0, sizeof(DElem))
            kind = rd_byte(&r)
            el.kind = kind
            if kind == K_LIT:
                u = rd_u(&r)
                el.lit = rd_take(&r, u)
                el.len = u
                out_len += u
                for j in range(<Py_ssize_t>u):
                    if not MID_PLAIN[el.lit[j]]:
                        ctx.inst_plain[i] = 0
            elif kind == K_PART or kind == K_TOTAL:
                out_len += 20
            elif kind == K_FIXED:
                el.cls = rd_byte(&r)
                u = rd_u(&r)
                if el.cls > C_B62 or u < 1 or u > MAX_TEMPLATE_OUT:
                    corrupt("template field")
                el.a = u
                out_len += u
            elif kind == K_NUM:
                u = rd_u(&r)
                el.w = rd_byte(&r)
                if u >= <uint64_t>NUM_LIMIT or el.w > 60:
                    corrupt("template number")
                el.a = u
                out_len += 18
            elif kind == K_NUMD:
                u = rd_u(&r)
                el.b = unzz(rd_u(&r))
                el.w = rd_byte(&r)
                if u >= <uint64_t>NUM_LIMIT or el.b <= -NUM_LIMIT or el.b >= NUM_LIMIT or el.w > 61:
                    corrupt("template number")
                el.a = u
                out_len += 18
            elif kind == K_VAR:
                el.cls = rd_byte(&r)
                u = rd_u(&r)
                el.w = rd_byte(&r)
                if el.cls > C_B62 or u > MAX_TEMPLATE_OUT or el.w > 16:
                    corrupt("template field")
                el.a = u
                out_len += u + (1 << el.w) - 1
            else:
                corrupt("template kind")
            if out_len > MAX_TEMPLATE_OUT:
                corrupt("template length")
        ctx.inst_len[i] = out_len
        if out_len > maxout:
            maxout = out_len
    ctx.inst_at[ninst] = ne
    ctx.maxout = maxout

    # the file columns
    ctx.f64 = <int64_t*>calloc(nfiles * F_N + 1, sizeof(int64_t))
    ctx.names = <const uint8_t**>calloc(nfiles + 1, sizeof(uint8_t*))
    if ctx.f64 == NULL or ctx.names == NULL:
        raise MemoryError()
    F = ctx.f64
    for i in range(<Py_ssize_t>nfiles):
        F[i * F_N + F_NAMELEN] = <int64_t>rd_u(&r) if True else 0
        if F[i * F_N + F_NAMELEN] < 0:
            corrupt("name length")
    for i in range(<Py_ssize_t>nfiles):
        ctx.names[i] = rd_take(&r, <uint64_t>F[i * F_N + F_NAMELEN])
    for i in range(<Py_ssize_t>nfiles):
        u = rd_u(&r)
        if u > <uint64_t>MAX_FILE_BYTES:
            corrupt("file bytes")
        F[i * F_N + F_FB] = u
    for i in range(<Py_ssize_t>nfiles):
        u = rd_u(&r)
        if u > <uint64_t>MAX_COUNT:
            corrupt("segment count")
        total_segs += u
        if u > maxn:
            maxn = u
        F[i * F_N + F_NSEGS] = u
    if total_segs > <uint64_t>MAX_COUNT:
        corrupt("segment count")
    ctx.total_segs = total_segs
    ctx.maxn = maxn
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 1:
            F[i * F_N + F_FIRST] = <int64_t>min(rd_u(&r), <uint64_t>MAXV + 1)
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 1:
            F[i * F_N + F_INST] = <int64_t>min(rd_u(&r), ninst + 1)
    prev = 0
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] == 1:
            # relative to the file bytes (0 .. 2^63-1): the sum checked without overflow
            dz = unzz(rd_u(&r))
            if dz > MAXV or dz < -MAX_FILE_BYTES:
                corrupt("article bytes")
            if (dz >= 0 and F[i * F_N + F_FB] > MAXV - dz) or (dz < 0 and F[i * F_N + F_FB] < -dz):
                corrupt("article bytes")
            F[i * F_N + F_SIZE] = F[i * F_N + F_FB] + dz
        elif F[i * F_N + F_NSEGS] >= 2:
            dz = unzz(rd_u(&r))
            if dz > MAXV or dz < -MAXV:
                corrupt("article bytes")
            prev += dz
            if prev < 0 or prev > MAXV:
                corrupt("article bytes")
            F[i * F_N + F_SIZE] = prev
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 2:
            F[i * F_N + F_WIDTH] = rd_byte(&r)
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 2:
            dz = unzz(rd_u(&r))
            if dz > MAXV or dz < -MAXV:
                corrupt("file record")
            F[i * F_N + F_LAST] = F[i * F_N + F_SIZE] + dz
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 2:
            F[i * F_N + F_PEXC_N] = <int64_t>min(rd_u(&r), <uint64_t>MAX_COUNT + 1)
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 1:
            F[i * F_N + F_MEXC_N] = <int64_t>min(rd_u(&r), <uint64_t>MAX_COUNT + 1)
    for i in range(<Py_ssize_t>nfiles):
        cnt = F[i * F_N + F_NSEGS]
        if cnt >= 1:
            if (F[i * F_N + F_FIRST] > MAXV or F[i * F_N + F_INST] > <int64_t>ninst
                    or F[i * F_N + F_MEXC_N] > cnt
                    or (F[i * F_N + F_INST] == 0 and F[i * F_N + F_MEXC_N] != cnt)):
                corrupt("file record")
        if cnt >= 2:
            if (F[i * F_N + F_WIDTH] > 63 or F[i * F_N + F_LAST] < 0 or F[i * F_N + F_LAST] > MAXV
                    or F[i * F_N + F_PEXC_N] >= cnt):
                corrupt("file record")
        npexc += F[i * F_N + F_PEXC_N]
        nmexc += F[i * F_N + F_MEXC_N]
    ctx.pexc = <int64_t*>xalloc((2 * npexc + 1) * sizeof(int64_t))
    ctx.mexc = <int64_t*>xalloc((3 * nmexc + 1) * sizeof(int64_t))
    ctx.mk_total = nmexc
    pk = 0
    for i in range(<Py_ssize_t>nfiles):
        prev = -1
        for k in range(F[i * F_N + F_PEXC_N]):
            u = rd_u(&r)
            dz = unzz(rd_u(&r))
            if u >= <uint64_t>F[i * F_N + F_NSEGS]:
                corrupt("part exception")
            j = prev + <Py_ssize_t>u + 1
            if j < 1 or j >= F[i * F_N + F_NSEGS] or dz < -MAXV - 1 or dz >= MAXV:
                corrupt("part exception")
            ctx.pexc[2 * pk] = j
            ctx.pexc[2 * pk + 1] = dz + 1
            pk += 1
            prev = j
    mk = 0
    for i in range(<Py_ssize_t>nfiles):
        prev = -1
        for k in range(F[i * F_N + F_MEXC_N]):
            u = rd_u(&r)
            if u >= <uint64_t>F[i * F_N + F_NSEGS]:
                corrupt("message-id exception")
            j = prev + <Py_ssize_t>u + 1
            if j >= F[i * F_N + F_NSEGS]:
                corrupt("message-id exception")
            u = rd_u(&r)
            rd_take(&r, u)
            ctx.mexc[3 * mk] = j
            ctx.mexc[3 * mk + 1] = r.pos - <Py_ssize_t>u
            ctx.mexc[3 * mk + 2] = u
            mk += 1
            prev = j
    if r.pos != r.n:
        corrupt("trailing metadata")

    # one file's segments at a time
    ctx.parts = <int64_t*>xalloc((maxn + 1) * sizeof(int64_t))
    ctx.sizes = <int64_t*>xalloc((maxn + 1) * sizeof(int64_t))
    ctx.moff = <Py_ssize_t*>xalloc((maxn + 1) * sizeof(Py_ssize_t))
    ctx.mlen = <Py_ssize_t*>xalloc((maxn + 1) * sizeof(Py_ssize_t))
    ctx.mplain = <uint8_t*>xalloc(maxn + 1)
    ctx.pool_cap = 4096
    ctx.pool = <uint8_t*>xalloc(ctx.pool_cap)
    ctx.pk = 0
    ctx.mk = 0
    return 0


cdef int pool_grow(_DCtx ctx, Py_ssize_t need) except -1:
    cdef Py_ssize_t cap = 2 * ctx.pool_cap
    if cap < need:
        cap = need
    cdef uint8_t* q = <uint8_t*>realloc(ctx.pool, cap)
    if q == NULL:
        raise MemoryError()
    ctx.pool = q
    ctx.pool_cap = cap
    return 0


cdef Py_ssize_t d_file(_DCtx ctx, Py_ssize_t i) except -1:
    """The segments of file i (files in order, each once) into ctx.parts,
    ctx.sizes and ctx.moff/mlen (message-ids in ctx.pool), in the chunk's order;
    their number."""
    cdef const int64_t* F = ctx.f64 + i * F_N
    cdef Py_ssize_t nn = F[F_NSEGS], k, j, e0, used = 0, m
    cdef Py_ssize_t pk = ctx.pk, mk = ctx.mk, need = ctx.maxout + 8
    cdef int64_t* parts = ctx.parts
    cdef int64_t* sizes = ctx.sizes
    cdef const int64_t* pexc = ctx.pexc
    cdef const int64_t* mexc = ctx.mexc
    cdef DElem* iel
    cdef Py_ssize_t ine
    cdef int64_t base, size, last
    cdef int w
    cdef uint64_t rr
    cdef uint8_t plain, tplain = 0
    ctx.pool_used = 0
    if nn == 0:
        return 0
    parts[0] = F[F_FIRST]
    e0 = pk + F[F_PEXC_N]
    for k in range(1, nn):
        if pk < e0 and pexc[2 * pk] == k:
            parts[k] = parts[k - 1] + pexc[2 * pk + 1]
            pk += 1
        else:
            parts[k] = parts[k - 1] + 1
        if parts[k] < 0 or parts[k] > MAXV:
            corrupt("part")
    ctx.pk = pk
    if F[F_INST]:
        iel = ctx.elems + ctx.inst_at[F[F_INST] - 1]
        ine = ctx.inst_at[F[F_INST]] - ctx.inst_at[F[F_INST] - 1]
        tplain = ctx.inst_plain[F[F_INST] - 1]
    else:
        iel = NULL
        ine = 0
    e0 = mk + F[F_MEXC_N]
    base = F[F_SIZE]
    last = F[F_LAST]
    w = <int>F[F_WIDTH]
    for k in range(nn):
        if mk < e0 and mexc[3 * mk] == k:
            m = mexc[3 * mk + 2]
            if used + m > ctx.pool_cap:
                pool_grow(ctx, used + m)
            memcpy(ctx.pool + used, ctx.meta + mexc[3 * mk + 1], m)
            mk += 1
            plain = 1
            for j in range(m):
                if not MID_PLAIN[ctx.pool[used + j]]:
                    plain = 0
                    break
        else:
            if used + need > ctx.pool_cap:
                pool_grow(ctx, used + need)
            m = make_mid(iel, ine, &ctx.br, parts[k], parts[nn - 1], ctx.pool + used)
            plain = tplain
        ctx.moff[k] = used
        ctx.mlen[k] = m
        ctx.mplain[k] = plain
        used += m
        if nn == 1:
            size = base
        elif k < nn - 1:
            br_read(&ctx.br, w, &rr)
            if rr > <uint64_t>MAXV or base + <int64_t>rr > MAXV:
                corrupt("article bytes")
            size = base + <int64_t>rr
        else:
            size = last
        sizes[k] = size
    ctx.mk = mk
    ctx.pool_used = used
    return nn


cdef int d_end(_DCtx ctx) except -1:
    """After the last file: the bit stream read to its end."""
    cdef uint64_t pos = ctx.br.pos
    if (pos + 7) >> 3 != <uint64_t>ctx.packed_len or (
            (pos & 7) and (ctx.packed[ctx.packed_len - 1] >> (pos & 7))):
        corrupt("trailing bits")
    return 0


def decode(data):
    """The files of a chunk made by encode, in the same shape."""
    cdef _DCtx ctx = _DCtx()
    d_parse(ctx, data if type(data) is bytes else bytes(data))
    cdef list files = PyList_New(ctx.nfiles)
    cdef list segs
    cdef object o
    cdef tuple tup
    cdef Py_ssize_t i, k, nn
    for i in range(ctx.nfiles):
        nn = d_file(ctx, i)
        segs = PyList_New(nn)
        for k in range(nn):
            tup = PyTuple_New(3)
            x = PyLong_FromLongLong(ctx.parts[k])
            Py_INCREF(x)
            PyTuple_SET_ITEM(tup, 0, x)
            o = PyBytes_FromStringAndSize(<char*>ctx.pool + ctx.moff[k], ctx.mlen[k])
            Py_INCREF(o)
            PyTuple_SET_ITEM(tup, 1, o)
            x = PyLong_FromLongLong(ctx.sizes[k])
            Py_INCREF(x)
            PyTuple_SET_ITEM(tup, 2, x)
            Py_INCREF(tup)
            PyList_SET_ITEM(segs, k, tup)
        tup = PyTuple_New(3)
        o = PyBytes_FromStringAndSize(<char*>ctx.names[i], ctx.f64[i * F_N + F_NAMELEN])
        Py_INCREF(o)
        PyTuple_SET_ITEM(tup, 0, o)
        x = PyLong_FromLongLong(ctx.f64[i * F_N + F_FB])
        Py_INCREF(x)
        PyTuple_SET_ITEM(tup, 1, x)
        Py_INCREF(segs)
        PyTuple_SET_ITEM(tup, 2, segs)
        Py_INCREF(tup)
        PyList_SET_ITEM(files, i, tup)
    d_end(ctx)
    return files

# -- the NZB of a chunk ------------------------------------------------------------------

cdef bint utf8_ok(const uint8_t* s, Py_ssize_t n) noexcept nogil:
    """Whether s is UTF-8 as Python's strict decoder takes it (no overlong
    forms, surrogates or code points past U+10FFFF)."""
    cdef Py_ssize_t i = 0
    cdef uint8_t c, c1
    while i < n:
        c = s[i]
        if c < 0x80:
            i += 1
        elif c < 0xC2:
            return False
        elif c < 0xE0:
            if i + 1 >= n or (s[i + 1] & 0xC0) != 0x80:
                return False
            i += 2
        elif c < 0xF0:
            if i + 2 >= n:
                return False
            c1 = s[i + 1]
            if (c1 & 0xC0) != 0x80 or (s[i + 2] & 0xC0) != 0x80:
                return False
            if (c == 0xE0 and c1 < 0xA0) or (c == 0xED and c1 >= 0xA0):
                return False
            i += 3
        elif c < 0xF5:
            if i + 3 >= n:
                return False
            c1 = s[i + 1]
            if (c1 & 0xC0) != 0x80 or (s[i + 2] & 0xC0) != 0x80 or (s[i + 3] & 0xC0) != 0x80:
                return False
            if (c == 0xF0 and c1 < 0x90) or (c == 0xF4 and c1 >= 0x90):
                return False
            i += 4
        else:
            return False
    return True


cdef Py_ssize_t put_text(uint8_t* o, const uint8_t* s, Py_ssize_t n, int attr) noexcept nogil:
    """s as text (UTF-8, else Latin-1) escaped as UTF-8 at o (room for 6 * n
    bytes), what XML 1.0 forbids (control bytes but TAB, LF and CR; U+FFFE,
    U+FFFF) replaced by U+FFFD: attr 0 as xml.sax.saxutils.escape, 1 as quoteattr within
    '...', 2 within "..." (&quot;); the length."""
    cdef Py_ssize_t i = 0, k = 0
    cdef uint8_t c
    cdef bint utf8 = True
    for i in range(n):
        if s[i] >= 0x80:
            utf8 = utf8_ok(s, n)
            break
    i = -1
    while i + 1 < n:
        i += 1
        c = s[i]
        if (c < 32 and c != 9 and c != 10 and c != 13) or (
                c == 0xEF and utf8 and i + 2 < n and s[i + 1] == 0xBF and (s[i + 2] == 0xBE or s[i + 2] == 0xBF)):
            memcpy(o + k, b"\xef\xbf\xbd", 3)     # U+FFFD for it, as the feeds write it
            k += 3
            if c == 0xEF:
                i += 2
        elif c == 38:
            memcpy(o + k, b"&amp;", 5)
            k += 5
        elif c == 60:
            memcpy(o + k, b"&lt;", 4)
            k += 4
        elif c == 62:
            memcpy(o + k, b"&gt;", 4)
            k += 4
        elif attr and c == 10:
            memcpy(o + k, b"&#10;", 5)
            k += 5
        elif attr and c == 13:
            memcpy(o + k, b"&#13;", 5)
            k += 5
        elif attr and c == 9:
            memcpy(o + k, b"&#9;", 4)
            k += 4
        elif attr == 2 and c == 34:
            memcpy(o + k, b"&quot;", 6)
            k += 6
        elif c >= 0x80 and not utf8:
            o[k] = 0xC0 | (c >> 6)
            o[k + 1] = 0x80 | (c & 0x3F)
            k += 2
        else:
            o[k] = c
            k += 1
    return k


# the segments qsort orders (one sort at a time: the GIL is held throughout)
cdef const int64_t* _s_parts
cdef const int64_t* _s_sizes
cdef const Py_ssize_t* _s_moff
cdef const Py_ssize_t* _s_mlen
cdef const uint8_t* _s_pool


cdef int seg_cmp(const void* a, const void* b) noexcept nogil:
    """Python's order of (part, message-id, bytes) tuples."""
    cdef Py_ssize_t i = (<const Py_ssize_t*>a)[0], j = (<const Py_ssize_t*>b)[0], m
    cdef int c
    if _s_parts[i] != _s_parts[j]:
        return -1 if _s_parts[i] < _s_parts[j] else 1
    m = _s_mlen[i] if _s_mlen[i] < _s_mlen[j] else _s_mlen[j]
    c = memcmp(_s_pool + _s_moff[i], _s_pool + _s_moff[j], m)
    if c:
        return c
    if _s_mlen[i] != _s_mlen[j]:
        return -1 if _s_mlen[i] < _s_mlen[j] else 1
    if _s_sizes[i] != _s_sizes[j]:
        return -1 if _s_sizes[i] < _s_sizes[j] else 1
    return 0


cdef extern from "stdlib.h":
    void qsort(void* base, size_t n, size_t size, int (*cmp)(const void*, const void*) noexcept nogil) nogil


# decode_nzb writes into a buffer kept from call to call, then copies it into
# the result: a fresh buffer of its own would be fresh pages each time (glibc
# maps big blocks anew), which costs more than the copy
cdef uint8_t* _scratch = NULL
cdef Py_ssize_t _scratch_cap = 0
cdef bint _scratch_busy = False
cdef Py_ssize_t SCRATCH_KEEP = 16 << 20


cdef int out_room(_DCtx ctx, Py_ssize_t extra) except -1:
    """Room for `extra` more bytes at ctx.op + ctx.on."""
    cdef Py_ssize_t cap
    cdef uint8_t* q
    if ctx.on + extra <= ctx.ocap:
        return 0
    cap = 2 * ctx.ocap
    if cap < ctx.on + extra:
        cap = ctx.on + extra
    q = <uint8_t*>realloc(ctx.op, cap)
    if q == NULL:
        raise MemoryError()
    ctx.op = q
    ctx.ocap = cap
    return 0


cdef Py_ssize_t nzb_bound(_DCtx ctx, Py_ssize_t fixed, Py_ssize_t per_file) except -1:
    """The most bytes decode_nzb can write for ctx's chunk (64 MiB when more:
    the output grows as it goes)."""
    cdef Py_ssize_t i, k, bound = fixed, lim = 64 << 20
    cdef const int64_t* F
    for i in range(ctx.nfiles):
        F = ctx.f64 + i * F_N
        bound += per_file + 6 * F[F_NAMELEN]
        if F[F_INST] and F[F_NSEGS]:
            bound += F[F_NSEGS] * (ctx.inst_len[F[F_INST] - 1] * (1 if ctx.inst_plain[F[F_INST] - 1] else 6))
        bound += F[F_NSEGS] * SEG_LINE_MAX
        if bound > lim:
            return lim
    for k in range(ctx.mk_total):
        bound += 6 * ctx.mexc[3 * k + 2]
        if bound > lim:
            return lim
    return bound


cdef enum:
    SEG_LINE_MAX = 19 + 20 + 10 + 20 + 2 + 11     # a segment line but its message-id


cdef int nzb_files(_DCtx ctx, bytes file_open, bytes file_groups) except -1:
    """The <file> elements of ctx's chunk at ctx.op + ctx.on, to the chunk's end."""
    cdef Py_ssize_t i, k, j, nn, m, namelen
    cdef Py_ssize_t lo = PyBytes_GET_SIZE(file_open), lg = PyBytes_GET_SIZE(file_groups)
    cdef const int64_t* parts = ctx.parts
    cdef const int64_t* sizes = ctx.sizes
    cdef const uint8_t* mid
    cdef const uint8_t* name
    cdef uint8_t* o
    cdef Py_ssize_t* order
    cdef int64_t total
    cdef bint sorted_, apos
    global _s_parts, _s_sizes, _s_moff, _s_mlen, _s_pool
    for i in range(ctx.nfiles):
        nn = d_file(ctx, i)
        sorted_ = True
        for k in range(1, nn):
            if parts[k] <= parts[k - 1]:
                sorted_ = False
                break
        order = NULL
        if not sorted_:
            if ctx.order == NULL:
                ctx.order = <Py_ssize_t*>xalloc((ctx.maxn + 1) * sizeof(Py_ssize_t))
            order = ctx.order
            for k in range(nn):
                order[k] = k
            _s_parts = parts
            _s_sizes = sizes
            _s_moff = ctx.moff
            _s_mlen = ctx.mlen
            _s_pool = ctx.pool
            qsort(order, nn, sizeof(Py_ssize_t), seg_cmp)
        total = (parts[order[nn - 1]] if order != NULL else parts[nn - 1]) if nn else 0
        # <file ... subject="&quot;name&quot; yEnc (1/total)"> or subject='"name" yEnc (1/total)'
        name = ctx.names[i]
        namelen = ctx.f64[i * F_N + F_NAMELEN]
        apos = memchr(name, 39, namelen) != NULL
        out_room(ctx, lo + lg + 6 * namelen + FILE_EXTRA)
        o = ctx.op + ctx.on
        memcpy(o, PyBytes_AS_STRING(file_open), lo)
        o += lo
        if apos:
            memcpy(o, b'"&quot;', 7)
            o += 7
        else:
            memcpy(o, b"'\"", 2)
            o += 2
        o += put_text(o, name, namelen, 2 if apos else 1)
        if apos:
            memcpy(o, b"&quot; yEnc (1/", 15)
            o += 15
        else:
            memcpy(o, b'" yEnc (1/', 10)
            o += 10
        o += fmt_u64(o, <uint64_t>total)
        if apos:
            memcpy(o, b')"', 2)
        else:
            memcpy(o, b")'", 2)
        o += 2
        memcpy(o, PyBytes_AS_STRING(file_groups), lg)
        o += lg
        ctx.on = o - ctx.op
        # '   <segment bytes="B" number="P">MID</segment>' lines
        out_room(ctx, nn * SEG_LINE_MAX + 6 * ctx.pool_used + 23)
        o = ctx.op + ctx.on
        for k in range(nn):
            j = order[k] if order != NULL else k
            memcpy(o, b'   <segment bytes="', 19)
            o += 19
            o += fmt_u64(o, <uint64_t>sizes[j])
            memcpy(o, b'" number="', 10)
            o += 10
            o += fmt_u64(o, <uint64_t>parts[j])
            o[0] = 34
            o[1] = 62
            o += 2
            mid = ctx.pool + ctx.moff[j]
            m = ctx.mlen[j]
            if ctx.mplain[j]:
                memcpy(o, mid, m)
                o += m
            else:
                o += put_text(o, mid, m, 0)
            memcpy(o, b"</segment>\n", 11)
            o += 11
        memcpy(o, b"  </segments>\n </file>\n", 23)
        o += 23
        ctx.on = o - ctx.op
    d_end(ctx)
    return 0


def decode_nzb(chunks, bytes head not None, bytes file_open not None, bytes file_groups not None):
    """The NZB of a release's chunks as UTF-8, in one pass, without decode's
    objects: the files of each chunk in turn, as stored.

    head: the document up to and with the newline after </head>; file_open:
    a <file> element's start up to `subject=`; file_groups: from the `>` after
    the subject to the newline after <segments>. Each file's subject is
    `"<name>" yEnc (1/<highest part>)` as quoteattr writes it, its segments
    in order of (part, message-id, bytes) with names and message-ids as text
    (UTF-8, else Latin-1), escaped. ValueError on a chunk decode refuses."""
    cdef _DCtx ctx = None, nxt
    cdef Py_ssize_t lh = PyBytes_GET_SIZE(head)
    cdef Py_ssize_t per_file = PyBytes_GET_SIZE(file_open) + PyBytes_GET_SIZE(file_groups) + FILE_EXTRA
    global _scratch_busy
    for data in chunks:
        nxt = _DCtx()
        d_parse(nxt, data if type(data) is bytes else bytes(data))
        if ctx is None:
            if not _scratch_busy:       # (taken only while another thread's call waits in d_parse)
                _scratch_busy = True
                nxt.scratch = True
                nxt.op = _scratch
                nxt.ocap = _scratch_cap
            out_room(nxt, nzb_bound(nxt, lh + 7, per_file))
            memcpy(nxt.op, PyBytes_AS_STRING(head), lh)
            nxt.on = lh
        else:                           # the document so far goes on in the next chunk's context
            nxt.op, nxt.ocap, nxt.on, nxt.scratch = ctx.op, ctx.ocap, ctx.on, ctx.scratch
            ctx.op, ctx.ocap, ctx.on, ctx.scratch = NULL, 0, 0, False
            out_room(nxt, nzb_bound(nxt, 7, per_file))
        ctx = nxt
        nzb_files(ctx, file_open, file_groups)
    if ctx is None:
        return head + b"</nzb>\n"
    out_room(ctx, 7)
    memcpy(ctx.op + ctx.on, b"</nzb>\n", 7)
    ctx.on += 7
    return PyBytes_FromStringAndSize(<char*>ctx.op, ctx.on)


DOCTYPE = ('<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" '
           '"http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">')
NAMESPACE = "http://www.newzbin.com/DTD/2003/nzb"


def nzb(chunks, title, poster, posted_at, groups, category=None, password=None):
    """The NZB 1.1 of a release as UTF-8, what voyager.nzb() and the web serve:
    <meta> for the title, the category and a known password, then a <file> per
    file of its chunks with the release's poster, date and groups."""
    head = ['<?xml version="1.0" encoding="UTF-8"?>', DOCTYPE, f'<nzb xmlns="{NAMESPACE}">', " <head>",
            f'  <meta type="title">{escape(xml_text(title or ""))}</meta>']
    if category:
        head.append(f'  <meta type="category">{escape(xml_text(str(category)))}</meta>')
    if password:
        head.append(f'  <meta type="password">{escape(xml_text(password))}</meta>')
    head.append(" </head>\n")
    group_xml = "".join([f"<group>{escape(xml_text(g))}</group>" for g in (groups or [])])
    return decode_nzb(chunks, "\n".join(head).encode("utf-8"),
                      f" <file poster={quoteattr(xml_text(poster or ''))} date=\"{int(posted_at or 0)}\" subject=".encode(),
                      f">\n  <groups>{group_xml}</groups>\n  <segments>\n".encode())


# what XML 1.0 forbids in a text: control characters but TAB, LF and CR,
# U+FFFE, U+FFFF, and lone surrogates (a str decoded with surrogateescape)
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(s: str) -> str:
    """s with U+FFFD for what XML 1.0 forbids (put_text's rule for the head's texts)."""
    return NOT_XML.sub("\ufffd", s)


cdef enum:
    FILE_EXTRA = 7 + 15 + 20 + 2 + 23          # a <file>'s own bytes but its name and the caller's parts
