# The release chunk format: its limits, tables and zstd frames, and the small
# helpers every job of ext/codec.pyx uses (included there).

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

# The format's tables and its zstd dictionary (tests/codec_reference.py states them;
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

# -- what encode, decode and the NZB writer share -----------------------------------

cdef inline uint64_t zz(int64_t v) noexcept nogil:
    return (<uint64_t>v << 1) ^ <uint64_t>(v >> 63)


cdef inline int64_t unzz(uint64_t z) noexcept nogil:
    return <int64_t>(z >> 1) ^ -<int64_t>(z & 1)


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
