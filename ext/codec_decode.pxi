# decode(data): a chunk's files; d_parse and d_file, which the NZB writer
# reads a chunk through too (included in ext/codec.pyx).

# -- decode ------------------------------------------------------------------------------

cdef struct Reader:
    const uint8_t* p
    Py_ssize_t pos
    Py_ssize_t n


cdef int corrupt(str what) except -1:
    raise ValueError(f"release chunk: corrupt ({what})")


cdef int rd_varint(Reader* r, uint64_t* out) except -1:
    cdef uint64_t v = 0
    cdef int shift = 0
    cdef uint8_t b
    while True:
        if r.pos >= r.n:
            raise ValueError("release chunk: truncated metadata")
        b = r.p[r.pos]
        r.pos += 1
        if shift == 63 and b > 1:
            raise ValueError("release chunk: varint overflow")
        v |= <uint64_t>(b & 0x7F) << shift
        if b < 0x80:
            out[0] = v
            return 0
        shift += 7


cdef inline uint64_t rd_u(Reader* r) except? 0xFFFFFFFFFFFFFFFF:
    cdef uint64_t v
    rd_varint(r, &v)
    return v


cdef inline int rd_byte(Reader* r) except -1:
    if r.pos >= r.n:
        raise ValueError("release chunk: truncated metadata")
    r.pos += 1
    return r.p[r.pos - 1]


cdef inline const uint8_t* rd_take(Reader* r, uint64_t n) except NULL:
    if n > <uint64_t>(r.n - r.pos):
        raise ValueError("release chunk: truncated metadata")
    r.pos += n
    return r.p + r.pos - n


cdef struct BitR:
    const uint8_t* p         # zero-padded by 8 bytes
    uint64_t pos
    uint64_t end


cdef inline int br_read(BitR* r, int w, uint64_t* out) except -1:
    cdef uint64_t lo
    if w == 0:
        out[0] = 0
        return 0
    if r.pos + w > r.end:
        raise ValueError("release chunk: truncated bit stream")
    if w <= 56:
        out[0] = (vy_load64(r.p + (r.pos >> 3)) >> (r.pos & 7)) & ((<uint64_t>1 << w) - 1)
        r.pos += w
    else:
        lo = (vy_load64(r.p + (r.pos >> 3)) >> (r.pos & 7)) & <uint64_t>0xFFFFFFFF
        r.pos += 32
        out[0] = lo | (((vy_load64(r.p + (r.pos >> 3)) >> (r.pos & 7)) & ((<uint64_t>1 << (w - 32)) - 1)) << 32)
        r.pos += w - 32
    return 0


cdef struct DElem:
    int kind
    const uint8_t* lit
    Py_ssize_t len
    int cls
    int64_t a
    int64_t b
    int w
    int64_t prev
    int started


cdef inline void b62_5(uint32_t x, const uint8_t* pair, const uint8_t* alpha, uint8_t* o) noexcept nogil:
    """five base-62 characters of x < 62**5"""
    cdef uint32_t q = x // 3844
    cdef uint32_t r = x - q * 3844
    cdef uint32_t d = q // 3844
    o[0] = alpha[d]
    memcpy(o + 1, pair + 2 * (q - d * 3844), 2)
    memcpy(o + 3, pair + 2 * r, 2)


cdef inline void b36_6(uint32_t x, const uint8_t* pair, uint8_t* o) noexcept nogil:
    """six base-36 characters of x < 36**6"""
    cdef uint32_t q = x // 1296
    cdef uint32_t r = x - q * 1296
    cdef uint32_t d = q // 1296
    memcpy(o, pair + 2 * d, 2)
    memcpy(o + 2, pair + 2 * (q - d * 1296), 2)
    memcpy(o + 4, pair + 2 * r, 2)


