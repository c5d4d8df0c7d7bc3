# cython: language_level=3, boundscheck=False, wraparound=False
"""The segment lines of an NZB in C: what voyager_pl.nzb.render writes per
segment, as UTF-8 bytes, for web/nzbs.render_bytes (a 5,000-segment release
in about a tenth of the time Python's f-strings take). render_bytes is the
reference of ext.codec.decode_nzb, which serves `get`, and its fallback; it
falls back to render() when this module is not built."""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

cdef struct Buf:
    char* p
    Py_ssize_t n
    Py_ssize_t cap


cdef int _grow(Buf* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap = b.cap
    cdef char* q
    while b.n + extra > cap:
        cap *= 2
    q = <char*>realloc(b.p, cap)
    if q == NULL:
        raise MemoryError()
    b.p = q
    b.cap = cap
    return 0


cdef inline int _put(Buf* b, const char* s, Py_ssize_t n) except -1:
    if b.n + n > b.cap:
        _grow(b, n)
    memcpy(b.p + b.n, s, n)
    b.n += n
    return 0


cdef inline int _put_int(Buf* b, long long v) except -1:
    cdef char tmp[24]
    cdef int i = 24
    cdef bint neg = v < 0
    cdef unsigned long long u = <unsigned long long>(-v) if neg else <unsigned long long>v
    if u == 0:
        i -= 1
        tmp[i] = 48
    while u:
        i -= 1
        tmp[i] = <char>(48 + u % 10)
        u //= 10
    if neg:
        i -= 1
        tmp[i] = 45
    return _put(b, tmp + i, 24 - i)


def segment_lines(list segments, object slow_mid) -> bytes:
    """'\\n'.join('   <segment bytes="B" number="P">MID</segment>') of (part, mid, bytes)
    tuples in the given order, UTF-8; a message-id that is not plain ASCII or
    holds markup goes through slow_mid(mid) -> str (render's decoding and escaping)."""
    cdef Buf b
    cdef Py_ssize_t k, j, m, n = len(segments)
    cdef tuple seg
    cdef bytes mid, alt
    cdef const unsigned char* s
    cdef unsigned char c
    cdef bint plain
    b.cap = 64 + n * 96
    b.n = 0
    b.p = <char*>malloc(b.cap)
    if b.p == NULL:
        raise MemoryError()
    try:
        for k in range(n):
            seg = <tuple>segments[k]
            if k:
                _put(&b, b"\n", 1)
            _put(&b, b'   <segment bytes="', 19)
            _put_int(&b, seg[2])
            _put(&b, b'" number="', 10)
            _put_int(&b, seg[0])
            _put(&b, b'">', 2)
            mid = <bytes>seg[1]
            s = <const unsigned char*>PyBytes_AS_STRING(mid)
            m = PyBytes_GET_SIZE(mid)
            plain = True                    # plain: ASCII without markup, copied whole
            for j in range(m):
                c = s[j]
                if c >= 128 or c == 38 or c == 60 or c == 62:
                    plain = False
                    break
            if plain:
                _put(&b, <const char*>s, m)
            else:
                alt = (<str>slow_mid(mid)).encode("utf-8")
                _put(&b, PyBytes_AS_STRING(alt), PyBytes_GET_SIZE(alt))
            _put(&b, b"</segment>", 10)
        return PyBytes_FromStringAndSize(b.p, b.n)
    finally:
        free(b.p)
