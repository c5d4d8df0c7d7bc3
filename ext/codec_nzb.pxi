# nzb(...), decode_nzb(...): the one NZB writer, XML as it decodes the chunks
# (included in ext/codec.pyx).

# -- the NZB of a chunk ------------------------------------------------------------------

cdef bint utf8_ok(const uint8_t* s, Py_ssize_t n) noexcept nogil:
    """Whether s is UTF-8 as Python's strict decoder takes it (no overlong
    forms, surrogates or code points past U+10FFFF)."""
    cdef Py_ssize_t i = 0
    cdef uint8_t c, c1
    while i < n:
        c = s[i]
        if c < 0x80:
            i += 1
        elif c < 0xC2:
            return False
        elif c < 0xE0:
            if i + 1 >= n or (s[i + 1] & 0xC0) != 0x80:
                return False
            i += 2
        elif c < 0xF0:
            if i + 2 >= n:
                return False
            c1 = s[i + 1]
            if (c1 & 0xC0) != 0x80 or (s[i + 2] & 0xC0) != 0x80:
                return False
            if (c == 0xE0 and c1 < 0xA0) or (c == 0xED and c1 >= 0xA0):
                return False
            i += 3
        elif c < 0xF5:
            if i + 3 >= n:
                return False
            c1 = s[i + 1]
            if (c1 & 0xC0) != 0x80 or (s[i + 2] & 0xC0) != 0x80 or (s[i + 3] & 0xC0) != 0x80:
                return False
            if (c == 0xF0 and c1 < 0x90) or (c == 0xF4 and c1 >= 0x90):
                return False
            i += 4
        else:
            return False
    return True


cdef Py_ssize_t put_text(uint8_t* o, const uint8_t* s, Py_ssize_t n, int attr) noexcept nogil:
    """s as text (UTF-8, else Latin-1) escaped as UTF-8 at o (room for 6 * n
    bytes), what XML 1.0 forbids (control bytes but TAB, LF and CR; U+FFFE,
    U+FFFF) replaced by U+FFFD: attr 0 as xml.sax.saxutils.escape, 1 as quoteattr within
    '...', 2 within "..." (&quot;); the length."""
    cdef Py_ssize_t i = 0, k = 0
    cdef uint8_t c
    cdef bint utf8 = True
    for i in range(n):
        if s[i] >= 0x80:
            utf8 = utf8_ok(s, n)
            break
    i = -1
    while i + 1 < n:
        i += 1
        c = s[i]
        if (c < 32 and c != 9 and c != 10 and c != 13) or (
                c == 0xEF and utf8 and i + 2 < n and s[i + 1] == 0xBF and (s[i + 2] == 0xBE or s[i + 2] == 0xBF)):
            memcpy(o + k, b"\xef\xbf\xbd", 3)     # U+FFFD for it, as the feeds write it
            k += 3
            if c == 0xEF:
                i += 2
        elif c == 38:
            memcpy(o + k, b"&amp;", 5)
            k += 5
        elif c == 60:
            memcpy(o + k, b"&lt;", 4)
            k += 4
        elif c == 62:
            memcpy(o + k, b"&gt;", 4)
            k += 4
        elif attr and c == 10:
            memcpy(o + k, b"&#10;", 5)
            k += 5
        elif attr and c == 13:
            memcpy(o + k, b"&#13;", 5)
            k += 5
        elif attr and c == 9:
            memcpy(o + k, b"&#9;", 4)
            k += 4
        elif attr == 2 and c == 34:
            memcpy(o + k, b"&quot;", 6)
            k += 6
        elif c >= 0x80 and not utf8:
            o[k] = 0xC0 | (c >> 6)
            o[k + 1] = 0x80 | (c & 0x3F)
            k += 2
        else:
            o[k] = c
            k += 1
    return k


# the segments qsort orders (one sort at a time: the GIL is held throughout)
cdef const int64_t* _s_parts
cdef const int64_t* _s_sizes
cdef const Py_ssize_t* _s_moff
cdef const Py_ssize_t* _s_mlen
cdef const uint8_t* _s_pool


cdef int seg_cmp(const void* a, const void* b) noexcept nogil:
    """Python's order of (part, message-id, bytes) tuples."""
    cdef Py_ssize_t i = (<const Py_ssize_t*>a)[0], j = (<const Py_ssize_t*>b)[0], m
    cdef int c
    if _s_parts[i] != _s_parts[j]:
        return -1 if _s_parts[i] < _s_parts[j] else 1
    m = _s_mlen[i] if _s_mlen[i] < _s_mlen[j] else _s_mlen[j]
    c = memcmp(_s_pool + _s_moff[i], _s_pool + _s_moff[j], m)
    if c:
        return c
    if _s_mlen[i] != _s_mlen[j]:
        return -1 if _s_mlen[i] < _s_mlen[j] else 1
    if _s_sizes[i] != _s_sizes[j]:
        return -1 if _s_sizes[i] < _s_sizes[j] else 1
    return 0


cdef extern from "stdlib.h":
    void qsort(void* base, size_t n, size_t size, int (*cmp)(const void*, const void*) noexcept nogil) nogil


