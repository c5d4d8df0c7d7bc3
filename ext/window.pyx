# cython: language_level=3
"""The window: a group's overview lines, in article order, into releases.

One `Window` per group and lane, carried from range to range (and through a
snapshot from lease to lease). Per line, in C: the scanner's fields, the owner
rule for crossposts, the subject (yEnc part counter, file counter, file name,
release name), the file it belongs to. At every tick (each TICK_ARTICLES
article numbers, so chunk boundaries change nothing) the frontier moves and:
files complete or idle past frontier - WINDOW join the open release of their
identity whose span is within UPLOAD_GAP; releases whose last part is WINDOW
behind the frontier are judged and written finished. At a lease's end what is
still open is written provisionally (finished false, edge true).

The output is a batch: releases, pending (all files random-named: nothing
enters the catalog without a name someone could search for), probe
candidates inside each, rule counts and ~1% samples of what rules dropped,
the lines skipped and mended by reason, and the resume point.

Hostile lines never stop it: a line outside the chunk that was asked for, or
one the scanner cannot read, is counted and skipped; control bytes, over-long
fields and impossible sizes are mended by the scanner's one cleaner
(scan.mend_line) and counted; a jump in article numbers costs a bounded
number of ticks.
"""
cimport cython
from libc.string cimport memchr, memcpy
from libc.stdlib cimport qsort
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_GET_SIZE, PyByteArray_Resize

from ext.scan cimport (Line, next_line, parse_fields, parse_date, mend_line, needs_mending, has_below, utf8_cut,
                       NO_DATE, OK, M_EMPTY,
                       M_OUTSIDE, C_LONG_SUBJECT, MAX_NAME_C, MAX_LINE_C, MAX_XREF_C)
from ext.chars cimport lower, isdigit, ishex
from ext.subject cimport Subj, parse_subject, strip_span, is_token

import hashlib
import pickle
import re
import zlib
from collections import OrderedDict

from ext.codec import text_of
from ext.subject import parse_subject_py  # noqa: F401 (tests, tools)
from ext.scan import MALFORMED_REASONS as MALFORMED, MENDED_REASONS as MENDED

SNAPSHOT_VERSION = 2       # 2: written_keys keeps the loose rows' keys
WINDOW_S = 24 * 3600           # a release is finished when the frontier is this far past its last part
UPLOAD_GAP_S = 3 * 3600        # a file joins an open release of its identity within this gap
PLAUSIBLE_S = 7 * 24 * 3600    # a Date this far from the frontier is implausible
FRONTIER_N = 1024              # the frontier: median of the last 1,024 plausible dates
ESTABLISHED_N = 64             # ... established after 64 of them
TICK_ARTICLES = 2048           # the window looks around every 2,048 article numbers
IDLE_ARTICLES = 50_000         # an undated file is idle after this many article numbers without a part
# after this many ticks without a line nothing is left for a tick to do but count
# itself: a jump in article numbers runs these and counts the rest
QUIET_TICKS = IDLE_ARTICLES // TICK_ARTICLES + 2
ALBUM_MAX_FILES = 1000
BATCH_COUNTER_TOTAL = 100      # a counter total this large may be a batch counter ...
BATCH_COUNTER_STARTS = 20      # ... when one poster starts this many releases under it ...
BATCH_COUNTER_TICKS = 100      # ... within this many ticks
SAMPLE_PERCENT = 1

SOURCE_SUBJECT, SOURCE_POST, SOURCE_STEM, SOURCE_ALBUM = 1, 2, 3, 6

# A film, episode or music name, as PostgreSQL's case-insensitive regex (~*) reads it: an
# episode (S01E02, 1x02), a resolution, a codec, a source, an audio format or bitrate, or a
# year after a title word.
JUDGE_MEDIA_NAME = (r"(^|[^[:alnum:]])(s[0-9]{1,2} ?e[0-9]{1,3}|[0-9]{1,2}x[0-9]{2,3}|(480|576|720|1080|2160)[pi]|[xh]\.?26[45]|hevc|xvid|divx|blu-?ray|bdrip|brrip|web-?dl|web-?rip|hdtv|dvd-?rip|hdrip|remux|flac|mp3|aac|[0-9]{3} ?kbps)([^[:alnum:]]|$)|[[:alpha:]][^[:alnum:]]+\(?(19|20)[0-9]{2}\)?([^[:alnum:]]|$)")

# The rule set the window runs with when the lease gives none; the database's
# rule set version 1 (deploy/data_rule_set_default.sql) is this, to the byte.
DEFAULT_RULES = {
    "garbage": [],                 # [{"tool": ..., "group": ... or "*"}]: random-named uploads dropped by signature
    "dropped_posters": [],         # posters whose uploads are dropped
    "exempt_group_words": ["sounds", "mp3", "music", "ebook", "e-book", "comics", "tabs", "fonts", "karaoke"],
    "stub_max_bytes": 100_000_000, "stub_small_article": 262_144, "stub_min_bytes": 1_000_000,
    "webmail_domains": ["gmail.com", "hotmail.com", "yahoo.com", "outlook.com", "gmx.de", "web.de", "aol.com"],
    "sample_percent": SAMPLE_PERCENT,
    # the junk judge's section (voyager.judge_verdicts reads it; the window does not)
    "judge": {
        "version": 1,
        "enabled": ["dead", "fake", "repeated", "locked", "unusable"],
        "repeat_releases": 20, "unusable_after_hours": 24,
        "program_extensions": ["exe", "com", "scr", "bat", "cmd", "msi", "pif", "vbs", "js", "jar", "apk", "lnk", "dll"],
        "media_name": JUDGE_MEDIA_NAME,
    },
}

TOOLS = ("unknown", "powerpost", "nyuu", "ngpost", "jbinup", "newsmangler", "gopoststuff", "webmail")

# -- hashing ---------------------------------------------------------------------

cdef inline unsigned long long fnv(unsigned long long h, const char* p, Py_ssize_t n) noexcept nogil:
    """A 64-bit hash of a span, folded into h: eight bytes a step, then the tail."""
    cdef Py_ssize_t i = 0
    cdef unsigned long long w
    while i + 8 <= n:
        memcpy(&w, p + i, 8)
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL
        h ^= h >> 29
        i += 8
    while i < n:
        h ^= <unsigned char>p[i]
        h *= 1099511628211ULL
        i += 1
    h ^= <unsigned long long>n
    return h * 0xBF58476D1CE4E5B9ULL

cdef inline unsigned long long fnv_sep(unsigned long long h) noexcept nogil:
    h ^= 0xff
    return h * 1099511628211ULL



# -- names -------------------------------------------------------------------------

_VOLUME = re.compile(rb"(?i)\.(?:part\d{1,4}\.rar|cneg\d{1,4}\.rar|vol\d{1,4}[+-]\d{1,4}\.par2|7z\.\d{3}|zip\.\d{3}|r\d{2,3}|s\d{2}|z\d{2})$")
_SPLIT = re.compile(rb"(?i)(\.[a-z0-9]{2,4})?\.\d{3}$")
_EXT = re.compile(rb"(?i)\.[a-z0-9]{1,4}$")
_HEX = re.compile(rb"(?i)^[0-9a-f]{16,}$")
_SCRAMBLED = re.compile(rb"^[A-Za-z0-9]{12,}$")
_ARCHIVE = re.compile(rb"(?i)\.(?:zip|rar|7z)$")
_ARCHIVE_ANY = re.compile(rb"(?i)\.(?:part\d+\.rar|cneg\d+\.rar|rar|r\d{2,3}|7z(?:\.\d{3})?|zip|zip\.\d{3}|z\d{2})$")
_FIRST_VOLUME = re.compile(rb"(?i)(?:\.part0*1\.rar|\.cneg0*1\.rar|\.7z\.0*1|\.zip\.0*1)$|^(?!.*\.(?:part|cneg)\d+\.rar$).*\.(?:rar|zip|7z)$")
_PAR2 = re.compile(rb"(?i)\.par2$")
_SEVENZ = re.compile(rb"(?i)\.7z\.(\d{3})$")
_SIDECAR = re.compile(rb"(?i)\.(?:nfo|sfv|nzb|srr|txt|md5|par2|m3u|cue|log)$")
_EXE = re.compile(rb"(?i)\.(?:exe|scr|com|bat|msi)$")
_DIGIT = re.compile(rb"\d")
_CONSONANTS = re.compile(rb"[bcdfghjklmnpqrstvwxz]{5}")
_DIGITS = re.compile(rb"\d+")
_EBOOK = re.compile(rb"(?i)(?:epub|mobi|azw3?|pdf|ebook|e-book)")
_TINY_WORDS = re.compile(rb"(?i)(?:epub|mobi|azw|pdf|ebook|sub(?:title)?s?\b|srt|crack|keygen|trainer|cover|nfo|sfv|nzb|cue|log)")


