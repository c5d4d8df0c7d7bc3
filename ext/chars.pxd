# Character classes the window's modules share (ASCII; inline, no module to import).

cdef inline int lower(int c) noexcept nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint isdigit(int c) noexcept nogil:
    return 48 <= c <= 57


cdef inline bint ishex(int c) noexcept nogil:
    c = lower(c)
    return isdigit(c) or 97 <= c <= 102
