# Character classes and decimal numbers the ext/ modules share (ASCII; inline,
# no module to import, so the server's copy of the codec stands alone).

cdef inline int lower(int c) noexcept nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint isdigit(int c) noexcept nogil:
    return 48 <= c <= 57


cdef inline bint ishex(int c) noexcept nogil:
    c = lower(c)
    return isdigit(c) or 97 <= c <= 102


cdef inline long long parse_digits(const char* p, Py_ssize_t n) noexcept nogil:
    """A non-negative decimal, or -1 (empty, a non-digit, or too long)."""
    cdef long long v = 0
    cdef Py_ssize_t i
    if n <= 0 or n > 18:
        return -1
    for i in range(n):
        if p[i] < 48 or p[i] > 57:
            return -1
        v = v * 10 + (p[i] - 48)
    return v


cdef inline long long parse_num(const char* p, Py_ssize_t n) noexcept nogil:
    """A decimal of 1..18 digits without a leading zero (as it is written back
    the same), or -1."""
    if n > 1 and p[0] == 48:
        return -1
    return parse_digits(p, n)
