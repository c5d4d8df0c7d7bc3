# The subject parser's C interface, for the window.

cdef struct Subj:
    long long k          # yEnc part
    long long P          # yEnc parts
    long long i          # file counter index (-1: none)
    long long N          # file counter total (-1: none)
    Py_ssize_t name_off, name_len     # the file name
    Py_ssize_t rel_off, rel_len       # the release name the subject gives (0 length: none)


cdef inline void strip_span(const char* s, Py_ssize_t* off, Py_ssize_t* n, bint seps) noexcept nogil:
    """Trim spaces (and with seps: '-', '_', quotes, brackets at the edges)."""
    cdef int c
    while n[0] > 0:
        c = s[off[0]]
        if c == 32 or c == 9 or (seps and (c == 45 or c == 95 or c == 34 or c == 40 or c == 91 or c == 58)):
            off[0] += 1
            n[0] -= 1
        else:
            break
    while n[0] > 0:
        c = s[off[0] + n[0] - 1]
        if c == 32 or c == 9 or (seps and (c == 45 or c == 95 or c == 34 or c == 41 or c == 93 or c == 58)):
            n[0] -= 1
        else:
            break


cdef inline bint is_token(const char* s, Py_ssize_t n) noexcept nogil:
    """A random token where a name would stand: 16 or more hex digits, or 24 or
    more letters and digits with both in it (no dots, no spaces: no name)."""
    cdef Py_ssize_t q
    cdef int c
    cdef bint hexes = True, digits = False, letters = False
    if n < 16:
        return False
    for q in range(n):
        c = s[q]
        if 48 <= c <= 57:
            digits = True
        elif 97 <= c <= 102 or 65 <= c <= 70:
            letters = True
        elif 97 <= c <= 122 or 65 <= c <= 90:
            letters = True
            hexes = False
        else:
            return False
    return hexes or (n >= 24 and digits and letters)


cdef bint parse_subject(const char* s, Py_ssize_t n, Subj* o) noexcept nogil