# What a file name says, read from its end in one pass (no regex in the hot path).
cdef enum:
    F_ARCHIVE = 1        # .zip .rar .7z, unsplit (or the first of an old-style set)
    F_VOLUME = 2         # .partNN.rar .cnegNN.rar .rNN .7z.NNN .zip.NNN .zNN
    F_FIRST = 4          # the first volume of a set (or a single archive)
    F_PAR2 = 8
    F_SEVENZ = 16        # .7z.NNN, or an unsplit .7z (its listing at its end)
    F_EXE = 32
    F_SIDECAR = 64       # .nfo .sfv .nzb .srr .txt .md5 .m3u .cue .log (.par2 too)
    F_DIGIT = 128
    F_SPLIT = 256        # .NNN after another extension (.avi.012)


cdef struct Facts:
    Py_ssize_t stem_len
    int flags
    long long volume


cdef inline bint ext_is(const char* s, Py_ssize_t n, Py_ssize_t at, const char* ext, Py_ssize_t en) noexcept nogil:
    """s[at:n] equals ext (lower case), case-insensitively."""
    cdef Py_ssize_t q
    if n - at != en:
        return False
    for q in range(en):
        if lower(s[at + q]) != ext[q]:
            return False
    return True


cdef inline Py_ssize_t digits_before(const char* s, Py_ssize_t end, long long* value) noexcept nogil:
    cdef Py_ssize_t j = end
    cdef long long v = 0, mul = 1
    while j > 0 and isdigit(s[j - 1]) and end - j < 9:
        j -= 1
        v += (s[j] - 48) * mul
        mul *= 10
    value[0] = v
    return j


cdef void name_facts(const char* s, Py_ssize_t n, Facts* o) noexcept nogil:
    cdef Py_ssize_t dot = n, j, d, q
    cdef long long v = 0
    o.flags = 0
    o.volume = 0
    o.stem_len = n
    for q in range(n):
        if isdigit(s[q]):
            o.flags |= F_DIGIT
            break
    while dot > 0 and s[dot - 1] != 46:
        dot -= 1
    if dot == 0:
        return
    dot -= 1                                   # s[dot] is the last '.'
    if ext_is(s, n, dot, ".par2", 5):
        o.flags |= F_PAR2 | F_SIDECAR
        o.stem_len = dot
        # .volNN+NN.par2
        j = dot
        d = digits_before(s, j, &v)
        if d < j and d > 0 and (s[d - 1] == 43 or s[d - 1] == 45):
            j = digits_before(s, d - 1, &v)
            if j >= 4 and j < d - 1 and lower(s[j - 3]) == 118 and lower(s[j - 2]) == 111 and lower(s[j - 1]) == 108 \
                    and s[j - 4] == 46:
                o.stem_len = j - 4
        return
    if ext_is(s, n, dot, ".rar", 4):
        d = digits_before(s, dot, &v)
        if d < dot and d >= 5 and s[d - 5] == 46 and ((lower(s[d - 4]) == 112 and lower(s[d - 3]) == 97
                and lower(s[d - 2]) == 114 and lower(s[d - 1]) == 116) or (lower(s[d - 4]) == 99
                and lower(s[d - 3]) == 110 and lower(s[d - 2]) == 101 and lower(s[d - 1]) == 103)):
            o.flags |= F_VOLUME
            o.volume = v
            if v == 1:
                o.flags |= F_FIRST
            o.stem_len = d - 5                 # .partNN.rar / .cnegNN.rar (ROT13 of part)
            return
        o.flags |= F_ARCHIVE | F_FIRST
        o.stem_len = dot
        return
    if ext_is(s, n, dot, ".zip", 4):
        o.flags |= F_ARCHIVE | F_FIRST
        o.stem_len = dot
        return
    if ext_is(s, n, dot, ".7z", 3):
        o.flags |= F_ARCHIVE | F_FIRST | F_SEVENZ
        o.stem_len = dot
        return
    d = digits_before(s, n, &v)
    if d == dot + 1 and n - d == 3:          # .NNN
        if dot >= 3 and ext_is(s, dot, dot - 3, ".7z", 3):
            o.flags |= F_VOLUME | F_SEVENZ
            o.volume = v
            if v == 1:
                o.flags |= F_FIRST
            o.stem_len = dot - 3
            return
        if dot >= 4 and ext_is(s, dot, dot - 4, ".zip", 4):
            o.flags |= F_VOLUME
            if v == 1:
                o.flags |= F_FIRST
            o.stem_len = dot - 4
            return
        o.flags |= F_SPLIT
        o.volume = v
        o.stem_len = dot
        j = dot
        while j > 0 and s[j - 1] != 46 and dot - j <= 4:
            j -= 1
        if j > 0 and s[j - 1] == 46 and dot - j >= 2 and dot - j <= 4:
            o.stem_len = j - 1                 # .avi.012: the extension before the number too
        return
    if (n - dot == 3 or n - dot == 4) and (lower(s[dot + 1]) == 114 or lower(s[dot + 1]) == 122
                                           or lower(s[dot + 1]) == 115) and d == dot + 2:
        o.flags |= F_VOLUME                    # .rNN .zNN .sNN
        o.volume = v + 2
        o.stem_len = dot
        return
    if ext_is(s, n, dot, ".exe", 4) or ext_is(s, n, dot, ".scr", 4) or ext_is(s, n, dot, ".com", 4) \
            or ext_is(s, n, dot, ".bat", 4) or ext_is(s, n, dot, ".msi", 4):
        o.flags |= F_EXE
    elif ext_is(s, n, dot, ".nfo", 4) or ext_is(s, n, dot, ".sfv", 4) or ext_is(s, n, dot, ".nzb", 4) \
            or ext_is(s, n, dot, ".srr", 4) or ext_is(s, n, dot, ".txt", 4) or ext_is(s, n, dot, ".md5", 4) \
            or ext_is(s, n, dot, ".m3u", 4) or ext_is(s, n, dot, ".cue", 4) or ext_is(s, n, dot, ".log", 4):
        o.flags |= F_SIDECAR
    if n - dot >= 2 and n - dot <= 5:
        for q in range(dot + 1, n):
            if not (isdigit(s[q]) or 97 <= lower(s[q]) <= 122):
                return
        o.stem_len = dot                       # one extension of 1-4 letters and digits


