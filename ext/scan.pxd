# The overview-line scanner's C interface, for the window's other modules.

from libc.string cimport memchr

cdef extern from *:
    """
    #include <limits.h>
    #define VOYAGER_NO_DATE LLONG_MIN
    #define VOYAGER_MAX_LINE 16384
    """
    long long NO_DATE "VOYAGER_NO_DATE"      # the Date did not parse
    Py_ssize_t MAX_LINE_C "VOYAGER_MAX_LINE" # longer lines are skipped as malformed

# Why a line was skipped as unparseable (index into MALFORMED_REASONS).
cdef enum Malformed:
    OK = 0
    M_FIELDS = 1      # fewer than the nine fields
    M_NUMBER = 2      # the article number is not a number
    M_MSGID = 3       # no <message-id>
    M_BYTES = 4       # :bytes is not a number
    M_LONG = 5        # a line longer than MAX_LINE


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
cdef long long parse_date(const char* p, Py_ssize_t n) noexcept nogil


cdef inline Py_ssize_t next_line(const char* p, Py_ssize_t i, Py_ssize_t n, Py_ssize_t* end) noexcept nogil:
    """The line that starts at i: returns where its LF is (n when none), and
    puts in end where its text stops (before a CR)."""
    cdef const char* nl = <const char*>memchr(p + i, 10, n - i)
    cdef Py_ssize_t j = n if nl == NULL else nl - p
    end[0] = j - 1 if j > i and p[j - 1] == 13 else j
    return j