# decode_nzb writes into a buffer kept from call to call, then copies it into
# the result: a fresh buffer of its own would be fresh pages each time (glibc
# maps big blocks anew), which costs more than the copy
cdef uint8_t* _scratch = NULL
cdef Py_ssize_t _scratch_cap = 0
cdef bint _scratch_busy = False
cdef Py_ssize_t SCRATCH_KEEP = 16 << 20


cdef int out_room(_DCtx ctx, Py_ssize_t extra) except -1:
    """Room for `extra` more bytes at ctx.op + ctx.on."""
    cdef Py_ssize_t cap
    cdef uint8_t* q
    if ctx.on + extra <= ctx.ocap:
        return 0
    cap = 2 * ctx.ocap
    if cap < ctx.on + extra:
        cap = ctx.on + extra
    q = <uint8_t*>realloc(ctx.op, cap)
    if q == NULL:
        raise MemoryError()
    ctx.op = q
    ctx.ocap = cap
    return 0


cdef Py_ssize_t nzb_bound(_DCtx ctx, Py_ssize_t fixed, Py_ssize_t per_file) except -1:
    """The most bytes decode_nzb can write for ctx's chunk (64 MiB when more:
    the output grows as it goes)."""
    cdef Py_ssize_t i, k, bound = fixed, lim = 64 << 20
    cdef const int64_t* F
    for i in range(ctx.nfiles):
        F = ctx.f64 + i * F_N
        bound += per_file + 6 * F[F_NAMELEN]
        if F[F_INST] and F[F_NSEGS]:
            bound += F[F_NSEGS] * (ctx.inst_len[F[F_INST] - 1] * (1 if ctx.inst_plain[F[F_INST] - 1] else 6))
        bound += F[F_NSEGS] * SEG_LINE_MAX
        if bound > lim:
            return lim
    for k in range(ctx.mk_total):
        bound += 6 * ctx.mexc[3 * k + 2]
        if bound > lim:
            return lim
    return bound


cdef enum:
    SEG_LINE_MAX = 19 + 20 + 10 + 20 + 2 + 11     # a segment line but its message-id


cdef int nzb_files(_DCtx ctx, bytes file_open, bytes file_groups) except -1:
    """The <file> elements of ctx's chunk at ctx.op + ctx.on, to the chunk's end."""
    cdef Py_ssize_t i, k, j, nn, m, namelen
    cdef Py_ssize_t lo = PyBytes_GET_SIZE(file_open), lg = PyBytes_GET_SIZE(file_groups)
    cdef const int64_t* parts = ctx.parts
    cdef const int64_t* sizes = ctx.sizes
    cdef const uint8_t* mid
    cdef const uint8_t* name
    cdef uint8_t* o
    cdef Py_ssize_t* order
    cdef int64_t total
    cdef bint sorted_, apos
    global _s_parts, _s_sizes, _s_moff, _s_mlen, _s_pool
    for i in range(ctx.nfiles):
        nn = d_file(ctx, i)
        sorted_ = True
        for k in range(1, nn):
            if parts[k] <= parts[k - 1]:
                sorted_ = False
                break
        order = NULL
        if not sorted_:
            if ctx.order == NULL:
                ctx.order = <Py_ssize_t*>xalloc((ctx.maxn + 1) * sizeof(Py_ssize_t))
            order = ctx.order
            for k in range(nn):
                order[k] = k
            _s_parts = parts
            _s_sizes = sizes
            _s_moff = ctx.moff
            _s_mlen = ctx.mlen
            _s_pool = ctx.pool
            qsort(order, nn, sizeof(Py_ssize_t), seg_cmp)
        total = (parts[order[nn - 1]] if order != NULL else parts[nn - 1]) if nn else 0
        # <file ... subject="&quot;name&quot; yEnc (1/total)"> or subject='"name" yEnc (1/total)'
        name = ctx.names[i]
        namelen = ctx.f64[i * F_N + F_NAMELEN]
        apos = memchr(name, 39, namelen) != NULL
        out_room(ctx, lo + lg + 6 * namelen + FILE_EXTRA)
        o = ctx.op + ctx.on
        memcpy(o, PyBytes_AS_STRING(file_open), lo)
        o += lo
        if apos:
            memcpy(o, b'"&quot;', 7)
            o += 7
        else:
            memcpy(o, b"'\"", 2)
            o += 2
        o += put_text(o, name, namelen, 2 if apos else 1)
        if apos:
            memcpy(o, b"&quot; yEnc (1/", 15)
            o += 15
        else:
            memcpy(o, b'" yEnc (1/', 10)
            o += 10
        o += fmt_u64(o, <uint64_t>total)
        if apos:
            memcpy(o, b')"', 2)
        else:
            memcpy(o, b")'", 2)
        o += 2
        memcpy(o, PyBytes_AS_STRING(file_groups), lg)
        o += lg
        ctx.on = o - ctx.op
        # '   <segment bytes="B" number="P">MID</segment>' lines
        out_room(ctx, nn * SEG_LINE_MAX + 6 * ctx.pool_used + 23)
        o = ctx.op + ctx.on
        for k in range(nn):
            j = order[k] if order != NULL else k
            memcpy(o, b'   <segment bytes="', 19)
            o += 19
            o += fmt_u64(o, <uint64_t>sizes[j])
            memcpy(o, b'" number="', 10)
            o += 10
            o += fmt_u64(o, <uint64_t>parts[j])
            o[0] = 34
            o[1] = 62
            o += 2
            mid = ctx.pool + ctx.moff[j]
            m = ctx.mlen[j]
            if ctx.mplain[j]:
                memcpy(o, mid, m)
                o += m
            else:
                o += put_text(o, mid, m, 0)
            memcpy(o, b"</segment>\n", 11)
            o += 11
        memcpy(o, b"  </segments>\n </file>\n", 23)
        o += 23
        ctx.on = o - ctx.op
    d_end(ctx)
    return 0


