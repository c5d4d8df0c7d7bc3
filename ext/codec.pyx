# cython: language_level=3
"""The release chunk codec: what the window writes and every NZB is read from.

    encode(files) -> bytes
    decode(data) -> files
    nzb(chunks, title, poster, posted_at, groups, category, password) -> bytes
    decode_nzb(chunks, head, file_open, file_groups) -> bytes

The format is stated by its pure-Python oracle, tests/codec_reference.py; the
two write the same bytes (tests/ext/test_codec.py compares them). `files` is
a list of `(name: bytes, file_bytes: int, segments)`, segments a list of
`(part: int, message_id: bytes, article_bytes: int)`. decode raises
ValueError on a corrupt, truncated or unknown-version chunk. nzb is the one
NZB writer (voyager.nzb() in the server's Python, and the web's downloads):
decode_nzb writes the XML as it decodes the chunks, without decode's objects
(same ValueErrors); both read a chunk through d_parse and d_file.
"""
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.ref cimport Py_INCREF, Py_XDECREF, PyObject
from cpython.long cimport PyLong_FromLongLong, PyLong_AsLongLongAndOverflow
from cpython.memoryview cimport PyMemoryView_FromMemory
from cpython.buffer cimport PyBUF_READ
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memchr, memcpy, memcmp, memset
from libc.stdint cimport uint64_t, int64_t, uint8_t, int8_t, uint16_t, uint32_t
from ext.buf cimport Buf, buf_grow, put_byte, put_bytes, put_varint
from ext.chars cimport parse_num

import re
import threading
import zlib
from xml.sax.saxutils import escape, quoteattr

import zstandard

# one module, its jobs in files of their own: the server's PL/Python loads it
# as voyager_pl_ext.codec, and compiled modules that cimport one another find
# each other by their names under ext/, which that copy does not have
include "codec_format.pxi"
include "codec_encode.pxi"
include "codec_decode.pxi"
include "codec_nzb.pxi"