cdef inline void dec_8(uint32_t x, const uint8_t* pair, uint8_t* o) noexcept nogil:
    """eight digits of x < 10**8"""
    cdef uint32_t hi = x // 10000
    cdef uint32_t lo = x - hi * 10000
    memcpy(o, pair + 2 * (hi // 100), 2)
    memcpy(o + 2, pair + 2 * (hi % 100), 2)
    memcpy(o + 4, pair + 2 * (lo // 100), 2)
    memcpy(o + 6, pair + 2 * (lo % 100), 2)


cdef inline void full_chunk(int cls, uint64_t v, uint8_t* o) noexcept nogil:
    """The CHUNK[cls] characters of v < FULL[cls] (read_chars' loop, in pairs
    and halves that do not wait on each other)."""
    cdef const uint8_t* pair = PAIR[cls]
    cdef uint64_t hi
    cdef int t
    if cls == C_B62:                    # 10 = 5 + 5
        hi = v // <uint64_t>916132832
        b62_5(<uint32_t>hi, pair, ALPHA[cls], o)
        b62_5(<uint32_t>(v - hi * <uint64_t>916132832), pair, ALPHA[cls], o + 5)
    elif cls == C_HEXL or cls == C_HEXU:  # 16: a pair a byte
        for t in range(8):
            memcpy(o + 2 * t, pair + 2 * ((v >> (56 - 8 * t)) & 255), 2)
    elif cls == C_DIGIT:                # 19 = 3 + 8 + 8
        hi = v // <uint64_t>10000000000000000
        o[0] = <uint8_t>(48 + hi // 100)
        memcpy(o + 1, pair + 2 * (hi % 100), 2)
        v -= hi * <uint64_t>10000000000000000
        hi = v // <uint64_t>100000000
        dec_8(<uint32_t>hi, pair, o + 3)
        dec_8(<uint32_t>(v - hi * <uint64_t>100000000), pair, o + 11)
    else:                               # base 36, 12 = 6 + 6
        hi = v // <uint64_t>2176782336
        b36_6(<uint32_t>hi, pair, o)
        b36_6(<uint32_t>(v - hi * <uint64_t>2176782336), pair, o + 6)


cdef Py_ssize_t read_chars(BitR* br, int cls, Py_ssize_t m, uint8_t* out) except -1:
    cdef int k = CHUNK[cls]
    cdef Py_ssize_t i = 0, c, t
    cdef uint64_t v
    cdef const uint8_t* alpha = ALPHA[cls]
    while i < m:
        c = m - i
        if c > k:
            c = k
        br_read(br, CHUNK_BITS[cls][c], &v)
        if c == k:
            if FULL[cls] and v >= FULL[cls]:
                corrupt("packed characters")
            full_chunk(cls, v, out + i)
            i += c
            continue
        if cls == C_B62:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v % 62]
                v //= 62
        elif cls == C_HEXL or cls == C_HEXU:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v & 15]
                v >>= 4
        elif cls == C_DIGIT:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v % 10]
                v //= 10
        else:
            for t in range(c - 1, -1, -1):
                out[i + t] = alpha[v % 36]
                v //= 36
        if v:
            corrupt("packed characters")
        i += c
    return m


cdef Py_ssize_t make_mid(DElem* el, Py_ssize_t ne, BitR* br, int64_t part, int64_t total,
                         uint8_t* out) except -1:
    cdef Py_ssize_t n = 0, i
    cdef DElem* e
    cdef uint64_t r
    cdef int64_t v
    for i in range(ne):
        e = &el[i]
        if e.kind == K_LIT:
            memcpy(out + n, e.lit, e.len)
            n += e.len
        elif e.kind == K_PART:
            n += fmt_u64(out + n, <uint64_t>part)
        elif e.kind == K_TOTAL:
            n += fmt_u64(out + n, <uint64_t>total)
        elif e.kind == K_FIXED:
            n += read_chars(br, e.cls, e.a, out + n)
        elif e.kind == K_NUM:
            br_read(br, e.w, &r)
            v = e.a + <int64_t>r
            if v >= NUM_LIMIT:
                corrupt("number")
            n += fmt_u64(out + n, <uint64_t>v)
        elif e.kind == K_NUMD:
            if e.started:
                br_read(br, e.w, &r)
                v = e.prev + e.b + <int64_t>r
                if v < 0 or v >= NUM_LIMIT:
                    corrupt("number")
            else:
                v = e.a
                e.started = 1
            e.prev = v
            n += fmt_u64(out + n, <uint64_t>v)
        else:
            br_read(br, e.w, &r)
            n += read_chars(br, e.cls, e.a + <int64_t>r, out + n)
    return n


cdef class _DCtx:
    """The C state of one decode: the chunk's metadata as d_parse read it, then
    one file's segments at a time in C arrays (d_file), for decode's objects or
    decode_nzb's XML."""
    cdef DElem* elems
    cdef Py_ssize_t* inst_at
    cdef int64_t* f64            # per file: F_N numbers
    cdef const uint8_t** names
    cdef int64_t* pexc           # (index, delta) pairs
    cdef int64_t* mexc           # (index, offset in meta, len) triples
    cdef uint8_t* packed
    cdef bytes meta_obj          # names, literals and message-id exceptions point into it
    cdef const uint8_t* meta
    cdef BitR br
    cdef Py_ssize_t nfiles, packed_len, total_segs, maxn, maxout, mk_total
    cdef Py_ssize_t pk, mk       # the next part and message-id exceptions
    # the current file's segments (d_file): part, article bytes, message-id in pool
    cdef int64_t* parts
    cdef int64_t* sizes
    cdef Py_ssize_t* moff
    cdef Py_ssize_t* mlen
    cdef uint8_t* pool
    cdef Py_ssize_t pool_cap, pool_used
    cdef Py_ssize_t* inst_len    # per template: the most bytes of a message-id it writes,
    cdef uint8_t* inst_plain     # and whether they are all MID_PLAIN (its literals are)
    cdef uint8_t* mplain         # the current file's message-ids: MID_PLAIN throughout
    cdef Py_ssize_t* order       # decode_nzb: the segments in part order when they are not
    cdef uint8_t* op             # decode_nzb: the document (the module's scratch when free)
    cdef Py_ssize_t on, ocap
    cdef bint scratch

    def __dealloc__(self):
        free(self.elems)
        free(self.inst_at)
        free(self.f64)
        free(self.names)
        free(self.pexc)
        free(self.mexc)
        free(self.packed)
        free(self.parts)
        free(self.sizes)
        free(self.moff)
        free(self.mlen)
        free(self.pool)
        free(self.order)
        free(self.inst_len)
        free(self.inst_plain)
        free(self.mplain)
        global _scratch, _scratch_cap, _scratch_busy
        if self.scratch:                # back to the module, unless a giant release grew it
            if self.ocap <= SCRATCH_KEEP:
                _scratch, _scratch_cap = self.op, self.ocap
            else:
                free(self.op)
                _scratch, _scratch_cap = NULL, 0
            _scratch_busy = False
        else:
            free(self.op)


cdef enum:
    F_NAMELEN = 0
    F_FB = 1
    F_NSEGS = 2
    F_FIRST = 3
    F_INST = 4
    F_SIZE = 5
    F_WIDTH = 6
    F_LAST = 7
    F_PEXC_N = 8
    F_MEXC_N = 9
    F_N = 10


cdef inline void* xalloc(Py_ssize_t n) except NULL:
    cdef void* p = malloc(n if n > 0 else 1)
    if p == NULL:
        raise MemoryError()
    return p


cdef int d_parse(_DCtx ctx, bytes buf) except -1:
    """The header, checksum and metadata of a chunk into ctx (ValueError when
    corrupt); the bit stream is read file by file by d_file."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(buf)
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(buf)
    cdef Reader h, r
    cdef uint64_t head, meta_len, stored, nfiles, ninst, u, nelems, total_segs = 0, maxn = 0
    cdef Py_ssize_t i, k, j, npexc = 0, nmexc = 0, maxout = 0, out_len, cnt, pk, mk
    cdef int64_t* F
    cdef int64_t prev, dz
    cdef DElem* el
    cdef bytes meta_obj
    cdef const uint8_t* meta
    cdef Py_ssize_t packed_len
    cdef int kind
    if n < 6:
        raise ValueError("release chunk: too short")
    if p[0] != VERSION:
        raise ValueError(f"release chunk: unknown version {p[0]}")
    crc = zlib.crc32(PyMemoryView_FromMemory(<char*>p, n - 4, PyBUF_READ))
    if crc != (p[n - 4] | (p[n - 3] << 8) | (p[n - 2] << 16) | (<uint64_t>p[n - 1] << 24)):
        raise ValueError("release chunk: checksum mismatch")
    h.p = p
    h.pos = 1
    h.n = n - 4
    head = rd_u(&h)
    meta_len = head >> 1
    if meta_len > <uint64_t>MAX_META:
        corrupt("metadata length")
    if head & 1:
        stored = rd_u(&h)
        rd_take(&h, stored)
        meta_obj = _decompress(buf[h.pos - stored:h.pos], meta_len)
    else:
        rd_take(&h, meta_len)
        meta_obj = buf[h.pos - meta_len:h.pos]
    ctx.meta_obj = meta_obj
    meta = <const uint8_t*>PyBytes_AS_STRING(meta_obj)
    ctx.meta = meta
    packed_len = h.n - h.pos
    ctx.packed_len = packed_len
    ctx.packed = <uint8_t*>xalloc(packed_len + 8)
    memcpy(ctx.packed, p + h.pos, packed_len)
    memset(ctx.packed + packed_len, 0, 8)
    ctx.br.p = ctx.packed
    ctx.br.pos = 0
    ctx.br.end = <uint64_t>packed_len * 8

    r.p = meta
    r.pos = 0
    r.n = PyBytes_GET_SIZE(meta_obj)
    nfiles = rd_u(&r)
    ninst = rd_u(&r)
    if nfiles > <uint64_t>MAX_COUNT or nfiles > <uint64_t>r.n or ninst > nfiles:
        corrupt("counts")
    ctx.nfiles = nfiles
    # templates
    ctx.inst_at = <Py_ssize_t*>xalloc((ninst + 1) * sizeof(Py_ssize_t))
    ctx.inst_len = <Py_ssize_t*>xalloc((ninst + 1) * sizeof(Py_ssize_t))
    ctx.inst_plain = <uint8_t*>xalloc(ninst + 1)
    cdef Py_ssize_t ecap = 16, ne = 0
    ctx.elems = <DElem*>xalloc(ecap * sizeof(DElem))
    for i in range(<Py_ssize_t>ninst):
        ctx.inst_at[i] = ne
        nelems = rd_u(&r)
        if nelems > 4 * MAX_RUNS + 2:
            corrupt("template size")
        if ne + <Py_ssize_t>nelems > ecap:
            ecap = 2 * (ne + nelems)
            el = <DElem*>realloc(ctx.elems, ecap * sizeof(DElem))
            if el == NULL:
                raise MemoryError()
            ctx.elems = el
        out_len = 0
        ctx.inst_plain[i] = 1
        for k in range(<Py_ssize_t>nelems):
            el = &ctx.elems[ne]
            ne += 1
            memset(el, 0, sizeof(DElem))
            kind = rd_byte(&r)
            el.kind = kind
            if kind == K_LIT:
                u = rd_u(&r)
                el.lit = rd_take(&r, u)
                el.len = u
                out_len += u
                for j in range(<Py_ssize_t>u):
                    if not MID_PLAIN[el.lit[j]]:
                        ctx.inst_plain[i] = 0
            elif kind == K_PART or kind == K_TOTAL:
                out_len += 20
            elif kind == K_FIXED:
                el.cls = rd_byte(&r)
                u = rd_u(&r)
                if el.cls > C_B62 or u < 1 or u > MAX_TEMPLATE_OUT:
                    corrupt("template field")
                el.a = u
                out_len += u
            elif kind == K_NUM:
                u = rd_u(&r)
                el.w = rd_byte(&r)
                if u >= <uint64_t>NUM_LIMIT or el.w > 60:
                    corrupt("template number")
                el.a = u
                out_len += 18
            elif kind == K_NUMD:
                u = rd_u(&r)
                el.b = unzz(rd_u(&r))
                el.w = rd_byte(&r)
                if u >= <uint64_t>NUM_LIMIT or el.b <= -NUM_LIMIT or el.b >= NUM_LIMIT or el.w > 61:
                    corrupt("template number")
                el.a = u
                out_len += 18
            elif kind == K_VAR:
                el.cls = rd_byte(&r)
                u = rd_u(&r)
                el.w = rd_byte(&r)
                if el.cls > C_B62 or u > MAX_TEMPLATE_OUT or el.w > 16:
                    corrupt("template field")
                el.a = u
                out_len += u + (1 << el.w) - 1
            else:
                corrupt("template kind")
            if out_len > MAX_TEMPLATE_OUT:
                corrupt("template length")
        ctx.inst_len[i] = out_len
        if out_len > maxout:
            maxout = out_len
    ctx.inst_at[ninst] = ne
    ctx.maxout = maxout

    # the file columns
    ctx.f64 = <int64_t*>calloc(nfiles * F_N + 1, sizeof(int64_t))
    ctx.names = <const uint8_t**>calloc(nfiles + 1, sizeof(uint8_t*))
    if ctx.f64 == NULL or ctx.names == NULL:
        raise MemoryError()
    F = ctx.f64
    for i in range(<Py_ssize_t>nfiles):
        F[i * F_N + F_NAMELEN] = <int64_t>rd_u(&r) if True else 0
        if F[i * F_N + F_NAMELEN] < 0:
            corrupt("name length")
    for i in range(<Py_ssize_t>nfiles):
        ctx.names[i] = rd_take(&r, <uint64_t>F[i * F_N + F_NAMELEN])
    for i in range(<Py_ssize_t>nfiles):
        u = rd_u(&r)
        if u > <uint64_t>MAX_FILE_BYTES:
            corrupt("file bytes")
        F[i * F_N + F_FB] = u
    for i in range(<Py_ssize_t>nfiles):
        u = rd_u(&r)
        if u > <uint64_t>MAX_COUNT:
            corrupt("segment count")
        total_segs += u
        if u > maxn:
            maxn = u
        F[i * F_N + F_NSEGS] = u
    if total_segs > <uint64_t>MAX_COUNT:
        corrupt("segment count")
    ctx.total_segs = total_segs
    ctx.maxn = maxn
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 1:
            F[i * F_N + F_FIRST] = <int64_t>min(rd_u(&r), <uint64_t>MAXV + 1)
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 1:
            F[i * F_N + F_INST] = <int64_t>min(rd_u(&r), ninst + 1)
    prev = 0
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] == 1:
            # relative to the file bytes (0 .. 2^63-1): the sum checked without overflow
            dz = unzz(rd_u(&r))
            if dz > MAXV or dz < -MAX_FILE_BYTES:
                corrupt("article bytes")
            if (dz >= 0 and F[i * F_N + F_FB] > MAXV - dz) or (dz < 0 and F[i * F_N + F_FB] < -dz):
                corrupt("article bytes")
            F[i * F_N + F_SIZE] = F[i * F_N + F_FB] + dz
        elif F[i * F_N + F_NSEGS] >= 2:
            dz = unzz(rd_u(&r))
            if dz > MAXV or dz < -MAXV:
                corrupt("article bytes")
            prev += dz
            if prev < 0 or prev > MAXV:
                corrupt("article bytes")
            F[i * F_N + F_SIZE] = prev
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 2:
            F[i * F_N + F_WIDTH] = rd_byte(&r)
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 2:
            dz = unzz(rd_u(&r))
            if dz > MAXV or dz < -MAXV:
                corrupt("file record")
            F[i * F_N + F_LAST] = F[i * F_N + F_SIZE] + dz
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 2:
            F[i * F_N + F_PEXC_N] = <int64_t>min(rd_u(&r), <uint64_t>MAX_COUNT + 1)
    for i in range(<Py_ssize_t>nfiles):
        if F[i * F_N + F_NSEGS] >= 1:
            F[i * F_N + F_MEXC_N] = <int64_t>min(rd_u(&r), <uint64_t>MAX_COUNT + 1)
    for i in range(<Py_ssize_t>nfiles):
        cnt = F[i * F_N + F_NSEGS]
        if cnt >= 1:
            if (F[i * F_N + F_FIRST] > MAXV or F[i * F_N + F_INST] > <int64_t>ninst
                    or F[i * F_N + F_MEXC_N] > cnt
                    or (F[i * F_N + F_INST] == 0 and F[i * F_N + F_MEXC_N] != cnt)):
                corrupt("file record")
        if cnt >= 2:
            if (F[i * F_N + F_WIDTH] > 63 or F[i * F_N + F_LAST] < 0 or F[i * F_N + F_LAST] > MAXV
                    or F[i * F_N + F_PEXC_N] >= cnt):
                corrupt("file record")
        npexc += F[i * F_N + F_PEXC_N]
        nmexc += F[i * F_N + F_MEXC_N]
    ctx.pexc = <int64_t*>xalloc((2 * npexc + 1) * sizeof(int64_t))
    ctx.mexc = <int64_t*>xalloc((3 * nmexc + 1) * sizeof(int64_t))
    ctx.mk_total = nmexc
    pk = 0
    for i in range(<Py_ssize_t>nfiles):
        prev = -1
        for k in range(F[i * F_N + F_PEXC_N]):
            u = rd_u(&r)
            dz = unzz(rd_u(&r))
            if u >= <uint64_t>F[i * F_N + F_NSEGS]:
                corrupt("part exception")
            j = prev + <Py_ssize_t>u + 1
            if j < 1 or j >= F[i * F_N + F_NSEGS] or dz < -MAXV - 1 or dz >= MAXV:
                corrupt("part exception")
            ctx.pexc[2 * pk] = j
            ctx.pexc[2 * pk + 1] = dz + 1
            pk += 1
            prev = j
    mk = 0
    for i in range(<Py_ssize_t>nfiles):
        prev = -1
        for k in range(F[i * F_N + F_MEXC_N]):
            u = rd_u(&r)
            if u >= <uint64_t>F[i * F_N + F_NSEGS]:
                corrupt("message-id exception")
            j = prev + <Py_ssize_t>u + 1
            if j >= F[i * F_N + F_NSEGS]:
                corrupt("message-id exception")
            u = rd_u(&r)
            rd_take(&r, u)
            ctx.mexc[3 * mk] = j
            ctx.mexc[3 * mk + 1] = r.pos - <Py_ssize_t>u
            ctx.mexc[3 * mk + 2] = u
            mk += 1
            prev = j
    if r.pos != r.n:
        corrupt("trailing metadata")

    # one file's segments at a time
    ctx.parts = <int64_t*>xalloc((maxn + 1) * sizeof(int64_t))
    ctx.sizes = <int64_t*>xalloc((maxn + 1) * sizeof(int64_t))
    ctx.moff = <Py_ssize_t*>xalloc((maxn + 1) * sizeof(Py_ssize_t))
    ctx.mlen = <Py_ssize_t*>xalloc((maxn + 1) * sizeof(Py_ssize_t))
    ctx.mplain = <uint8_t*>xalloc(maxn + 1)
    ctx.pool_cap = 4096
    ctx.pool = <uint8_t*>xalloc(ctx.pool_cap)
    ctx.pk = 0
    ctx.mk = 0
    return 0


cdef int pool_grow(_DCtx ctx, Py_ssize_t need) except -1:
    cdef Py_ssize_t cap = 2 * ctx.pool_cap
    if cap < need:
        cap = need
    cdef uint8_t* q = <uint8_t*>realloc(ctx.pool, cap)
    if q == NULL:
        raise MemoryError()
    ctx.pool = q
    ctx.pool_cap = cap
    return 0


cdef Py_ssize_t d_file(_DCtx ctx, Py_ssize_t i) except -1:
    """The segments of file i (files in order, each once) into ctx.parts,
    ctx.sizes and ctx.moff/mlen (message-ids in ctx.pool), in the chunk's order;
    their number."""
    cdef const int64_t* F = ctx.f64 + i * F_N
    cdef Py_ssize_t nn = F[F_NSEGS], k, j, e0, used = 0, m
    cdef Py_ssize_t pk = ctx.pk, mk = ctx.mk, need = ctx.maxout + 8
    cdef int64_t* parts = ctx.parts
    cdef int64_t* sizes = ctx.sizes
    cdef const int64_t* pexc = ctx.pexc
    cdef const int64_t* mexc = ctx.mexc
    cdef DElem* iel
    cdef Py_ssize_t ine
    cdef int64_t base, size, last
    cdef int w
    cdef uint64_t rr
    cdef uint8_t plain, tplain = 0
    ctx.pool_used = 0
    if nn == 0:
        return 0
    parts[0] = F[F_FIRST]
    e0 = pk + F[F_PEXC_N]
    for k in range(1, nn):
        if pk < e0 and pexc[2 * pk] == k:
            parts[k] = parts[k - 1] + pexc[2 * pk + 1]
            pk += 1
        else:
            parts[k] = parts[k - 1] + 1
        if parts[k] < 0 or parts[k] > MAXV:
            corrupt("part")
    ctx.pk = pk
    if F[F_INST]:
        iel = ctx.elems + ctx.inst_at[F[F_INST] - 1]
        ine = ctx.inst_at[F[F_INST]] - ctx.inst_at[F[F_INST] - 1]
        tplain = ctx.inst_plain[F[F_INST] - 1]
    else:
        iel = NULL
        ine = 0
    e0 = mk + F[F_MEXC_N]
    base = F[F_SIZE]
    last = F[F_LAST]
    w = <int>F[F_WIDTH]
    for k in range(nn):
        if mk < e0 and mexc[3 * mk] == k:
            m = mexc[3 * mk + 2]
            if used + m > ctx.pool_cap:
                pool_grow(ctx, used + m)
            memcpy(ctx.pool + used, ctx.meta + mexc[3 * mk + 1], m)
            mk += 1
            plain = 1
            for j in range(m):
                if not MID_PLAIN[ctx.pool[used + j]]:
                    plain = 0
                    break
        else:
            if used + need > ctx.pool_cap:
                pool_grow(ctx, used + need)
            m = make_mid(iel, ine, &ctx.br, parts[k], parts[nn - 1], ctx.pool + used)
            plain = tplain
        ctx.moff[k] = used
        ctx.mlen[k] = m
        ctx.mplain[k] = plain
        used += m
        if nn == 1:
            size = base
        elif k < nn - 1:
            br_read(&ctx.br, w, &rr)
            if rr > <uint64_t>MAXV or base + <int64_t>rr > MAXV:
                corrupt("article bytes")
            size = base + <int64_t>rr
        else:
            size = last
        sizes[k] = size
    ctx.mk = mk
    ctx.pool_used = used
    return nn


cdef int d_end(_DCtx ctx) except -1:
    """After the last file: the bit stream read to its end."""
    cdef uint64_t pos = ctx.br.pos
    if (pos + 7) >> 3 != <uint64_t>ctx.packed_len or (
            (pos & 7) and (ctx.packed[ctx.packed_len - 1] >> (pos & 7))):
        corrupt("trailing bits")
    return 0


def decode(data):
    """The files of a chunk made by encode, in the same shape."""
    cdef _DCtx ctx = _DCtx()
    d_parse(ctx, data if type(data) is bytes else bytes(data))
    cdef list files = PyList_New(ctx.nfiles)
    cdef list segs
    cdef object o
    cdef tuple tup
    cdef Py_ssize_t i, k, nn
    for i in range(ctx.nfiles):
        nn = d_file(ctx, i)
        segs = PyList_New(nn)
        for k in range(nn):
            tup = PyTuple_New(3)
            x = PyLong_FromLongLong(ctx.parts[k])
            Py_INCREF(x)
            PyTuple_SET_ITEM(tup, 0, x)
            o = PyBytes_FromStringAndSize(<char*>ctx.pool + ctx.moff[k], ctx.mlen[k])
            Py_INCREF(o)
            PyTuple_SET_ITEM(tup, 1, o)
            x = PyLong_FromLongLong(ctx.sizes[k])
            Py_INCREF(x)
            PyTuple_SET_ITEM(tup, 2, x)
            Py_INCREF(tup)
            PyList_SET_ITEM(segs, k, tup)
        tup = PyTuple_New(3)
        o = PyBytes_FromStringAndSize(<char*>ctx.names[i], ctx.f64[i * F_N + F_NAMELEN])
        Py_INCREF(o)
        PyTuple_SET_ITEM(tup, 0, o)
        x = PyLong_FromLongLong(ctx.f64[i * F_N + F_FB])
        Py_INCREF(x)
        PyTuple_SET_ITEM(tup, 1, x)
        Py_INCREF(segs)
        PyTuple_SET_ITEM(tup, 2, segs)
        Py_INCREF(tup)
        PyList_SET_ITEM(files, i, tup)
    d_end(ctx)
    return files
