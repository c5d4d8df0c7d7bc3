# The overview-line scanner's C interface, for the window's other modules.

from libc.string cimport memchr, memcpy
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #include <limits.h>
    #define VOYAGER_NO_DATE LLONG_MIN
    #define VOYAGER_MAX_LINE 16384
    #define VOYAGER_MAX_MSGID 250
    #define VOYAGER_MAX_POSTER 255
    #define VOYAGER_MAX_NAME 255
    #define VOYAGER_MAX_XREF 1024
    #define VOYAGER_MAX_ARTICLE_BYTES 4294967295LL
    """
    long long NO_DATE "VOYAGER_NO_DATE"      # the Date did not parse
    Py_ssize_t MAX_LINE_C "VOYAGER_MAX_LINE" # longer lines are skipped as malformed
    # RFC 3977 (3.6): a message-id is at most 250 octets with its brackets; a longer
    # one cannot be asked for, so its line is no segment
    Py_ssize_t MAX_MSGID_C "VOYAGER_MAX_MSGID"
    # a From longer than this is cut here (at a character): posters are a unique key
    Py_ssize_t MAX_POSTER_C "VOYAGER_MAX_POSTER"
    # a file or release name longer than this is cut here (at a character): the
    # longest name a file system takes, and what release_texts keeps
    Py_ssize_t MAX_NAME_C "VOYAGER_MAX_NAME"
    # an Xref longer than this keeps its groups up to here for the release (the owner
    # rule still reads all of it): a release's group set is a unique key
    Py_ssize_t MAX_XREF_C "VOYAGER_MAX_XREF"
    # a segment's :bytes past 32 bits is no article's size: kept as unknown (0)
    long long MAX_ARTICLE_BYTES_C "VOYAGER_MAX_ARTICLE_BYTES"

# Why a line was skipped (index into MALFORMED_REASONS).
cdef enum Malformed:
    OK = 0
    M_FIELDS = 1      # fewer than the nine fields
    M_NUMBER = 2      # the article number is not a number
    M_MSGID = 3       # no <message-id>, or one holding spaces or control bytes
    M_BYTES = 4       # :bytes is not a number
    M_LONG = 5        # a line longer than MAX_LINE
    M_EMPTY = 6       # nothing but tabs and spaces, or nothing at all
    M_LONG_MSGID = 7  # a message-id longer than MAX_MSGID
    M_OUTSIDE = 8     # an article number outside the chunk that was asked for (the window's bounds)

# What was mended in a line that is kept (bits; bit k is MENDED_REASONS[k]).
cdef enum Mended:
    C_CONTROL = 1        # control bytes removed from the subject, the poster or the Xref
    C_LONG_POSTER = 2    # the From cut at MAX_POSTER
    C_LONG_SUBJECT = 4   # a name the subject gives cut at MAX_NAME (the window's)
    C_LONG_XREF = 8      # the Xref's groups cut at MAX_XREF
    C_BIG_BYTES = 16     # :bytes past 32 bits, kept as 0


cdef struct Line:
    long long number
    const char* subject
    Py_ssize_t subject_len
    const char* poster
    Py_ssize_t poster_len
    long long date            # epoch seconds, NO_DATE when it did not parse (parse_line only)
    const char* date_p        # the Date field as it stands
    Py_ssize_t date_len
    const char* msgid         # without the angle brackets
    Py_ssize_t msgid_len
    long long nbytes
    const char* xref          # the Xref field after "Xref: host "
    Py_ssize_t xref_len


cdef int parse_line(const char* p, Py_ssize_t n, Line* out) noexcept nogil
cdef int parse_fields(const char* p, Py_ssize_t n, Line* out) noexcept nogil
cdef int mend_line(Line* ln, char* scratch, int* mended) noexcept nogil
cdef long long parse_date(const char* p, Py_ssize_t n) noexcept nogil


cdef inline bint has_below(const char* p, Py_ssize_t n, uint64_t limit) noexcept nogil:
    """Whether a byte of p[:n] is below limit (at most 128), eight bytes a step."""
    cdef Py_ssize_t i = 0
    cdef uint64_t w
    cdef uint64_t lo = 0x0101010101010101ULL * limit
    while i + 8 <= n:
        memcpy(&w, p + i, 8)
        if (w - lo) & ~w & 0x8080808080808080ULL:
            return True
        i += 8
    while i < n:
        if <unsigned char>p[i] < limit:
            return True
        i += 1
    return False


cdef inline bint needs_mending(Line* ln, bint stored_xref) noexcept nogil:
    """Whether mend_line would change or refuse the line (most lines: no), without
    calling it. stored_xref: the caller keeps the Xref (a crosspost's)."""
    return (ln.msgid_len + 2 > MAX_MSGID_C or ln.nbytes > MAX_ARTICLE_BYTES_C or ln.poster_len > MAX_POSTER_C
            or has_below(ln.msgid, ln.msgid_len, 33) or has_below(ln.subject, ln.subject_len, 32)
            or has_below(ln.poster, ln.poster_len, 32)
            or (stored_xref and (ln.xref_len > MAX_XREF_C or has_below(ln.xref, ln.xref_len, 32))))


cdef inline Py_ssize_t clean_into(const char* p, Py_ssize_t n, char* out) noexcept nogil:
    """p[:n] into out without the control bytes XML 1.0 and PostgreSQL text refuse
    (every C0 byte but TAB, LF and CR; NUL above all); returns the length left."""
    cdef Py_ssize_t i, k = 0
    cdef unsigned char c
    for i in range(n):
        c = <unsigned char>p[i]
        if c >= 32 or c == 9 or c == 10 or c == 13:
            out[k] = <char>c
            k += 1
    return k


cdef inline Py_ssize_t utf8_cut(const char* p, Py_ssize_t n, Py_ssize_t limit) noexcept nogil:
    """The length of p[:n] cut to at most limit bytes, not inside a UTF-8 character."""
    if n <= limit:
        return n
    cdef Py_ssize_t k = limit
    while k > 0 and (<unsigned char>p[k] & 0xC0) == 0x80:
        k -= 1
    return k if k > 0 else limit


cdef inline Py_ssize_t next_line(const char* p, Py_ssize_t i, Py_ssize_t n, Py_ssize_t* end) noexcept nogil:
    """The line that starts at i: returns where its LF is (n when none), and
    puts in end where its text stops (before a CR)."""
    cdef const char* nl = <const char*>memchr(p + i, 10, n - i)
    cdef Py_ssize_t j = n if nl == NULL else nl - p
    end[0] = j - 1 if j > i and p[j - 1] == 13 else j
    return j
