# Growable byte buffers the codec writes its columns and chunks into (inline,
# no module to import, so the server's copy of the codec stands alone).

from libc.stdlib cimport realloc
from libc.string cimport memcpy
from libc.stdint cimport uint64_t, uint8_t


cdef struct Buf:
    uint8_t* p
    Py_ssize_t n
    Py_ssize_t cap


cdef inline int buf_grow(Buf* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap = b.cap * 2
    if cap < b.n + extra:
        cap = b.n + extra
    if cap < 256:
        cap = 256
    cdef uint8_t* p = <uint8_t*>realloc(b.p, cap)
    if p == NULL:
        raise MemoryError()
    b.p = p
    b.cap = cap
    return 0


cdef inline int put_byte(Buf* b, uint8_t c) except -1:
    if b.n + 1 > b.cap:
        buf_grow(b, 1)
    b.p[b.n] = c
    b.n += 1
    return 0


cdef inline int put_bytes(Buf* b, const uint8_t* s, Py_ssize_t n) except -1:
    if b.n + n > b.cap:
        buf_grow(b, n)
    if n:
        memcpy(b.p + b.n, s, n)
    b.n += n
    return 0


cdef inline int put_varint(Buf* b, uint64_t v) except -1:
    if b.n + 10 > b.cap:
        buf_grow(b, 10)
    while v >= 0x80:
        b.p[b.n] = <uint8_t>((v & 0x7F) | 0x80)
        b.n += 1
        v >>= 7
    b.p[b.n] = <uint8_t>v
    b.n += 1
    return 0
