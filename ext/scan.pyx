# cython: language_level=3
"""The overview-line scanner: a chunk's lines split into the nine XOVER
fields without a Python object per field.

A line is `number, Subject, From, Date, Message-ID, References, :bytes,
:lines, Xref:full` joined by TAB; fields a server adds after Xref (INN's
extraoverviewadvertised: `Newsgroups:full`, ...) are ignored. `parse_line`
fills a `Line` of pointers into the caller's buffer; what does not parse is
reported by reason and the caller counts and skips it. `mend_line` is the one
cleaner of a line that is kept: a message-id nothing could fetch by refused,
control bytes taken out of the subject, poster and Xref (into the caller's
scratch buffer), an over-long From or Xref cut, an impossible :bytes made
unknown; the caller counts what it mended by reason. Nothing here raises on
input.
"""
from libc.string cimport memchr
from cpython.bytearray cimport PyByteArray_AS_STRING
from ext.chars cimport lower, parse_digits

import zlib

MAX_LINE = MAX_LINE_C
MAX_MSGID = MAX_MSGID_C
MAX_POSTER = MAX_POSTER_C
MAX_NAME = MAX_NAME_C
MAX_XREF = MAX_XREF_C
MAX_ARTICLE_BYTES = MAX_ARTICLE_BYTES_C
MALFORMED_REASONS = ("ok", "fields", "number", "msgid", "bytes", "long", "empty", "long-msgid", "outside")
MENDED_REASONS = ("control", "long-poster", "long-subject", "long-xref", "big-bytes")


cdef inline void trim(const char** p, Py_ssize_t* n) noexcept nogil:
    while n[0] > 0 and (p[0][0] == 32 or p[0][0] == 9):
        p[0] += 1
        n[0] -= 1
    while n[0] > 0 and (p[0][n[0] - 1] == 32 or p[0][n[0] - 1] == 9):
        n[0] -= 1


# -- dates ---------------------------------------------------------------------
# RFC 5322 and the broken forms seen in overview data: a missing day name, a
# two-digit year, missing seconds, named zones, comments, extra spaces.

cdef inline long long days_from_civil(long long y, long long m, long long d) noexcept nogil:
    # Howard Hinnant's algorithm: days since 1970-01-01 of a proleptic Gregorian date.
    y -= m <= 2
    cdef long long era = (y if y >= 0 else y - 399) // 400
    cdef long long yoe = y - era * 400
    cdef long long doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    cdef long long doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


cdef int month_of(const char* p) noexcept nogil:
    cdef int a = lower(p[0]), b = lower(p[1]), c = lower(p[2])
    if a == 106:   # j
        if b == 97 and c == 110: return 1   # jan
        if b == 117 and c == 110: return 6  # jun
        if b == 117 and c == 108: return 7  # jul
    elif a == 102 and b == 101 and c == 98: return 2    # feb
    elif a == 109 and b == 97:                         # ma
        if c == 114: return 3
        if c == 121: return 5
    elif a == 97:
        if b == 112 and c == 114: return 4  # apr
        if b == 117 and c == 103: return 8  # aug
    elif a == 115 and b == 101 and c == 112: return 9   # sep
    elif a == 111 and b == 99 and c == 116: return 10   # oct
    elif a == 110 and b == 111 and c == 118: return 11  # nov
    elif a == 100 and b == 101 and c == 99: return 12   # dec
    return 0


