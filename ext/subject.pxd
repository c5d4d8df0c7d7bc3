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


cdef bint parse_subject(const char* s, Py_ssize_t n, Subj* o) noexcept nogil