def decode_nzb(chunks, bytes head not None, bytes file_open not None, bytes file_groups not None):
    """The NZB of a release's chunks as UTF-8, in one pass, without decode's
    objects: the files of each chunk in turn, as stored.

    head: the document up to and with the newline after </head>; file_open:
    a <file> element's start up to `subject=`; file_groups: from the `>` after
    the subject to the newline after <segments>. Each file's subject is
    `"<name>" yEnc (1/<highest part>)` as quoteattr writes it, its segments
    in order of (part, message-id, bytes) with names and message-ids as text
    (UTF-8, else Latin-1), escaped. ValueError on a chunk decode refuses."""
    cdef _DCtx ctx = None, nxt
    cdef Py_ssize_t lh = PyBytes_GET_SIZE(head)
    cdef Py_ssize_t per_file = PyBytes_GET_SIZE(file_open) + PyBytes_GET_SIZE(file_groups) + FILE_EXTRA
    global _scratch_busy
    for data in chunks:
        nxt = _DCtx()
        d_parse(nxt, data if type(data) is bytes else bytes(data))
        if ctx is None:
            if not _scratch_busy:       # (taken only while another thread's call waits in d_parse)
                _scratch_busy = True
                nxt.scratch = True
                nxt.op = _scratch
                nxt.ocap = _scratch_cap
            out_room(nxt, nzb_bound(nxt, lh + 7, per_file))
            memcpy(nxt.op, PyBytes_AS_STRING(head), lh)
            nxt.on = lh
        else:                           # the document so far goes on in the next chunk's context
            nxt.op, nxt.ocap, nxt.on, nxt.scratch = ctx.op, ctx.ocap, ctx.on, ctx.scratch
            ctx.op, ctx.ocap, ctx.on, ctx.scratch = NULL, 0, 0, False
            out_room(nxt, nzb_bound(nxt, 7, per_file))
        ctx = nxt
        nzb_files(ctx, file_open, file_groups)
    if ctx is None:
        return head + b"</nzb>\n"
    out_room(ctx, 7)
    memcpy(ctx.op + ctx.on, b"</nzb>\n", 7)
    ctx.on += 7
    return PyBytes_FromStringAndSize(<char*>ctx.op, ctx.on)


DOCTYPE = ('<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN" '
           '"http://www.newzbin.com/DTD/nzb/nzb-1.1.dtd">')
NAMESPACE = "http://www.newzbin.com/DTD/2003/nzb"


def nzb(chunks, title, poster, posted_at, groups, category=None, password=None):
    """The NZB 1.1 of a release as UTF-8, what voyager.nzb() and the web serve:
    <meta> for the title, the category and a known password, then a <file> per
    file of its chunks with the release's poster, date and groups."""
    head = ['<?xml version="1.0" encoding="UTF-8"?>', DOCTYPE, f'<nzb xmlns="{NAMESPACE}">', " <head>",
            f'  <meta type="title">{escape(xml_text(title or ""))}</meta>']
    if category:
        head.append(f'  <meta type="category">{escape(xml_text(str(category)))}</meta>')
    if password:
        head.append(f'  <meta type="password">{escape(xml_text(password))}</meta>')
    head.append(" </head>\n")
    group_xml = "".join([f"<group>{escape(xml_text(g))}</group>" for g in (groups or [])])
    return decode_nzb(chunks, "\n".join(head).encode("utf-8"),
                      f" <file poster={quoteattr(xml_text(poster or ''))} date=\"{int(posted_at or 0)}\" subject=".encode(),
                      f">\n  <groups>{group_xml}</groups>\n  <segments>\n".encode())


# what XML 1.0 forbids in a text: control characters but TAB, LF and CR,
# U+FFFE, U+FFFF, and lone surrogates (a str decoded with surrogateescape)
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def text_of(bytes b) -> str:
    """Bytes of no declared charset (header fields, par2 file names) as text:
    UTF-8 when they are, else Latin-1 (every byte one character)."""
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return b.decode("latin-1")


def xml_text(s: str) -> str:
    """s with U+FFFD for what XML 1.0 forbids (put_text's rule for the head's texts)."""
    return NOT_XML.sub("\ufffd", s)


cdef enum:
    FILE_EXTRA = 7 + 15 + 20 + 2 + 23          # a <file>'s own bytes but its name and the caller's parts