cdef int zone_minutes(const char* p, Py_ssize_t n, int* ok) noexcept nogil:
    """Offset east of UTC in minutes of +hhmm, -hhmm or a named zone."""
    cdef int sign, v
    ok[0] = 1
    if n >= 5 and (p[0] == 43 or p[0] == 45):
        v = parse_digits(p + 1, 4)
        if v < 0:
            ok[0] = 0
            return 0
        sign = 1 if p[0] == 43 else -1
        return sign * ((v // 100) * 60 + v % 100)
    if n >= 3:
        if lower(p[0]) == 101 and lower(p[2]) == 116:      # est/edt
            return -300 if lower(p[1]) == 115 else -240
        if lower(p[0]) == 99 and lower(p[2]) == 116:       # cst/cdt
            return -360 if lower(p[1]) == 115 else -300
        if lower(p[0]) == 109 and lower(p[2]) == 116:      # mst/mdt
            return -420 if lower(p[1]) == 115 else -360
        if lower(p[0]) == 112 and lower(p[2]) == 116:      # pst/pdt
            return -480 if lower(p[1]) == 115 else -420
        if lower(p[0]) == 99 and lower(p[1]) == 101 and lower(p[2]) == 116:   # cet
            return 60
    return 0   # GMT, UT, UTC, Z, unknown names, nothing: UTC


cdef long long parse_date(const char* p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i = 0, j
    cdef long long day, year, hh, mm, ss = 0
    cdef int month, ok, zone
    # skip spaces and a day name with its comma
    while i < n and p[i] == 32:
        i += 1
    j = i
    while j < n and ((65 <= p[j] <= 90) or (97 <= p[j] <= 122)):
        j += 1
    if j > i:
        i = j
        if i < n and p[i] == 44:
            i += 1
    while i < n and p[i] == 32:
        i += 1
    j = i
    while j < n and 48 <= p[j] <= 57:
        j += 1
    day = parse_digits(p + i, j - i)
    if day < 1 or day > 31:
        return NO_DATE
    i = j
    while i < n and (p[i] == 32 or p[i] == 45):
        i += 1
    if i + 3 > n:
        return NO_DATE
    month = month_of(p + i)
    if month == 0:
        return NO_DATE
    i += 3
    while i < n and ((65 <= p[i] <= 90) or (97 <= p[i] <= 122)):   # "November"
        i += 1
    while i < n and (p[i] == 32 or p[i] == 45):
        i += 1
    j = i
    while j < n and 48 <= p[j] <= 57:
        j += 1
    year = parse_digits(p + i, j - i)
    if year < 0 or (j - i != 2 and j - i != 4):
        return NO_DATE
    if j - i == 2:
        year += 2000 if year < 50 else 1900
    i = j
    while i < n and p[i] == 32:
        i += 1
    if i + 5 > n or p[i + 2] != 58:
        return NO_DATE
    hh = parse_digits(p + i, 2)
    mm = parse_digits(p + i + 3, 2)
    if hh < 0 or hh > 23 or mm < 0 or mm > 59:
        return NO_DATE
    i += 5
    if i + 3 <= n and p[i] == 58:
        ss = parse_digits(p + i + 1, 2)
        if ss < 0 or ss > 60:
            return NO_DATE
        i += 3
    while i < n and p[i] == 32:
        i += 1
    zone = zone_minutes(p + i, n - i, &ok)
    if not ok:
        return NO_DATE
    return (days_from_civil(year, month, day) * 86400 + hh * 3600 + mm * 60 + ss) - zone * 60


# -- lines ---------------------------------------------------------------------

cdef int parse_line(const char* p, Py_ssize_t n, Line* out) noexcept nogil:
    """The fields, and the Date parsed."""
    cdef int r = parse_fields(p, n, out)
    if r == OK:
        out.date = parse_date(out.date_p, out.date_len)
    return r


cdef inline bint blank(const char* p, Py_ssize_t n) noexcept nogil:
    """Nothing but tabs and spaces."""
    cdef Py_ssize_t q
    for q in range(n):
        if p[q] != 9 and p[q] != 32:
            return False
    return True


cdef int parse_fields(const char* p, Py_ssize_t n, Line* out) noexcept nogil:
    """The fields, the Date left as it stands (date = NO_DATE): a caller that
    skips most lines parses dates only for the ones it keeps."""
    cdef const char* field[9]
    cdef Py_ssize_t flen[9]
    cdef const char* cur = p
    cdef const char* end = p + n
    cdef const char* tab
    cdef int k = 0
    cdef const char* x
    cdef Py_ssize_t xn
    if n > MAX_LINE_C:
        return M_LONG
    while k < 9:
        field[k] = cur
        tab = <const char*>memchr(cur, 9, end - cur)
        if tab == NULL:
            flen[k] = end - cur
            k += 1
            break
        flen[k] = tab - cur
        cur = tab + 1
        k += 1
    if k < 8:                       # Xref may be missing; the rest may not
        return M_EMPTY if blank(p, n) else M_FIELDS
    if k == 8:
        field[8] = end
        flen[8] = 0
    out.number = parse_digits(field[0], flen[0])
    if out.number < 0:
        return M_EMPTY if blank(p, n) else M_NUMBER
    x = field[4]
    xn = flen[4]
    trim(&x, &xn)
    if xn < 3 or x[0] != 60 or x[xn - 1] != 62:
        return M_MSGID
    out.msgid = x + 1
    out.msgid_len = xn - 2
    x = field[6]
    xn = flen[6]
    trim(&x, &xn)
    out.nbytes = parse_digits(x, xn)
    if out.nbytes < 0:
        return M_BYTES
    out.subject = field[1]
    out.subject_len = flen[1]
    out.poster = field[2]
    out.poster_len = flen[2]
    trim(&out.poster, &out.poster_len)
    out.date_p = field[3]
    out.date_len = flen[3]
    out.date = NO_DATE
    # Xref: skip "Xref:" and the host name
    x = field[8]
    xn = flen[8]
    trim(&x, &xn)
    if xn >= 5 and lower(x[0]) == 120 and lower(x[1]) == 114 and lower(x[2]) == 101 and lower(x[3]) == 102 \
            and x[4] == 58:
        x += 5
        xn -= 5
        trim(&x, &xn)
        while xn > 0 and x[0] != 32:
            x += 1
            xn -= 1
        trim(&x, &xn)
    out.xref = x
    out.xref_len = xn
    return OK


cdef inline bint clean_field(const char** p, Py_ssize_t* n, char** scratch) noexcept nogil:
    """A field without its control bytes (clean_into's), moved into the scratch
    when it had any (the scratch then past it); whether it had."""
    cdef Py_ssize_t k
    if not has_below(p[0], n[0], 32):
        return False
    k = clean_into(p[0], n[0], scratch[0])
    if k == n[0]:
        return False
    p[0] = scratch[0]
    n[0] = k
    scratch[0] += k
    return True


cdef int mend_line(Line* ln, char* scratch, int* mended) noexcept nogil:
    """The cleaner of a parsed line the caller keeps: OK or the reason it is no
    segment after all; what it changed as Mended bits in mended. Cleaned fields
    are written to scratch (room for the line) and the Line points there."""
    cdef int m = 0
    cdef Py_ssize_t k
    cdef const char* x
    if ln.msgid_len + 2 > MAX_MSGID_C:
        return M_LONG_MSGID
    if has_below(ln.msgid, ln.msgid_len, 33):      # a space or a control byte: no command can name it
        return M_MSGID
    if ln.nbytes > MAX_ARTICLE_BYTES_C:
        ln.nbytes = 0
        m |= C_BIG_BYTES
    if clean_field(&ln.subject, &ln.subject_len, &scratch):
        m |= C_CONTROL
    if clean_field(&ln.poster, &ln.poster_len, &scratch):
        trim(&ln.poster, &ln.poster_len)
        m |= C_CONTROL
    if ln.poster_len > MAX_POSTER_C:
        ln.poster_len = utf8_cut(ln.poster, ln.poster_len, MAX_POSTER_C)
        m |= C_LONG_POSTER
    if memchr(ln.xref, 32, ln.xref_len) == NULL:
        mended[0] = m                  # one group: the Xref is not kept
        return OK
    if ln.xref_len > MAX_XREF_C:
        k = MAX_XREF_C
        while k > 0 and ln.xref[k] != 32:        # whole group:number tokens only
            k -= 1
        ln.xref_len = k
        trim(&ln.xref, &ln.xref_len)
        m |= C_LONG_XREF
    if clean_field(&ln.xref, &ln.xref_len, &scratch):
        m |= C_CONTROL
    mended[0] = m
    return OK


def mended_reasons(int bits):
    """The reasons of Mended bits, in order."""
    return [r for q, r in enumerate(MENDED_REASONS) if bits & (1 << q)]


# -- the Python face (tests, the reference checks, tools) -----------------------

cdef bytearray _scratch = bytearray(MAX_LINE_C)


def parse(bytes line):
    """One overview line, mended as the window keeps it: (number, subject,
    poster, date or None, msgid, bytes, xref) as bytes and ints, or the
    reason it is skipped."""
    cdef Line ln
    cdef int mended = 0
    cdef int r = parse_line(line, len(line), &ln)
    if r == OK:
        r = mend_line(&ln, PyByteArray_AS_STRING(_scratch), &mended)
    if r != OK:
        return MALFORMED_REASONS[r]
    return (ln.number, ln.subject[:ln.subject_len], ln.poster[:ln.poster_len],
            None if ln.date == NO_DATE else ln.date, ln.msgid[:ln.msgid_len], ln.nbytes,
            ln.xref[:ln.xref_len])


def date(bytes value):
    """Epoch seconds of a Date header, or None."""
    cdef long long d = parse_date(value, len(value))
    return None if d == NO_DATE else d


def scan_chunk(text):
    """All lines of an inflated chunk (bytes or bytearray): (parsed tuples,
    malformed counts by reason)."""
    cdef const unsigned char[::1] view = text
    cdef Py_ssize_t n = view.shape[0]
    if n == 0:
        return [], {}
    cdef const char* p = <const char*>&view[0]
    cdef Py_ssize_t i = 0, j, e
    cdef Line ln
    cdef int r, mended = 0
    cdef char* scratch = PyByteArray_AS_STRING(_scratch)
    out = []
    bad = {}
    while i < n:
        j = next_line(p, i, n, &e)
        if e > i:
            r = parse_line(p + i, e - i, &ln)
            if r == OK:
                r = mend_line(&ln, scratch, &mended)
            if r == OK:
                out.append((ln.number, ln.subject[:ln.subject_len], ln.poster[:ln.poster_len],
                            None if ln.date == NO_DATE else ln.date, ln.msgid[:ln.msgid_len], ln.nbytes,
                            ln.xref[:ln.xref_len]))
            else:
                reason = MALFORMED_REASONS[r]
                bad[reason] = bad.get(reason, 0) + 1
        elif j < n:
            bad["empty"] = bad.get("empty", 0) + 1
        i = j + 1
    return out, bad


try:
    import deflate as _deflate
except ImportError:  # pragma: no cover - the package is a dependency
    _deflate = None

def stuffed(text):
    """Whether a line of the text (bytes or bytearray) starts with '.', as
    dot-stuffed lines do: looked for without the GIL (a 25 MB chunk's search
    held by a fetch thread would stall the window's thread that long)."""
    cdef const unsigned char[::1] view = text
    cdef Py_ssize_t n = view.shape[0]
    cdef const unsigned char* p
    cdef const unsigned char* q
    cdef const unsigned char* end
    cdef bint found = False
    if n == 0:
        return False
    p = &view[0]
    end = p + n
    with nogil:
        found = p[0] == 46
        q = p
        while not found:
            q = <const unsigned char*>memchr(q, 10, end - q)
            if q == NULL or q + 1 >= end:
                break
            q += 1
            found = q[0] == 46
    return found


# libdeflate wants the output size up front; overview text deflates by a
# steady ratio, so the last chunk's ratio (with a little room) is the guess.
_ratio = [7.0]


def inflate(bytes data, Py_ssize_t size=0):
    """A chunk's zlib stream inflated: libdeflate with the size known or
    guessed (retried larger), zlib otherwise. Raises zlib.error, naming the
    problem, when the stream is corrupt or cut short."""
    if _deflate is None:
        return zlib.decompress(data)
    guess = size or max(int(len(data) * _ratio[0] * 1.3), 65536)
    for _ in range(4):
        try:
            out = _deflate.zlib_decompress(data, guess)
            if data:
                _ratio[0] = max(1.0, len(out) / len(data))
            return out
        except _deflate.DeflateError:
            if size:
                break
            guess *= 2
    return zlib.decompress(data)   # a clear zlib.error for a corrupt or cut stream