cdef bint hex_run(const char* s, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t q
    if n < 16:
        return False
    for q in range(n):
        if not ishex(s[q]):
            return False
    return True


def facts_of(bytes name):
    """(stem, flags, volume) of a file name (tests, tools)."""
    cdef Facts fa
    name_facts(name, len(name), &fa)
    return name[:fa.stem_len] or name, fa.flags, fa.volume


def stem_of(bytes name):
    """A file name without its packaging: volumes, par2 sets, split numbers, one extension."""
    cdef Facts fa
    name_facts(name, len(name), &fa)
    return name[:fa.stem_len] or name


def _stem_of_regex(bytes name):
    """A file name without its packaging: volumes, par2 sets, split numbers, one extension."""
    s = _VOLUME.sub(b"", name)
    if s == name:
        m = _SPLIT.search(s)
        if m and (m.group(1) or len(s) > 4):
            s = s[:m.start()]
        elif _PAR2.search(s):
            s = s[:-5]
        else:
            s = _EXT.sub(b"", s)
    return s or name


def identity_of(FileAgg f):
    """The release identity of a file: its poster, the subject's release name
    (else the file's stem), the counter total."""
    return f.poster + b"\x00" + (f.rel or stem_of(f.name)) + b"\x00" + str(f.N).encode()


def subject_identity(bytes subject, bytes poster):
    """A file's subject and poster as the window reads them into a file: (its
    name, its release identity as identity_of gives it, the counter total, -1
    when the subject has none), names cut as the window cuts them; None for a
    subject without a part counter (the window keeps no file of it). For what
    reads subjects outside a window (a spot's NZB) and must name the same release."""
    cdef Subj s
    cdef const char* sub = subject
    cdef FileAgg f
    if not parse_subject(sub, len(subject), &s):
        return None
    if s.name_len > MAX_NAME_C or s.rel_len > MAX_NAME_C:
        s.name_len = utf8_cut(sub + s.name_off, s.name_len, MAX_NAME_C)
        s.rel_len = utf8_cut(sub + s.rel_off, s.rel_len, MAX_NAME_C)
    f = FileAgg()
    f.poster = poster
    f.name = subject[s.name_off:s.name_off + s.name_len]
    f.rel = subject[s.rel_off:s.rel_off + s.rel_len]
    f.N = s.N
    return f.name, identity_of(f), s.N


def is_random(bytes stem):
    return hex_run(stem, len(stem))


def is_random_stem(bytes stem):
    return random_stem(stem)


cdef bint random_stem(bytes stem) noexcept:
    """A stem that names nothing: a hex run, a random token, or 16 or more
    letters and digits with no separator that read as random (scrambled, or
    digits strewn through lower-case letters): an obfuscating poster's name."""
    cdef Py_ssize_t n = len(stem), m
    cdef const char* s = stem
    if hex_run(s, n) or is_token(s, n):
        return True
    m = n                                  # a year or number at the end is a name's ("Title2003")
    while m > 0 and 48 <= s[m - 1] <= 57:
        m -= 1
    return n >= 16 and (scrambled_c(s, m) or strewn_digits(s, n))


cdef bint strewn_digits(const char* s, Py_ssize_t n) noexcept nogil:
    """Lower-case letters and digits only, 3 or more digits, switching between
    the two 6 times or more ("4nfr3a5ed0nhbr5ng5o", not "avengers2019hdrip")."""
    cdef Py_ssize_t q
    cdef int c, digits = 0, switches = 0
    cdef bint was_digit = False
    for q in range(n):
        c = s[q]
        if 48 <= c <= 57:
            digits += 1
            if q and not was_digit:
                switches += 1
            was_digit = True
        elif 97 <= c <= 122:
            if q and was_digit:
                switches += 1
            was_digit = False
        else:
            return False
    return digits >= 3 and switches >= 6


cdef inline bint named(bytes rel) noexcept:
    """Whether the release name a subject gave is a name: not a hex run, and not
    a shape's tag ("[PRiVATE]-[tag]", the one release name that starts with '[')."""
    return len(rel) > 0 and rel[0] != 91 and not hex_run(rel, len(rel))


cdef inline bint is_vowel(int c) noexcept nogil:
    c = lower(c)
    return c == 97 or c == 101 or c == 105 or c == 111 or c == 117


cdef bint scrambled_c(const char* s, Py_ssize_t n) noexcept nogil:
    """A random run of letters and digits (a scrambled upload's per-article
    name): mixed case, and digits, or the case switching more than a
    CamelCase name does, or a third of it capitals, or too few vowels, or
    five consonants in a row."""
    cdef Py_ssize_t q
    cdef int c, kind, last = 0, switches = 0, uppers = 0, lowers = 0, digits = 0, vowels = 0, run = 0, maxrun = 0
    cdef bint all_hex = True
    if n < 12:
        return False
    for q in range(n):
        c = s[q]
        if 65 <= c <= 90:
            kind = 1
            uppers += 1
        elif 97 <= c <= 122:
            kind = 2
            lowers += 1
        elif 48 <= c <= 57:
            kind = 3
            digits += 1
        else:
            return False
        if not ishex(c):
            all_hex = False
        if last and kind != last:
            switches += 1
        last = kind
        if kind != 3 and not is_vowel(c) and lower(c) != 121:
            run += 1
            if run > maxrun:
                maxrun = run
        else:
            run = 0
            if kind != 3:
                vowels += 1
    if (all_hex and n >= 16) or not (uppers and lowers):
        return False
    if digits or switches * 3 > n or 10 * uppers >= 3 * n:
        return True
    return vowels * 4 < n or maxrun >= 5


def is_scrambled(bytes name):
    return scrambled_c(name, len(name))


cdef bint scrambled_article(bytes name) noexcept:
    """A one-article file's name a scrambled flood gives: a scrambled run, or
    12 or more lower-case letters with digits strewn through them (a random
    run that drew no capital: "5kser8kiei8f66")."""
    cdef Py_ssize_t n = len(name)
    return scrambled_c(name, n) or (n >= 12 and strewn_digits(name, n))


def template_of(bytes name):
    return _DIGITS.sub(b"#", name)


cdef int tool_of(const char* msgid, Py_ssize_t mn, const char* poster, Py_ssize_t pn) noexcept nogil:
    """The posting tool from its Message-ID (and poster) formats."""
    cdef Py_ssize_t at = mn
    while at > 0 and msgid[at - 1] != 64:
        at -= 1
    cdef Py_ssize_t hn = mn - at
    cdef const char* h = msgid + at
    if hn >= 9 and h[0] == 112 and h[1] == 111 and h[2] == 119 and h[3] == 101:      # powerpost...
        return 1
    if hn == 4 and h[0] == 110 and h[1] == 121 and h[2] == 117 and h[3] == 117:      # nyuu
        return 2
    if hn == 6 and h[0] == 110 and h[1] == 103 and h[2] == 80:                         # ngPost
        return 3
    if hn >= 6 and h[0] == 74 and h[1] == 66 and h[2] == 105:                          # JBinUp
        return 4
    if hn >= 11 and h[hn - 11] == 46 and h[hn - 10] == 110 and h[hn - 9] == 101 and h[hn - 1] == 114:   # .newsmangler
        return 5
    if hn == 11 and h[0] == 103 and h[1] == 111 and h[2] == 112:                       # gopoststuff
        return 6
    return 0


# -- the spool: segment lists of placed files, on disk --------------------------------

class SegmentSpool:
    """An unlinked temporary file of packed segment lists; `put` appends and
    returns (offset, length), `get` reads back. Writes are gathered in a
    buffer of a few MB (one write for many small files); compact() keeps only
    what the window still holds."""

    BUFFER = 4 << 20

    def __init__(self, directory=None):
        import tempfile

        self.fh = tempfile.TemporaryFile(dir=directory)
        self.flushed = 0          # bytes in the file
        self.buf = bytearray()    # bytes after them, not yet written
        self.live = 0

    @property
    def size(self):
        return self.flushed + len(self.buf)

    def put(self, data):
        off = self.flushed + len(self.buf)
        self.buf += data
        self.live += len(data)
        if len(self.buf) >= self.BUFFER:
            self.flush()
        return off, len(data)

    def flush(self):
        import os

        if self.buf:
            os.pwrite(self.fh.fileno(), self.buf, self.flushed)
            self.flushed += len(self.buf)
            self.buf = bytearray()

    def get(self, long long off, long long length):
        import os

        if off >= self.flushed:
            at = off - self.flushed
            return bytes(self.buf[at:at + length])
        return os.pread(self.fh.fileno(), length, off)

    def drop(self, long long length):
        self.live -= length

    def content(self):
        import os

        self.flush()
        return os.pread(self.fh.fileno(), self.flushed, 0) if self.flushed else b""

    def load(self, bytes data):
        import os

        self.fh.truncate(0)
        self.buf = bytearray()
        if data:
            os.pwrite(self.fh.fileno(), data, 0)
        self.flushed = self.live = len(data)


# -- the window's records ------------------------------------------------------------

@cython.no_gc
cdef class FileAgg:
    """One file's articles so far. Holds no containers, so it can take part
    in no reference cycle: the cyclic GC need not track the millions of them."""
    cdef public bytes name, poster, rel, xref
    cdef public long long N, i, P, first_article, last_article, first_date, last_date
    cdef public long long nbytes, max_article, nsegs, distinct, dupes
    cdef public int tool
    cdef public bytearray segs       # per segment: part u32, bytes u32, msgid length u8, msgid
    cdef public object seen          # a bit per part: an int mask up to 64 parts, else a bytearray
    cdef public unsigned long long ident   # the release identity's hash
    cdef public long long spool_off, spool_len   # segments on the spool (spool_off -1: in memory)

    def __cinit__(self):
        self.segs = bytearray()
        self.first_date = NO_DATE
        self.last_date = NO_DATE
        self.spool_off = -1

    def __reduce__(self):
        return (_file_from_state, ((self.name, self.poster, self.rel, self.xref, self.N, self.i, self.P,
                                    self.first_article, self.last_article, self.first_date, self.last_date,
                                    self.nbytes, self.max_article, self.nsegs, self.distinct, self.dupes,
                                    self.tool, self.segs, self.seen, self.ident, self.spool_off,
                                    self.spool_len),))

    cdef void add(self, long long number, long long part, const char* msgid, Py_ssize_t mn, long long nbytes,
                  long long date):
        cdef Py_ssize_t byte_at = (part - 1) >> 3 if part >= 1 else 0
        cdef unsigned char bit = 1 << ((part - 1) & 7) if part >= 1 else 1
        cdef unsigned char* bits
        cdef unsigned long long mask
        if part < 1 or part > self.P or mn > 255:
            self.dupes += 1
            return
        if self.P <= 64:
            mask = <unsigned long long>self.seen
            if mask & (1ULL << (part - 1)):
                self.dupes += 1       # the same part again: the first one stays
                return
            self.seen = mask | (1ULL << (part - 1))
        else:
            bits = <unsigned char*>PyByteArray_AS_STRING(self.seen)
            if bits[byte_at] & bit:
                self.dupes += 1
                return
            bits[byte_at] |= bit
        self.distinct += 1
        cdef Py_ssize_t old = PyByteArray_GET_SIZE(self.segs)
        PyByteArray_Resize(self.segs, old + 9 + mn)      # bytearray over-allocates: amortised
        cdef unsigned char* hdr = <unsigned char*>PyByteArray_AS_STRING(self.segs) + old
        hdr[0] = part & 0xff; hdr[1] = (part >> 8) & 0xff; hdr[2] = (part >> 16) & 0xff; hdr[3] = (part >> 24) & 0xff
        hdr[4] = nbytes & 0xff; hdr[5] = (nbytes >> 8) & 0xff; hdr[6] = (nbytes >> 16) & 0xff; hdr[7] = (nbytes >> 24) & 0xff
        hdr[8] = <unsigned char>mn
        memcpy(hdr + 9, msgid, mn)
        self.nsegs += 1
        self.nbytes += nbytes
        if nbytes > self.max_article:
            self.max_article = nbytes
        if number < self.first_article:
            self.first_article = number
        if number > self.last_article:
            self.last_article = number
        if date != NO_DATE:
            if self.first_date == NO_DATE or date < self.first_date:
                self.first_date = date
            if self.last_date == NO_DATE or date > self.last_date:
                self.last_date = date

    cpdef bytes packed(self, spool):
        """The packed segments, from memory or the spool."""
        if self.spool_off >= 0:
            return spool.get(self.spool_off, self.spool_len)
        return bytes(self.segs)

    cdef void spill(self, spool):
        """Segments to the spool: a placed file gets no more parts, and its
        release may wait a day for the window to close on it."""
        if self.spool_off < 0 and PyByteArray_GET_SIZE(self.segs):
            self.spool_off, self.spool_len = spool.put(self.segs)
            self.segs = bytearray()

    def segments(self, spool=None):
        """[(part, msgid, bytes)] in part order."""
        return segments_of(self.packed(spool))

    cdef first_segment(self, bint last, spool):
        """The message-id of the lowest (or highest) part, without decoding the rest."""
        cdef bytes data = self.packed(spool)
        cdef const unsigned char* p = <const unsigned char*>data
        cdef Py_ssize_t at = 0, n = len(data), mn, best_at = -1
        cdef long long part, best = -1
        while at + 9 <= n:
            part = p[at] | (p[at + 1] << 8) | (p[at + 2] << 16) | (<long long>p[at + 3] << 24)
            mn = p[at + 8]
            if best_at < 0 or (part > best if last else part < best):
                best, best_at = part, at
            at += 9 + mn
        if best_at < 0:
            return None, 0
        return PyBytes_FromStringAndSize(<const char*>p + best_at + 9, p[best_at + 8]), best


def _file_from_state(state):
    f = FileAgg()
    (f.name, f.poster, f.rel, f.xref, f.N, f.i, f.P, f.first_article, f.last_article, f.first_date, f.last_date,
     f.nbytes, f.max_article, f.nsegs, f.distinct, f.dupes, f.tool, f.segs, f.seen, f.ident, f.spool_off,
     f.spool_len) = state
    return f


cdef class Release:
    """An upload in the making: files of one identity within the upload gap.
    Its key is the identity, the group and the first article of the file that
    opened it, made when it is written (the same bytes whenever that is)."""
    cdef public unsigned long long ident
    cdef public long long key_article, first_date, last_date, first_article, last_article, N
    cdef public list files
    cdef public bytes poster, rel
    cdef public int tool
    cdef public bint written            # written provisionally at a lease end

    def __cinit__(self):
        self.files = []

    def __init__(self, unsigned long long ident, long long key_article, FileAgg first):
        self.ident = ident
        self.key_article = key_article
        self.first_date = first.first_date
        self.last_date = first.last_date
        self.first_article = first.first_article
        self.last_article = first.last_article
        self.poster = first.poster
        self.rel = first.rel
        self.N = first.N
        self.tool = first.tool

    def __reduce__(self):
        return (_release_from_state, ((self.ident, self.key_article, self.first_date, self.last_date,
                                       self.first_article, self.last_article, self.N, self.files, self.poster,
                                       self.rel, self.tool, self.written),))

    cpdef join(self, FileAgg f):
        self.files.append(f)
        if f.first_date != NO_DATE and (self.first_date == NO_DATE or f.first_date < self.first_date):
            self.first_date = f.first_date
        if f.last_date != NO_DATE and (self.last_date == NO_DATE or f.last_date > self.last_date):
            self.last_date = f.last_date
        if f.first_article < self.first_article:
            self.first_article = f.first_article
        if f.last_article > self.last_article:
            self.last_article = f.last_article

    def groups(self, bytes own):
        """The groups the release was posted to (its files' Xref), or its own;
        at most MAX_XREF bytes of names (its own and the first by name), as
        one file's Xref keeps."""
        out = None
        for f in self.files:
            if (<FileAgg>f).xref:             # files of one group keep no Xref
                if out is None:
                    out = set()
                out.update(_xref_groups((<FileAgg>f).xref))
        if out and sum(len(g) + 1 for g in out) > MAX_XREF_C:
            kept, room = {own}, MAX_XREF_C - len(own) - 1
            for g in sorted(out):
                if g != own and len(g) + 1 <= room:
                    kept.add(g)
                    room -= len(g) + 1
            out = kept
        return out or (own,)

    def copy(self):
        cdef Release c = Release.__new__(Release)
        (c.ident, c.key_article, c.first_date, c.last_date, c.first_article, c.last_article, c.N,
         c.poster, c.rel, c.tool) = (self.ident, self.key_article, self.first_date, self.last_date,
                                     self.first_article, self.last_article, self.N, self.poster, self.rel,
                                     self.tool)
        c.files = list(self.files)
        return c


def _release_from_state(state):
    cdef Release r = Release.__new__(Release)
    (r.ident, r.key_article, r.first_date, r.last_date, r.first_article, r.last_article, r.N, r.files,
     r.poster, r.rel, r.tool, r.written) = state
    return r


cdef bytes release_key(bytes identity, bytes group, long long article):
    return hashlib.sha1(identity + b"\x00" + group + b"\x00" + str(article).encode()).digest()


def _xref_groups(bytes xref):
    return [t.rsplit(b":", 1)[0] for t in xref.split()] if xref else []


# -- the window ------------------------------------------------------------------

cdef int cmp_ll(const void* a, const void* b) noexcept nogil:
    cdef long long x = (<const long long*>a)[0], y = (<const long long*>b)[0]
    return (x > y) - (x < y)


cdef class Window:
    """A group's carried window. feed() inflated chunks in article order,
    take_batch() after each, finish_lease() at a lease's end."""
    cdef public bytes group
    cdef public int priority
    cdef public dict priorities       # indexed group name (bytes) -> priority number
    cdef public dict rules
    cdef public object files          # OrderedDict: file hash -> FileAgg, by last activity
    cdef public object releases       # OrderedDict: id -> Release, by last activity
    cdef public dict open_by_ident    # identity hash -> [release ids]
    cdef public dict albums           # (poster, template) -> album dict
    cdef public dict batch_counters   # (poster, N) -> [ticks of release starts]
    cdef public set batch_marked
    cdef public long long next_tick, tick, next_article, first_article, release_seq
    cdef long long ring[1024]
    cdef long long run[1024]
    cdef public int ring_n, ring_pos, run_n
    cdef public long long frontier
    cdef public dict counts           # (rule, key) -> [articles, files, releases]
    cdef public list out_releases, out_pending, out_samples, out_retracted
    cdef public long long lines, malformed_lines
    cdef public list completed        # keys of files that got their last part since the last tick
    cdef public dict written_keys     # ident -> [(article, key)]: loose files written provisionally before their release opened
    cdef public object spool          # SegmentSpool, or None: segment lists stay in memory
    cdef public object keep           # None, or the only release keys written (keep_only)
    cdef public long long n_obfuscated, n_counterless   # the commonest skips, counted in C
    cdef public dict crossposts       # owner group (bytes) -> articles skipped for it
    cdef public dict poster_files     # poster -> [files begun, frontier at the latest]: lately seen posters
    cdef Py_ssize_t posters_limit     # poster_files is pruned when it grows past this
    cdef object last_key              # the file the previous line went to (its key, hash, record)
    cdef unsigned long long last_h
    cdef object last_file
    cdef dict interned                # posters and release names shared by files
    cdef dict enc_cache               # rule word lists as bytes
    cdef long long lo, hi             # the chunk being fed: lines outside it are skipped
    cdef char scratch[16384]          # the fields mend_line cleaned (at most a line's worth)

    def __init__(self, group, priorities=None, rules=None, spool=True, spool_dir=None):
        self.group = group.encode() if isinstance(group, str) else group
        pr = {(k.encode() if isinstance(k, str) else k): int(v) for k, v in (priorities or {}).items()}
        self.priorities = pr
        self.priority = pr.get(self.group, 0)
        self.rules = dict(DEFAULT_RULES, **(rules or {}))
        self.files = OrderedDict()
        self.releases = OrderedDict()
        self.open_by_ident = {}
        self.albums = {}
        self.batch_counters = {}
        self.batch_marked = set()
        self.next_tick = -1
        self.tick = 0
        self.next_article = -1
        self.first_article = -1
        self.release_seq = 0
        self.ring_n = self.ring_pos = self.run_n = 0
        self.frontier = NO_DATE
        self.counts = {}
        self.out_releases = []
        self.out_pending = []
        self.out_samples = []
        self.out_retracted = []
        self.lines = self.malformed_lines = 0
        self.completed = []
        self.written_keys = {}
        self.spool = SegmentSpool(spool_dir) if spool else None
        self.n_obfuscated = self.n_counterless = 0
        self.crossposts = {}
        self.last_key = None
        self.last_file = None
        self.last_h = 0
        self.interned = {}
        self.poster_files = {}
        self.posters_limit = 50_000
        self.enc_cache = {}
        self.lo = self.hi = -1
        self.keep = None

    def keep_only(self, keys):
        """Writes only the releases of these keys, each as a release with its
        chunk even when its files are all random-named: the namer reads a
        named pending release's span again to get its segments back."""
        self.keep = frozenset(keys)

    cdef bytes intern(self, bytes b):
        got = self.interned.get(b)
        if got is None:
            if len(self.interned) > 200_000:
                self.interned = {}            # bounded: a miss only costs memory, never a wrong result
            self.interned[b] = b
            return b
        return <bytes>got

    # -- counting ------------------------------------------------------------------
    cdef void count(self, str rule, key, long long articles, long long files, long long releases):
        c = self.counts.get((rule, key))
        if c is None:
            self.counts[(rule, key)] = [articles, files, releases]
        else:
            c[0] += articles
            c[1] += files
            c[2] += releases

    # -- the frontier -----------------------------------------------------------------
    cdef void see_date(self, long long d):
        cdef long long diff
        if d == NO_DATE:
            return
        if self.frontier != NO_DATE:
            diff = d - self.frontier
            if diff > PLAUSIBLE_S or diff < -PLAUSIBLE_S:
                self.run[self.run_n] = d
                self.run_n += 1
                if self.run_n == FRONTIER_N:
                    self.jump()
                return
        self.run_n = 0
        self.ring[self.ring_pos] = d
        self.ring_pos = (self.ring_pos + 1) % FRONTIER_N
        if self.ring_n < FRONTIER_N:
            self.ring_n += 1
            if self.ring_n == ESTABLISHED_N:
                self.update_frontier()      # established: from now on dates are judged against it

    cdef void jump(self):
        """1,024 implausible dates in a row that agree: the group paused, move the frontier."""
        cdef long long tmp[1024]
        memcpy(tmp, self.run, sizeof(long long) * FRONTIER_N)
        qsort(tmp, FRONTIER_N, sizeof(long long), cmp_ll)
        cdef long long med = tmp[FRONTIER_N // 2]
        cdef int agree = 0
        for q in range(FRONTIER_N):
            if tmp[q] - med <= PLAUSIBLE_S and med - tmp[q] <= PLAUSIBLE_S:
                agree += 1
        self.run_n = 0
        if agree * 10 >= FRONTIER_N * 9:
            memcpy(self.ring, tmp, sizeof(long long) * FRONTIER_N)
            self.ring_n = FRONTIER_N
            self.ring_pos = 0
            self.frontier = med

    cdef void update_frontier(self):
        cdef long long tmp[1024]
        if self.ring_n < ESTABLISHED_N:
            return
        memcpy(tmp, self.ring, sizeof(long long) * self.ring_n)
        qsort(tmp, self.ring_n, sizeof(long long), cmp_ll)
        self.frontier = tmp[self.ring_n // 2]

    # -- lines -----------------------------------------------------------------------
    def feed(self, text, long long chunk_last=-1, long long chunk_first=-1):
        """Every line of an inflated chunk (bytes or bytearray), in stored order.
        chunk_first..chunk_last: the articles that were asked for (-1: open); a
        line numbered outside them is a server's fault, counted and skipped
        (it would move the ticks past every line to come). The resume point
        becomes chunk_last + 1."""
        cdef const unsigned char[::1] view = text
        cdef Py_ssize_t n = view.shape[0], i = 0, j, e
        cdef const char* p
        cdef Line ln
        cdef int r
        self.lo = chunk_first
        self.hi = chunk_last
        if n:
            p = <const char*>&view[0]
            while i < n:
                j = next_line(p, i, n, &e)
                if e > i:
                    r = parse_fields(p + i, e - i, &ln)
                    self.lines += 1
                    if r == OK and ((chunk_first >= 0 and ln.number < chunk_first)
                                    or (chunk_last >= 0 and ln.number > chunk_last)):
                        r = M_OUTSIDE
                    if r != OK:
                        self.skip(r)
                    else:
                        self.line(&ln)
                elif j < n:
                    self.lines += 1           # an empty line in a reply
                    self.skip(M_EMPTY)
                i = j + 1
        if chunk_last >= 0:
            self.next_article = chunk_last + 1

    cdef void skip(self, int reason):
        self.malformed_lines += 1
        self.count("malformed", MALFORMED[reason], 1, 0, 0)

    cdef void mended(self, int bits):
        cdef int q
        for q in range(len(MENDED)):
            if bits & (1 << q):
                self.count("mended", MENDED[q], 1, 0, 0)

    cdef void line(self, Line* ln):
        cdef Subj s
        cdef const char* sub = ln.subject
        cdef unsigned long long h, ident
        cdef FileAgg f
        cdef Py_ssize_t t
        cdef long long d, ticks, q
        cdef int r, mended = 0
        cdef bint ok, cross
        if self.first_article < 0:
            self.first_article = ln.number
        if self.next_tick < 0:
            self.next_tick = (ln.number // TICK_ARTICLES + 1) * TICK_ARTICLES
        if ln.number >= self.next_tick:
            ticks = (ln.number - self.next_tick) // TICK_ARTICLES + 1
            for q in range(ticks if ticks < QUIET_TICKS else QUIET_TICKS):
                self.next_tick += TICK_ARTICLES
                self.on_tick(self.next_tick - TICK_ARTICLES)
            if ticks > QUIET_TICKS:               # the rest would only count themselves
                self.tick += ticks - QUIET_TICKS
                self.next_tick += (ticks - QUIET_TICKS) * TICK_ARTICLES
        # the owner rule: of the indexed groups in Xref, the lowest number owns a crosspost
        # (all of the Xref, however long: every group's window must decide alike)
        cross = ln.xref_len and memchr(ln.xref, 32, ln.xref_len) != NULL
        if cross:
            owner = self.owner_of(ln.xref[:ln.xref_len])
            if owner is not None:
                self.crossposts[owner] = self.crossposts.get(owner, 0) + 1
                return
        # mend_line cleans what is kept; a counterless line keeps nothing, unless a
        # control byte hid its counter
        ok = parse_subject(sub, ln.subject_len, &s)
        if (ok or has_below(sub, ln.subject_len, 32)) and needs_mending(ln, cross):
            r = mend_line(ln, self.scratch, &mended)
            if r != OK:
                self.skip(r)
                return
            if ln.subject != sub:               # cleaned: read again
                sub = ln.subject
                ok = parse_subject(sub, ln.subject_len, &s)
        if not ok:
            if mended:
                self.mended(mended)
            self.count_counterless(sub, ln.subject_len)
            return
        if s.name_len > MAX_NAME_C or s.rel_len > MAX_NAME_C:
            s.name_len = utf8_cut(sub + s.name_off, s.name_len, MAX_NAME_C)
            s.rel_len = utf8_cut(sub + s.rel_off, s.rel_len, MAX_NAME_C)
            mended |= C_LONG_SUBJECT
        if mended:
            self.mended(mended)
        ln.date = parse_date(ln.date_p, ln.date_len)   # only lines that make files need their Date
        self.see_date(ln.date)
        # the file: poster, the subject's release name, the counter total, the file name
        h = fnv(14695981039346656037ULL, ln.poster, ln.poster_len)
        h = fnv_sep(h)
        h = fnv(h, sub + s.rel_off, s.rel_len)
        h = fnv_sep(h)
        h = fnv(h, <const char*>&s.N, sizeof(long long))
        h = fnv(h, sub + s.name_off, s.name_len)
        if self.last_file is not None and h == self.last_h:
            # the same file as the line before (a file's parts mostly come in a row)
            f = <FileAgg>self.last_file
            self.add_part(f, self.last_key, ln, &s)
            return
        key = <object>h
        fo = self.files.get(key)
        if fo is None:
            f = FileAgg()
            f.name = PyBytes_FromStringAndSize(sub + s.name_off, s.name_len)
            # one object per distinct poster and release name: an upload's files share them
            f.poster = self.intern(PyBytes_FromStringAndSize(ln.poster, ln.poster_len))
            f.rel = self.intern(PyBytes_FromStringAndSize(sub + s.rel_off, s.rel_len))
            # the groups matter for crossposts only (one group: this one)
            f.xref = PyBytes_FromStringAndSize(ln.xref, ln.xref_len) \
                if ln.xref_len and memchr(ln.xref, 32, ln.xref_len) != NULL else b""
            f.N = s.N
            f.i = s.i
            f.P = s.P if s.P <= 1_000_000 else 1_000_000
            f.first_article = ln.number
            f.last_article = ln.number
            f.seen = 0 if f.P <= 64 else bytearray((f.P + 7) >> 3)
            f.tool = tool_of(ln.msgid, ln.msgid_len, ln.poster, ln.poster_len)
            seen = self.poster_files.get(f.poster)
            if seen is None:
                self.poster_files[f.poster] = [1, self.frontier]
            else:
                seen[0] += 1
                seen[1] = self.frontier
            identity = identity_of(f)
            f.ident = fnv(14695981039346656037ULL, <const char*>identity, len(identity))
            self.files[key] = f
        else:
            f = <FileAgg>fo
            if key != self.last_key:        # a file's parts mostly come in a row: already last
                self.files.move_to_end(key)
        self.last_key = key
        self.last_h = h
        self.last_file = f
        self.add_part(f, key, ln, &s)

    cdef void add_part(self, FileAgg f, key, Line* ln, Subj* s):
        # a missing Date, or one the frontier finds implausible, says nothing: the
        # article was posted about when its neighbours were, so the frontier stands in
        cdef long long d = ln.date
        if self.frontier != NO_DATE and (d == NO_DATE or d - self.frontier > PLAUSIBLE_S
                                         or self.frontier - d > PLAUSIBLE_S):
            d = self.frontier
        f.add(ln.number, s.k, ln.msgid, ln.msgid_len, ln.nbytes, d)
        if f.distinct == f.P:
            self.completed.append(key)
            f.segs = bytearray(f.segs)      # no more parts: drop the growth reserve
        if ln.number >= self.next_article:
            self.next_article = ln.number + 1

    cdef owner_of(self, bytes xref):
        """The owner group's name when another indexed group owns the crosspost, else None."""
        best = None
        cdef int bp = self.priority
        for tok in xref.split():
            name = tok.rsplit(b":", 1)[0]
            pr = self.priorities.get(name)
            if pr is not None and pr < bp:
                bp = pr
                best = name
        return best

    cdef void count_counterless(self, const char* s, Py_ssize_t n):
        cdef Py_ssize_t off = 0, ln = n, q
        strip_span(s, &off, &ln, False)
        cdef bint hexes = ln >= 16
        for q in range(off, off + ln):
            if not ishex(s[q]):
                hexes = False
                break
        if hexes or (ln > 9 and s[off] == 91 and lower(s[off + 1]) == 112 and lower(s[off + 2]) == 114):
            self.n_obfuscated += 1
        else:
            self.n_counterless += 1

    # -- ticks: files into releases, releases finished ------------------------------------
    cdef void on_tick(self, long long at):
        self.tick += 1
        self.last_file = None                 # files may move now
        self.update_frontier()
        if self.frontier == NO_DATE:
            return
        cdef long long cutoff = self.frontier - WINDOW_S
        cdef FileAgg f
        # complete files, then idle ones: the files are kept by last activity, so
        # the scan stops at the first one still active
        ready = dict.fromkeys(self.completed)
        self.completed = []
        for key, fo in self.files.items():
            f = <FileAgg>fo
            if f.last_date == NO_DATE:
                if f.last_article + IDLE_ARTICLES < at:
                    ready[key] = None
                continue                    # undated: idle by article numbers, and no reason to stop
            if f.last_date < cutoff:
                ready[key] = None
            else:
                break
        for key in ready:
            fo = self.files.pop(key, None)
            if fo is not None:
                self.place(fo)
        done = []
        cdef Release rel
        for rid, ro in self.releases.items():
            rel = <Release>ro
            if rel.last_date == NO_DATE:
                if rel.last_article + IDLE_ARTICLES < at:
                    done.append(rid)
                continue
            if rel.last_date < cutoff:
                done.append(rid)
            else:
                break
        for rid in done:
            self.finish(self.releases.pop(rid), True)
        self.close_albums(False)
        self.prune_posters()
        if self.spool is not None and self.spool.size > (64 << 20) and self.spool.size > 3 * self.spool.live:
            self.compact()

    def compact(self):
        """The spool rewritten with only what open releases still hold."""
        if self.spool is None:
            return
        cdef FileAgg f
        fresh = SegmentSpool()
        old = self.spool
        for ro in self.releases.values():
            for fo in (<Release>ro).files:
                f = <FileAgg>fo
                if f.spool_off >= 0:
                    f.spool_off, f.spool_len = fresh.put(old.get(f.spool_off, f.spool_len))
        old.fh.close()
        self.spool = fresh

    def place(self, FileAgg f):
        """A complete or idle file joins the open release of its identity within
        the upload gap, unless that release already has a file of its index."""
        ids = self.open_by_ident.get(f.ident)
        if ids is not None:
            for rid in ((ids,) if type(ids) is int else ids):
                rel = self.releases.get(rid)
                if rel is None:
                    continue
                if not _near(rel.first_date, rel.last_date, f.first_date, f.last_date):
                    continue
                if f.i >= 1 and any((<FileAgg>g).i == f.i for g in rel.files):
                    continue
                rel.join(f)
                self.releases.move_to_end(rid)
                if self.spool is not None:
                    f.spill(self.spool)
                return
        rel = Release(f.ident, f.first_article, f)
        rel.join(f)
        if self.written_keys:
            # a lease end wrote these files loose, keyed by their earliest article: the release
            # opened by this file keeps that key, or the loose row goes (its key is not this one)
            for article, key in self.written_keys.pop(f.ident, ()):
                if article == f.first_article:
                    rel.written = True
                else:
                    self.out_retracted.append(key)
        self.release_seq += 1
        self.releases[self.release_seq] = rel
        if self.spool is not None:
            f.spill(self.spool)
        if ids is None:
            self.open_by_ident[f.ident] = self.release_seq      # one release: no list
        elif type(ids) is int:
            self.open_by_ident[f.ident] = [ids, self.release_seq]
        else:
            ids.append(self.release_seq)
        if f.N >= BATCH_COUNTER_TOTAL:
            starts = self.batch_counters.setdefault((f.poster, f.N), [])
            starts.append(self.tick)
            while starts and starts[0] < self.tick - BATCH_COUNTER_TICKS:
                starts.pop(0)
            if len(starts) >= BATCH_COUNTER_STARTS:
                self.batch_marked.add((f.poster, f.N))

    # -- judging and writing ------------------------------------------------------------
    def finish(self, Release rel, bint settled, bint provisional=False):
        cdef FileAgg f
        if not provisional and self.spool is not None:
            for g in rel.files:
                if (<FileAgg>g).spool_off >= 0:
                    self.spool.drop((<FileAgg>g).spool_len)
        if not provisional:
            ids = self.open_by_ident.get(rel.ident)
            if ids is not None:
                left = [r for r in ((ids,) if type(ids) is int else ids) if r in self.releases]
                if not left:
                    del self.open_by_ident[rel.ident]
                else:
                    self.open_by_ident[rel.ident] = left[0] if len(left) == 1 else left
        files = sorted(rel.files, key=_file_order) if len(rel.files) > 1 else rel.files
        infos = [name_info((<FileAgg>g).name) for g in files]
        segments = 0
        nbytes = 0
        for g in files:
            f = <FileAgg>g
            segments += f.distinct
            nbytes += f.nbytes
        tool = TOOLS[rel.tool]
        if tool == "unknown" and self._webmail(rel.poster):
            tool = "webmail"
        batch = (rel.poster, rel.N) in self.batch_marked
        # what rules drop is counted, and ~1% of it kept as a sample. A provisional
        # write is held back for what the rules would drop once settled: a stub
        # is not shown as an upload in progress (if a par2 joins it after all, it
        # is written when the window closes on it)
        identity = identity_of(<FileAgg>rel.files[0])
        key = release_key(identity, self.group, rel.key_article)
        kept = self.keep is not None
        if kept and key not in self.keep:
            return
        # a kept release was judged when it was first read (it went pending)
        rule = None if kept else self.judge(rel, files, infos, settled or provisional, tool)
        if rule is not None and provisional:
            return
        file_total = None if (batch or rel.N < 1) else rel.N
        rec = {
            "release_key": key, "identity_key": hashlib.sha1(identity).digest(),
            "group": text_of(self.group), "poster": text_of(rel.poster),
            "groups": sorted(text_of(g) for g in rel.groups(self.group)),
            "posted_at": rel.first_date if rel.first_date != NO_DATE else None,
            "last_posted_at": rel.last_date if rel.last_date != NO_DATE else None,
            "first_article": rel.first_article, "last_article": rel.last_article,
            "files": len(files), "segments": segments, "bytes": nbytes,
            "file_total": file_total, "tool": tool,
            "finished": not provisional, "edge": provisional,
            "has_par2": any(i[1] & F_PAR2 for i in infos),
            "complete": _complete(files, file_total),
        }
        if rule is not None:
            rule_name, rule_key = rule
            self.count(rule_name, rule_key, segments, len(files), 1)
            if rel.written:
                self.out_retracted.append(key)     # the provisional row must go
            if int.from_bytes(key[:2], "big") % 100 < self.rules["sample_percent"]:
                rec["name"] = text_of(rel.rel or infos[0][0])
                rec["rule"] = rule_name
                rec["rule_key"] = rule_key
                rec["file_list"] = [_file_record(g, None, self.spool) for g in files]
                self.out_samples.append(rec)
            return
        # files named by random tokens (hex runs, long runs of letters and digits) under no
        # release name are no release yet
        random_named = all(random_stem(i[0]) for i in infos)
        if named(rel.rel):
            random_named = False
            name = rel.rel
            rec["source"] = SOURCE_SUBJECT
        else:
            name = _best_stem([i[0] for i in infos])
            rec["source"] = SOURCE_STEM
        rec["name"] = text_of(name)
        rec["readable"] = not random_named and not random_stem(name)
        rec["candidates"] = _candidates(files, infos, random_named, self.spool)
        rec["file_list"] = [_file_record(g, rec["poster"] if (<FileAgg>g).poster is rel.poster else None,
                                         self.spool) for g in files]
        if random_named and not kept:
            # nothing enters the catalog without a name: no row and no chunk until
            # phase 2 names it (its segments are read again then); the probe
            # targets go with it
            del rec["file_list"]
            self.out_pending.append(rec)
            return
        if not kept and len(files) == 1 and rec["source"] == SOURCE_STEM and infos[0][1] & F_DIGIT \
                and not infos[0][1] & (F_ARCHIVE | F_VOLUME | F_SIDECAR | F_SPLIT):
            if not provisional:       # an album member waits for its album; nothing provisional
                self.album_add(rel, rec, (<FileAgg>files[0]).name)
            return
        rec["chunk"] = release_chunk(rec)     # what the catalog keeps and NZBs come from
        self.out_releases.append(rec)

    def judge(self, Release rel, files, infos, bint settled, str tool):
        cdef FileAgg f
        rules = self.rules
        if rules["dropped_posters"]:
            poster = text_of(rel.poster)
            if poster in rules["dropped_posters"]:
                return ("dropped-poster", poster)
        if rules["garbage"] and all(hex_run(i[0], len(i[0])) for i in infos):
            for sig in rules["garbage"]:
                if sig.get("tool") == tool and sig.get("group", "*") in ("*", text_of(self.group)):
                    return ("garbage", tool)
        if len(files) == 1 and (<FileAgg>files[0]).nsegs == 1 and scrambled_article((<FileAgg>files[0]).name) \
                and self.poster_alone(rel.poster):
            # a scrambled flood gives every article a poster of its own; the one-article
            # files of an upload (its par2 index, a sidecar) share their poster with its others
            return ("scrambled", tool)
        if all(i[1] & F_EXE for i in infos):
            return ("bare-executable", tool)
        if not settled or len(files) != 1:
            return None
        f = files[0]
        stem, flags = infos[0][0], infos[0][1]
        if not flags & F_ARCHIVE or flags & F_VOLUME:
            return None          # not one unsplit archive (a ROT13 .cnegN.rar is a volume)
        groups = rel.groups(self.group)
        words = self.encoded("exempt_group_words")
        if any(w in g for g in groups for w in words):
            return None
        if len(groups) >= 2 and f.nbytes < rules["stub_max_bytes"]:
            legs = ""
            if f.max_article <= rules["stub_small_article"] and f.nbytes >= rules["stub_min_bytes"]:
                legs += "A"
            if len(groups) >= 4:
                legs += "X"
            if self._webmail(rel.poster):
                legs += "W"
            if legs:
                return ("stub-archive", legs)
        if f.nsegs == 1 and 100_000 <= f.nbytes <= 1_000_000 and len(stem) >= 8 and b" " not in stem \
                and not is_scrambled(stem) and not _EBOOK.search(f.name):
            return ("nonsense-piece", tool)
        if f.nsegs == 1 and 2_000 <= f.nbytes < 100_000 and len(stem) >= 6 and not _TINY_WORDS.search(f.name):
            return ("tiny-archive", tool)
        return None

    cdef bint poster_alone(self, bytes poster):
        seen = self.poster_files.get(poster)
        return seen is None or seen[0] <= 1

    cdef void prune_posters(self):
        """Forgets posters not seen for two windows; bounded whatever the group posts."""
        cdef long long cutoff = self.frontier - 2 * WINDOW_S
        if len(self.poster_files) < self.posters_limit:
            return
        self.poster_files = {p: v for p, v in self.poster_files.items() if v[1] >= cutoff}
        if len(self.poster_files) > 400_000:
            self.poster_files = {}
        self.posters_limit = max(50_000, 2 * len(self.poster_files))   # pruned again after as much growth

    def _webmail(self, bytes poster):
        p = poster.lower()
        return any(d in p for d in self.encoded("webmail_domains"))

    cdef tuple encoded(self, str name):
        """A rule's word list as bytes, made again only when the rules change."""
        words = self.rules[name]
        got = self.enc_cache.get(name)
        if got is None or got[0] is not words:
            got = (words, tuple(w.encode() for w in words))
            self.enc_cache[name] = got
        return got[1]

    # -- albums --------------------------------------------------------------------
    def album_add(self, Release rel, rec, bytes name):
        key = (rel.poster, template_of(name))
        album = self.albums.get(key)
        start = rec["posted_at"] if rec["posted_at"] is not None else 0
        if album is not None and (start - album["start"] > WINDOW_S or len(album["members"]) >= ALBUM_MAX_FILES):
            self.emit_album(self.albums.pop(key))
            album = None
        if album is None:
            album = {"start": start, "members": [], "template": key[1]}
            self.albums[key] = album
        album["members"].append(rec)

    def close_albums(self, bint everything):
        if self.frontier == NO_DATE and not everything:
            return
        for key in list(self.albums):
            album = self.albums[key]
            if everything or self.frontier - album["start"] > 2 * WINDOW_S:
                self.emit_album(self.albums.pop(key))

    def emit_album(self, album):
        members = album["members"]
        if len(members) == 1:                 # a lone member is the release it was
            members[0]["chunk"] = release_chunk(members[0])
            self.out_releases.append(members[0])
            return
        first = min(members, key=lambda m: (m["first_article"], m["release_key"]))
        files = [fr for m in members for fr in m["file_list"]]
        rec = dict(first)
        rec.update({
            "release_key": hashlib.sha1(b"album\x00" + first["release_key"]).digest(),
            "name": text_of(album["template"]), "source": SOURCE_ALBUM, "file_total": None,
            "files": len(files), "segments": sum(m["segments"] for m in members),
            "bytes": sum(m["bytes"] for m in members),
            "posted_at": min((m["posted_at"] for m in members if m["posted_at"] is not None), default=None),
            "last_posted_at": max((m["last_posted_at"] for m in members if m["last_posted_at"] is not None),
                                  default=None),
            "first_article": min(m["first_article"] for m in members),
            "last_article": max(m["last_article"] for m in members),
            "complete": all(m["complete"] for m in members),
            "members": [m["file_list"][0]["name"] for m in members[:20]],
            "candidates": [], "file_list": files, "has_par2": False,
        })
        rec["chunk"] = release_chunk(rec)
        self.out_releases.append(rec)

    # -- batches, lease ends, snapshots ----------------------------------------------------
    cdef void fold_counters(self):
        if self.n_obfuscated:
            self.count("obfuscated-subject", "random", self.n_obfuscated, 0, 0)
        if self.n_counterless:
            self.count("counterless", "", self.n_counterless, 0, 0)
        for owner, n in self.crossposts.items():
            self.count("crosspost", text_of(owner), n, 0, 0)
        self.n_obfuscated = self.n_counterless = 0
        self.crossposts = {}

    def take_batch(self):
        """What the window wrote since the last batch, and the resume point."""
        self.fold_counters()
        batch = {"first_article": self.first_article, "next_article": self.next_article,
                 "releases": self.out_releases, "pending": self.out_pending, "samples": self.out_samples,
                 "retracted": self.out_retracted,
                 "counts": [(r, k, v[0], v[1], v[2]) for (r, k), v in sorted(self.counts.items())]}
        self.out_releases, self.out_pending, self.out_samples, self.counts = [], [], [], {}
        self.out_retracted = []
        self.first_article = -1
        return batch

    def finish_lease(self):
        """A lease's end: what the window has not closed on is written
        provisionally (finished false, edge true); the window keeps it all.
        One batch; see lease_end_batches for bounded ones."""
        out = None
        for batch in self.lease_end_batches(1 << 62):
            if out is None:
                out = batch
            else:
                out["releases"] += batch["releases"]
                out["pending"] += batch["pending"]
        return out

    def lease_end_batches(self, int max_releases=1000):
        """The lease end's provisional writes as batches of at most
        max_releases releases each (a batch is bounded in size)."""
        cdef FileAgg f
        for rid, rel in self.releases.items():
            before = len(self.out_releases) + len(self.out_pending)
            self.finish((<Release>rel).copy(), False, True)
            if len(self.out_releases) + len(self.out_pending) > before:
                (<Release>rel).written = True
            if len(self.out_releases) + len(self.out_pending) >= max_releases:
                yield self.take_batch()
        loose = {}
        for key, fo in self.files.items():
            f = <FileAgg>fo
            ids = self.open_by_ident.get(f.ident)
            if ids:
                continue            # goes with its open release's provisional copy next time
            loose.setdefault(f.ident, []).append(f)
        for ident, files in loose.items():
            files.sort(key=lambda g: g.first_article)
            f = files[0]
            rel = Release(ident, f.first_article, f)
            for g in files:
                rel.join(g)
            before = len(self.out_releases) + len(self.out_pending)
            self.finish(rel, False, True)
            if len(self.out_releases) + len(self.out_pending) > before:   # its release, once opened, was written
                written = self.written_keys.setdefault(ident, [])
                entry = (f.first_article, release_key(identity_of(f), self.group, f.first_article))
                if entry not in written:
                    written.append(entry)
            if len(self.out_releases) + len(self.out_pending) >= max_releases:
                yield self.take_batch()
        yield self.take_batch()

    def flush(self):
        """The end of the data (a replay's last range): everything open is
        finished as it stands, albums closed."""
        out = None
        for batch in self.flush_batches(0):
            out = batch
        return out

    def flush_batches(self, int max_releases=1000):
        """flush() as batches of at most max_releases releases each (0: one
        batch), so that a worker stores one while the next is made."""
        for key in list(self.files):
            self.place(self.files.pop(key))
        for rid in list(self.releases):
            self.finish(self.releases.pop(rid), True)   # nothing more will come: as good as settled
            if max_releases and len(self.out_releases) + len(self.out_pending) >= max_releases:
                yield self.take_batch()
        self.close_albums(True)
        yield self.take_batch()

    def snapshot(self):
        """The whole carried window, self-contained (the spool's live part included)."""
        self.compact()
        state = {
            "version": SNAPSHOT_VERSION, "group": self.group, "priorities": self.priorities, "rules": self.rules,
            "files": list(self.files.items()), "releases": list(self.releases.items()),
            "open_by_ident": self.open_by_ident, "albums": self.albums, "batch_counters": self.batch_counters,
            "batch_marked": self.batch_marked, "next_tick": self.next_tick, "tick": self.tick,
            "next_article": self.next_article, "release_seq": self.release_seq,
            "ring": [self.ring[q] for q in range(FRONTIER_N)], "run": [self.run[q] for q in range(FRONTIER_N)],
            "ring_n": self.ring_n, "ring_pos": self.ring_pos, "run_n": self.run_n, "frontier": self.frontier,
            "lines": self.lines, "malformed_lines": self.malformed_lines,
            "completed": self.completed, "last_key": self.last_key, "written_keys": self.written_keys,
            "poster_files": self.poster_files,
            "spool": self.spool.content() if self.spool is not None else None,
        }
        return zlib.compress(pickle.dumps(state, protocol=5), 3)

    @classmethod
    def restore(cls, data):
        state = pickle.loads(zlib.decompress(data))
        if state.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"snapshot version {state.get('version')} is not {SNAPSHOT_VERSION}")
        cdef Window w = cls(state["group"], state["priorities"], state["rules"])
        w.files = OrderedDict(state["files"])
        w.releases = OrderedDict(state["releases"])
        w.open_by_ident = state["open_by_ident"]
        w.albums = state["albums"]
        w.batch_counters = state["batch_counters"]
        w.batch_marked = state["batch_marked"]
        w.next_tick, w.tick, w.next_article = state["next_tick"], state["tick"], state["next_article"]
        w.release_seq = state["release_seq"]
        for q in range(FRONTIER_N):
            w.ring[q] = state["ring"][q]
            w.run[q] = state["run"][q]
        w.ring_n, w.ring_pos, w.run_n, w.frontier = state["ring_n"], state["ring_pos"], state["run_n"], state["frontier"]
        w.lines, w.malformed_lines = state["lines"], state["malformed_lines"]
        w.completed, w.last_key, w.written_keys = state["completed"], state["last_key"], state["written_keys"]
        w.poster_files = state.get("poster_files", {})
        if state["spool"] is not None:
            w.spool.load(state["spool"])
        return w

    @property
    def open_files(self):
        return len(self.files)

    @property
    def open_releases(self):
        return len(self.releases)


def _near(long long a0, long long a1, long long b0, long long b1):
    if a0 == NO_DATE or b0 == NO_DATE:
        return True
    return b0 <= a1 + UPLOAD_GAP_S and a0 <= b1 + UPLOAD_GAP_S


def _file_order(FileAgg f):
    return (f.i if f.i >= 0 else 1 << 40, f.name)


cdef tuple name_info(bytes name):
    cdef Facts fa
    name_facts(name, len(name), &fa)
    return (name[:fa.stem_len] if fa.stem_len else name, fa.flags, fa.volume)


def _best_stem(stems):
    """The name of a release without a subject name: its largest share of one stem."""
    counts = {}
    for s in stems:
        counts[s] = counts.get(s, 0) + 1
    return max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0] if counts else b""


def _complete(files, file_total):
    cdef FileAgg f
    for f in files:
        if f.distinct < f.P:
            return False
    if file_total:
        idx = {(<FileAgg>f).i for f in files if 1 <= (<FileAgg>f).i <= file_total}
        return len(idx) >= file_total
    return True


def _file_record(FileAgg f, str poster=None, spool=None):
    """A file as the batch carries it; its segments packed (decode with segments_of)."""
    return {"name": text_of(f.name), "raw_name": f.name, "poster": poster if poster is not None else text_of(f.poster),
            "posted_at": f.first_date if f.first_date != NO_DATE else None,
            "parts": f.P, "bytes": f.nbytes,
            "groups": [text_of(g) for g in _xref_groups(f.xref)] if f.xref else [],
            "segs": f.packed(spool)}


from ext import codec as _codec


def release_chunk(rec):
    """A release record's files as one chunk (ext.codec): what the catalog
    keeps and NZBs are built from."""
    return _codec.encode_packed([(f["raw_name"], f["bytes"], f["segs"]) for f in rec["file_list"]])


def segments_of(bytes packed):
    """[(part, msgid, bytes)] in part order from a file record's packed segments."""
    out = []
    cdef const unsigned char* p = packed
    cdef Py_ssize_t at = 0, n = len(packed), mn
    cdef long long part, nbytes
    while at + 9 <= n:
        part = p[at] | (p[at + 1] << 8) | (p[at + 2] << 16) | (<long long>p[at + 3] << 24)
        nbytes = p[at + 4] | (p[at + 5] << 8) | (p[at + 6] << 16) | (<long long>p[at + 7] << 24)
        mn = p[at + 8]
        out.append((part, packed[at + 9:at + 9 + mn], nbytes))
        at += 9 + mn
    out.sort()
    return out


# the containers a film, an episode or music comes in: what the media target sniffs
_MEDIA_EXTS = (b".mkv", b".mp4", b".m4v", b".avi", b".mov", b".wmv", b".mpg", b".mpeg", b".ts", b".m2ts",
               b".webm", b".flv", b".mp3", b".flac", b".m4a", b".ogg", b".wav", b".iso")


def _candidates(files, infos, bint random_named, spool=None):
    """The articles phase 2 reads: the first archive volume's first article, the
    smallest par2's, a lone random-named file's, a 7z set's last volume's tail
    (an unsplit .7z's last article, when it is not its first: the listing is at
    the end), the smallest .nfo's, and a readable release's main file's first article when
    its name says film or music (sniffed for what it really is: a program?)."""
    out = []
    cdef FileAgg f
    cdef int flags
    first = par2 = seven = nfo = main = None
    for i, g in enumerate(files):
        f = <FileAgg>g
        flags = infos[i][1]
        if first is None and flags & F_FIRST and flags & (F_ARCHIVE | F_VOLUME):
            first = i
        if flags & F_PAR2 and (par2 is None or f.nbytes < (<FileAgg>files[par2]).nbytes):
            par2 = i
        if flags & F_SEVENZ and (seven is None or infos[i][2] > infos[seven][2]):
            seven = i
        if f.name[-4:].lower() == b".nfo" and (nfo is None or f.nbytes < (<FileAgg>files[nfo]).nbytes):
            nfo = i
        if not flags & (F_PAR2 | F_SIDECAR) and (main is None or f.nbytes > (<FileAgg>files[main]).nbytes):
            main = i
    if first is not None:
        mid, part = (<FileAgg>files[first]).first_segment(False, spool)
        if part == 1:
            out.append(("archive", mid, first))
    if par2 is not None:
        mid, part = (<FileAgg>files[par2]).first_segment(False, spool)
        if mid is not None:
            out.append(("par2", mid, par2))
    if random_named and len(files) == 1 and not out:
        mid, part = (<FileAgg>files[0]).first_segment(False, spool)
        if mid is not None:
            out.append(("lone", mid, 0))
    if seven is not None:
        mid, part = (<FileAgg>files[seven]).first_segment(True, spool)
        if mid is not None and (infos[seven][1] & F_VOLUME or part > 1):
            out.append(("7z-tail", mid, seven))
    if nfo is not None:
        mid, part = (<FileAgg>files[nfo]).first_segment(False, spool)
        if part == 1:
            out.append(("nfo", mid, nfo))
    if not random_named and main is not None and (<FileAgg>files[main]).name.lower().endswith(_MEDIA_EXTS):
        mid, part = (<FileAgg>files[main]).first_segment(False, spool)
        if part == 1:
            out.append(("media", mid, main))
    return out
