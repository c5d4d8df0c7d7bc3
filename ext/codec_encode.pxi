# encode(files): a release's files as a chunk (included in ext/codec.pyx).

# -- the bit writer (the byte buffers are ext/buf.pxd's) -----------------------------

cdef struct BitW:
    Buf buf
    uint64_t acc
    int n


cdef inline int bw_write32(BitW* w, uint64_t v, int width) except -1:
    w.acc |= (v & ((<uint64_t>1 << width) - 1)) << w.n
    w.n += width
    if w.n >= 32:
        if w.buf.n + 4 > w.buf.cap:
            buf_grow(&w.buf, 4)
        w.buf.p[w.buf.n] = <uint8_t>w.acc
        w.buf.p[w.buf.n + 1] = <uint8_t>(w.acc >> 8)
        w.buf.p[w.buf.n + 2] = <uint8_t>(w.acc >> 16)
        w.buf.p[w.buf.n + 3] = <uint8_t>(w.acc >> 24)
        w.buf.n += 4
        w.acc >>= 32
        w.n -= 32
    return 0


cdef inline int bw_write(BitW* w, uint64_t v, int width) except -1:
    if width == 0:
        return 0
    if width > 32:
        bw_write32(w, v & <uint64_t>0xFFFFFFFF, 32)
        bw_write32(w, v >> 32, width - 32)
    else:
        bw_write32(w, v, width)
    return 0


cdef int bw_finish(BitW* w) except -1:
    while w.n > 0:
        put_byte(&w.buf, <uint8_t>w.acc)
        w.acc >>= 8
        w.n -= 8
    w.n = 0
    return 0

# -- small helpers ------------------------------------------------------------------

cdef inline Py_ssize_t find(const uint8_t* h, Py_ssize_t hn, const uint8_t* s, Py_ssize_t sn) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(hn - sn + 1):
        if memcmp(h + i, s, sn) == 0:
            return i
    return -1


cdef inline int class_flags(const uint8_t* s, Py_ssize_t n) noexcept nogil:
    """Bits: 1 lower, 2 lower above f, 4 upper, 8 upper above F."""
    cdef int f = 0
    cdef Py_ssize_t i
    cdef uint8_t ch
    for i in range(n):
        ch = s[i]
        if 97 <= ch <= 122:
            f |= 1
            if ch > 102:
                f |= 2
        elif 65 <= ch <= 90:
            f |= 4
            if ch > 70:
                f |= 8
    return f


cdef inline int class_of(int f) noexcept nogil:
    if (f & 1) and (f & 4):
        return C_B62
    if f & 2:
        return C_B36L
    if f & 1:
        return C_HEXL
    if f & 8:
        return C_B36U
    if f & 4:
        return C_HEXU
    return C_DIGIT


cdef int write_chars(BitW* bw, int cls, const uint8_t* s, Py_ssize_t n) except -1:
    cdef int k = CHUNK[cls]
    cdef uint64_t radix = RADIX[cls]
    cdef Py_ssize_t i = 0, t, c
    cdef uint64_t v
    while i < n:
        c = n - i
        if c > k:
            c = k
        v = 0
        for t in range(c):
            v = v * radix + <uint64_t>DIGIT_VAL[cls][s[i + t]]
        bw_write(bw, v, CHUNK_BITS[cls][c])
        i += c
    return 0

# -- encoder: templates ---------------------------------------------------------------

cdef struct Seg:
    const uint8_t* mid
    Py_ssize_t mlen
    int64_t part
    int64_t size


cdef struct Plan:
    int kind
    Py_ssize_t plen          # FIXED/VAR: prefix length; PART: len(A)
    Py_ssize_t slen          # FIXED/VAR: suffix length; PART: len(B)
    int cls
    int64_t m                # FIXED: m; VAR: minlen
    int w
    int64_t base             # NUM: base; NUMD: first
    int64_t dmin
    int64_t prev
    int started


cdef struct Elem:
    int kind
    Py_ssize_t off           # LIT: offset in the group's literal buffer
    Py_ssize_t len
    int cls
    int64_t a
    int64_t b
    int w


cdef struct Group:
    Py_ssize_t n             # members
    Py_ssize_t cap
    Seg** mem
    uint8_t* match
    uint16_t* ro             # per member, per run: (start, end) (ids up to MAX_TEMPLATE_ID)
    Py_ssize_t rocap
    int64_t* tmp             # numbers of a run, per matched member
    int ok                   # a template was made
    Py_ssize_t ref           # the member whose id is the reference
    int delta                # it holds a NUMD
    int ntok
    int nrun
    int first_alnum
    Py_ssize_t ts[MAX_TOK]
    Py_ssize_t te[MAX_TOK]
    Plan plans[MAX_RUNS]
    Elem elems[4 * MAX_RUNS + 8]
    int nelems
    Buf lits
    Buf raw


cdef void group_free(Group* g) noexcept:
    free(g.mem)
    free(g.match)
    free(g.ro)
    free(g.tmp)
    free(g.lits.p)
    free(g.raw.p)


cdef int group_reset(Group* g, Py_ssize_t n) except -1:
    if n > g.cap:
        free(g.mem)
        free(g.match)
        free(g.tmp)
        g.mem = <Seg**>malloc(n * sizeof(Seg*))
        g.match = <uint8_t*>malloc(n)
        g.tmp = <int64_t*>malloc(n * sizeof(int64_t))
        if g.mem == NULL or g.match == NULL or g.tmp == NULL:
            g.cap = 0
            raise MemoryError()
        g.cap = n
    g.n = n
    g.ok = 0
    g.delta = 0
    g.nelems = 0
    g.lits.n = 0
    g.raw.n = 0
    return 0


cdef inline uint16_t* RO(Group* g, Py_ssize_t k, int j) noexcept nogil:
    return g.ro + 2 * (k * g.nrun + j)


cdef int match_tokens(Group* g, const uint8_t* s, Py_ssize_t n, uint16_t* ro) noexcept nogil:
    """1 when s has the reference id's separators (its runs go to ro)."""
    cdef const uint8_t* mid0 = g.mem[g.ref].mid
    cdef Py_ssize_t i = 0, j, L
    cdef int t = 0, r = 0
    cdef uint8_t a
    if n > MAX_TEMPLATE_ID:
        return 0
    while i < n:
        a = IS_ALNUM[s[i]]
        j = i + 1
        while j < n and IS_ALNUM[s[j]] == a:
            j += 1
        if t >= g.ntok or (t == 0 and a != g.first_alnum):
            return 0
        if a:
            ro[2 * r] = <uint16_t>i
            ro[2 * r + 1] = <uint16_t>j
            r += 1
        else:
            L = g.te[t] - g.ts[t]
            if j - i != L or memcmp(s + i, mid0 + g.ts[t], L) != 0:
                return 0
        t += 1
        i = j
    return t == g.ntok


cdef inline int elem_lit(Group* g, const uint8_t* s, Py_ssize_t n) except -1:
    cdef Elem* e
    if n == 0:
        return 0
    if g.nelems and g.elems[g.nelems - 1].kind == K_LIT:
        e = &g.elems[g.nelems - 1]
        e.len += n
    else:
        e = &g.elems[g.nelems]
        g.nelems += 1
        e.kind = K_LIT
        e.off = g.lits.n
        e.len = n
    put_bytes(&g.lits, s, n)
    return 0


cdef inline Elem* elem_add(Group* g, int kind) noexcept:
    cdef Elem* e = &g.elems[g.nelems]
    g.nelems += 1
    memset(e, 0, sizeof(Elem))
    e.kind = kind
    return e


cdef int plan_run(Group* g, int j, int single, int after_at, int has_total, int64_t total) except -1:
    cdef Plan* pl = &g.plans[j]
    cdef uint16_t* r0 = RO(g, g.ref, j)
    cdef const uint8_t* v0 = g.mem[g.ref].mid + r0[0]
    cdef Py_ssize_t l0 = r0[1] - r0[0]
    cdef Py_ssize_t k, i, lb, l, p, q, minlen, lo, hi, ml, nm = 0
    cdef uint16_t* rk
    cdef const uint8_t* v
    cdef uint8_t tbuf[24]
    cdef uint8_t sbuf[24]
    cdef uint8_t pbuf[24]
    cdef int tl = 0, sl, plen_, ok, flags
    cdef int64_t x, nlo, nhi, dlo, dhi, d, prevx
    cdef int wr, wd
    memset(pl, 0, sizeof(Plan))
    if single:
        if after_at:
            pl.kind = P_LIT
            return 0
        if l0 >= 4:
            x = parse_num(<const char*>v0, l0)
            if x >= 0:
                pl.kind = P_NUM
                pl.base = x
                pl.w = 0
                return 0
        if l0 >= 12:
            pl.kind = P_FIXED
            pl.cls = class_of(class_flags(v0, l0))
            pl.m = l0
            return 0
        pl.kind = P_LIT
        return 0
    # constant
    ok = 1
    for k in range(g.n):
        if not g.match[k]:
            continue
        rk = RO(g, k, j)
        if rk[1] - rk[0] != l0 or memcmp(g.mem[k].mid + rk[0], v0, l0) != 0:
            ok = 0
            break
    if ok:
        pl.kind = P_LIT
        if has_total:
            tl = fmt_u64(tbuf, <uint64_t>total)
            if tl == l0 and memcmp(tbuf, v0, l0) == 0:
                pl.kind = P_TOTAL
        return 0
    # A + str(part) + B
    sl = fmt_u64(sbuf, <uint64_t>g.mem[g.ref].part)
    for i in range(l0 - sl + 1):
        if memcmp(v0 + i, sbuf, sl) != 0:
            continue
        lb = l0 - i - sl
        ok = 1
        for k in range(g.n):
            if not g.match[k]:
                continue
            rk = RO(g, k, j)
            v = g.mem[k].mid + rk[0]
            l = rk[1] - rk[0]
            plen_ = fmt_u64(pbuf, <uint64_t>g.mem[k].part)
            if (l != i + plen_ + lb or memcmp(v, v0, i) != 0 or memcmp(v + i, pbuf, plen_) != 0
                    or memcmp(v + i + plen_, v0 + i + sl, lb) != 0):
                ok = 0
                break
        if ok:
            pl.kind = P_PART
            pl.plen = i
            pl.slen = lb
            return 0
    # decimals
    ok = 1
    for k in range(g.n):
        if not g.match[k]:
            continue
        rk = RO(g, k, j)
        x = parse_num(<const char*>(g.mem[k].mid + rk[0]), rk[1] - rk[0])
        if x < 0:
            ok = 0
            break
        g.tmp[nm] = x
        nm += 1
    if ok:
        nlo = nhi = g.tmp[0]
        dlo = dhi = 0
        for k in range(1, nm):
            x = g.tmp[k]
            if x < nlo:
                nlo = x
            if x > nhi:
                nhi = x
            d = x - g.tmp[k - 1]
            if k == 1 or d < dlo:
                dlo = d
            if k == 1 or d > dhi:
                dhi = d
        wr = vy_bitlen(<uint64_t>(nhi - nlo))
        wd = vy_bitlen(<uint64_t>(dhi - dlo))
        if (nm - 1) * <int64_t>wd + 8 < nm * <int64_t>wr:
            pl.kind = P_NUMD
            pl.base = g.tmp[0]
            pl.dmin = dlo
            pl.w = wd
        else:
            pl.kind = P_NUM
            pl.base = nlo
            pl.w = wr
        return 0
    # common prefix and suffix, the middle FIXED or VAR
    minlen = l0
    for k in range(g.n):
        if g.match[k]:
            rk = RO(g, k, j)
            if rk[1] - rk[0] < minlen:
                minlen = rk[1] - rk[0]
    p = 0
    while p < minlen:
        ok = 1
        for k in range(g.n):
            if g.match[k] and g.mem[k].mid[RO(g, k, j)[0] + p] != v0[p]:
                ok = 0
                break
        if not ok:
            break
        p += 1
    q = 0
    while q < minlen - p:
        ok = 1
        for k in range(g.n):
            if g.match[k] and g.mem[k].mid[RO(g, k, j)[1] - 1 - q] != v0[l0 - 1 - q]:
                ok = 0
                break
        if not ok:
            break
        q += 1
    flags = 0
    lo = hi = l0 - p - q
    for k in range(g.n):
        if g.match[k]:
            rk = RO(g, k, j)
            ml = rk[1] - rk[0] - p - q
            flags |= class_flags(g.mem[k].mid + rk[0] + p, ml)
            if ml < lo:
                lo = ml
            if ml > hi:
                hi = ml
    pl.plen = p
    pl.slen = q
    pl.cls = class_of(flags)
    pl.m = lo
    if lo == hi:
        pl.kind = P_FIXED
    else:
        pl.kind = P_VAR
        pl.w = vy_bitlen(<uint64_t>(hi - lo))
    return 0


cdef Py_ssize_t try_ref(Group* g, Py_ssize_t c) except -1:
    """Member c's id as the reference: g.match and the runs of the ids with
    its separators; how many match (0: c cannot be a reference)."""
    cdef const uint8_t* mid0 = g.mem[c].mid
    cdef Py_ssize_t n0 = g.mem[c].mlen, i, j, k, count = 0
    cdef int t = 0, r = 0
    cdef uint8_t a
    memset(g.match, 0, g.n)
    if n0 > MAX_TEMPLATE_ID:
        return 0
    i = 0
    while i < n0:
        a = IS_ALNUM[mid0[i]]
        j = i + 1
        while j < n0 and IS_ALNUM[mid0[j]] == a:
            j += 1
        if a:
            r += 1
            if r > MAX_RUNS:
                return 0
        g.ts[t] = i
        g.te[t] = j
        t += 1
        i = j
    g.ref = c
    g.ntok = t
    g.nrun = r
    g.first_alnum = IS_ALNUM[mid0[0]] if n0 else 0
    if g.n * r * 2 > g.rocap:
        free(g.ro)
        g.rocap = g.n * r * 2
        g.ro = <uint16_t*>malloc(g.rocap * sizeof(uint16_t) + 2)
        if g.ro == NULL:
            g.rocap = 0
            raise MemoryError()
    for k in range(g.n):
        g.match[k] = match_tokens(g, g.mem[k].mid, g.mem[k].mlen, RO(g, k, 0))
        count += g.match[k]
    return count


cdef int infer(Group* g, int singles) except -1:
    """The group's template (g.ok, g.raw, g.plans) and matches (g.match)."""
    cdef const uint8_t* mid0
    cdef Py_ssize_t n0, i, j, k, last_at, jj, kk, count, alt, other
    cdef int t = 0, r = 0, single, has_total
    cdef int64_t total = 0
    cdef Plan* pl
    cdef Elem* e
    cdef const uint8_t* v0
    cdef uint16_t* r0
    cdef Py_ssize_t l0
    cdef uint8_t tbuf[24]
    cdef int tl = 0
    count = try_ref(g, 0)
    if 2 * count < g.n:
        alt = -1
        for k in range(1, g.n):
            if not g.match[k]:
                alt = k
                break
        if alt >= 0:
            other = try_ref(g, alt)
            if other > count:
                count = other
            else:
                try_ref(g, 0)
    if count == 0:
        memset(g.match, 0, g.n)
        return 0
    mid0 = g.mem[g.ref].mid
    n0 = g.mem[g.ref].mlen
    r = g.nrun
    g.ok = 1
    single = g.n == 1
    has_total = not singles
    if has_total:
        total = g.mem[g.n - 1].part
        tl = fmt_u64(tbuf, <uint64_t>total)
    last_at = -1
    for i in range(n0):
        if mid0[i] == 64:
            last_at = i
    for j in range(r):
        plan_run(g, j, single, RO(g, g.ref, j)[0] > last_at, has_total, total)
    # the inst's elements
    r = 0
    for t in range(g.ntok):
        if not IS_ALNUM[mid0[g.ts[t]]]:
            elem_lit(g, mid0 + g.ts[t], g.te[t] - g.ts[t])
            continue
        pl = &g.plans[r]
        r0 = RO(g, g.ref, r)
        v0 = mid0 + r0[0]
        l0 = r0[1] - r0[0]
        r += 1
        if pl.kind == P_LIT:
            elem_lit(g, v0, l0)
        elif pl.kind == P_TOTAL:
            elem_add(g, K_TOTAL)
        elif pl.kind == P_PART:
            # A = v0[:plen], B = v0[l0 - slen:]
            jj = find(v0 + l0 - pl.slen, pl.slen, tbuf, tl) if has_total else -1
            kk = find(v0, pl.plen, tbuf, tl) if has_total and jj < 0 else -1
            if kk >= 0:
                elem_lit(g, v0, kk)
                elem_add(g, K_TOTAL)
                elem_lit(g, v0 + kk + tl, pl.plen - kk - tl)
            else:
                elem_lit(g, v0, pl.plen)
            elem_add(g, K_PART)
            if jj >= 0:
                elem_lit(g, v0 + l0 - pl.slen, jj)
                elem_add(g, K_TOTAL)
                elem_lit(g, v0 + l0 - pl.slen + jj + tl, pl.slen - jj - tl)
            else:
                elem_lit(g, v0 + l0 - pl.slen, pl.slen)
        elif pl.kind == P_NUM:
            e = elem_add(g, K_NUM)
            e.a = pl.base
            e.w = pl.w
        elif pl.kind == P_NUMD:
            e = elem_add(g, K_NUMD)
            e.a = pl.base
            e.b = pl.dmin
            e.w = pl.w
            g.delta = 1
        else:
            elem_lit(g, v0, pl.plen)
            e = elem_add(g, K_FIXED if pl.kind == P_FIXED else K_VAR)
            e.cls = pl.cls
            e.a = pl.m
            e.w = pl.w
            elem_lit(g, v0 + l0 - pl.slen, pl.slen)
    # serialized
    put_varint(&g.raw, g.nelems)
    for i in range(g.nelems):
        e = &g.elems[i]
        put_byte(&g.raw, <uint8_t>e.kind)
        if e.kind == K_LIT:
            put_varint(&g.raw, e.len)
            put_bytes(&g.raw, g.lits.p + e.off, e.len)
        elif e.kind == K_FIXED:
            put_byte(&g.raw, <uint8_t>e.cls)
            put_varint(&g.raw, <uint64_t>e.a)
        elif e.kind == K_NUM:
            put_varint(&g.raw, <uint64_t>e.a)
            put_byte(&g.raw, <uint8_t>e.w)
        elif e.kind == K_NUMD:
            put_varint(&g.raw, <uint64_t>e.a)
            put_varint(&g.raw, zz(e.b))
            put_byte(&g.raw, <uint8_t>e.w)
        elif e.kind == K_VAR:
            put_byte(&g.raw, <uint8_t>e.cls)
            put_varint(&g.raw, <uint64_t>e.a)
            put_byte(&g.raw, <uint8_t>e.w)
    return 0


cdef int emit(Group* g, Py_ssize_t k, BitW* bw) except -1:
    """The fields of member k's message-id."""
    cdef int j
    cdef Plan* pl
    cdef uint16_t* rk
    cdef const uint8_t* v
    cdef Py_ssize_t l
    cdef int64_t x
    for j in range(g.nrun):
        pl = &g.plans[j]
        if pl.kind == P_LIT or pl.kind == P_PART or pl.kind == P_TOTAL:
            continue
        rk = RO(g, k, j)
        v = g.mem[k].mid + rk[0]
        l = rk[1] - rk[0]
        if pl.kind == P_NUM:
            bw_write(bw, <uint64_t>(parse_num(<const char*>v, l) - pl.base), pl.w)
        elif pl.kind == P_NUMD:
            x = parse_num(<const char*>v, l)
            if pl.started:
                bw_write(bw, <uint64_t>(x - pl.prev - pl.dmin), pl.w)
            pl.prev = x
            pl.started = 1
        else:
            l -= pl.plen + pl.slen
            if pl.kind == P_VAR:
                bw_write(bw, <uint64_t>(l - pl.m), pl.w)
            write_chars(bw, pl.cls, v + pl.plen, l)
    return 0

# -- encode ------------------------------------------------------------------------------

cdef int64_t get_int(object o, int64_t hi, str what) except? -1:
    cdef int overflow = 0
    cdef long long v
    if not isinstance(o, int):
        raise TypeError(f"release chunk: {what} must be an int, not {type(o).__name__}")
    v = PyLong_AsLongLongAndOverflow(o, &overflow)
    if overflow or v < 0 or v > hi:
        raise ValueError(f"release chunk: {what} {o} out of range 0..{hi}")
    return v


cdef class _Ctx:
    """The C buffers of one encode call."""
    cdef Seg* segs
    cdef Py_ssize_t nsegs
    cdef Group single
    cdef Group file
    cdef BitW bits
    cdef Buf cols[9]
    cdef Buf meta

    def __dealloc__(self):
        cdef int i
        free(self.segs)
        group_free(&self.single)
        group_free(&self.file)
        free(self.bits.buf.p)
        for i in range(9):
            free(self.cols[i].p)
        free(self.meta.p)


cdef enum:
    COL_FIRST = 0
    COL_INST = 1
    COL_SIZE = 2
    COL_WIDTH = 3
    COL_LAST = 4
    COL_PEXC_N = 5
    COL_MEXC_N = 6
    COL_PEXC = 7
    COL_MEXC = 8


cdef int seg_order(const void* a, const void* b) noexcept nogil:
    """Python's order of (part, message-id, bytes) tuples, on Segs."""
    cdef const Seg* x = <const Seg*>a
    cdef const Seg* y = <const Seg*>b
    cdef Py_ssize_t m = x.mlen if x.mlen < y.mlen else y.mlen
    cdef int c
    if x.part != y.part:
        return -1 if x.part < y.part else 1
    c = memcmp(x.mid, y.mid, m)
    if c:
        return c
    if x.mlen != y.mlen:
        return -1 if x.mlen < y.mlen else 1
    if x.size != y.size:
        return -1 if x.size < y.size else 1
    return 0


cdef Py_ssize_t packed_count(bytes packed) noexcept:
    """The segments of a window's packed list: (part u32 LE, bytes u32 LE,
    message-id length u8, message-id) each, a short tail ignored."""
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(packed)
    cdef Py_ssize_t at = 0, n = PyBytes_GET_SIZE(packed), k = 0
    while at + 9 <= n:
        at += 9 + p[at + 8]
        k += 1
    return k


def encode(files):
    """The chunk of a release: files = [(name, file_bytes, [(part, message_id, article_bytes), ...]), ...]."""
    return _encode(files, False)


def encode_packed(files):
    """encode() of the window's files as they are: [(name, file_bytes, packed)]
    with the segments packed (window.segments_of reads them), put in part
    order here, without a Python object per segment."""
    return _encode(files, True)


cdef bytes _encode(files, bint packed):
    cdef _Ctx ctx = _Ctx()
    cdef list norm = []
    cdef Py_ssize_t total = 0, i, k, n, off, nfiles, single_i = 0, prev, nexc
    cdef Seg* s
    cdef Seg* fs
    cdef int64_t size_a, hi, prev_size = 0, d
    cdef int width
    cdef uint64_t ref, single_ref = 0
    cdef int have_single_ref = 0
    cdef Group* g
    cdef Buf* cols = ctx.cols
    cdef Py_ssize_t gk
    cdef bytes raw
    cdef object name, m
    cdef list keep = []
    cdef list insts = []
    cdef dict inst_ids = {}

    cdef Py_ssize_t cnt, at, plen
    cdef const uint8_t* pp
    for f in files:
        if len(f) != 3:
            raise ValueError("release chunk: a file is (name, file_bytes, segments)")
        name, fb, segs = f
        if not isinstance(name, bytes):
            raise TypeError(f"release chunk: file name must be bytes, not {type(name).__name__}")
        get_int(fb, MAX_FILE_BYTES, "file bytes")
        if packed:
            if type(segs) is not bytes:
                raise TypeError(f"release chunk: packed segments must be bytes, not {type(segs).__name__}")
            cnt = packed_count(segs)
        else:
            if not isinstance(segs, (list, tuple)):
                segs = list(segs)
            cnt = len(segs)
        total += cnt
        if total > MAX_COUNT:
            raise ValueError("release chunk: too many segments")
        norm.append((name, fb, segs, cnt))
    nfiles = len(norm)
    if nfiles > MAX_COUNT:
        raise ValueError("release chunk: too many files")
    ctx.segs = <Seg*>malloc((total + 1) * sizeof(Seg))
    if ctx.segs == NULL:
        raise MemoryError()
    k = 0
    for f in norm:
        if packed:                      # the message-ids stay in the packed bytes, which norm holds
            raw = f[2]
            pp = <const uint8_t*>PyBytes_AS_STRING(raw)
            plen = PyBytes_GET_SIZE(raw)
            at = 0
            fs = &ctx.segs[k]
            while at + 9 <= plen:
                s = &ctx.segs[k]
                s.part = pp[at] | (pp[at + 1] << 8) | (pp[at + 2] << 16) | (<int64_t>pp[at + 3] << 24)
                s.size = pp[at + 4] | (pp[at + 5] << 8) | (pp[at + 6] << 16) | (<int64_t>pp[at + 7] << 24)
                s.mlen = pp[at + 8]
                s.mid = pp + at + 9
                at += 9 + s.mlen
                k += 1
            qsort(fs, f[3], sizeof(Seg), seg_order)
            continue
        for sg in f[2]:
            if len(sg) != 3:
                raise ValueError("release chunk: a segment is (part, message_id, article_bytes)")
            s = &ctx.segs[k]
            s.part = get_int(sg[0], MAXV, "part")
            m = sg[1]
            if not isinstance(m, bytes):
                raise TypeError(f"release chunk: message-id must be bytes, not {type(m).__name__}")
            if type(sg) is not tuple and type(sg) is not list:
                keep.append(m)            # not held by a container of ours
            s.mid = <const uint8_t*>PyBytes_AS_STRING(m)
            s.mlen = PyBytes_GET_SIZE(m)
            s.size = get_int(sg[2], MAXV, "article bytes")
            k += 1
    ctx.nsegs = total
    norm = [(f[0], f[1], f[3], f[2]) for f in norm]     # (name, file bytes, segment count, what holds them)

    # the one-segment files' group
    off = 0
    n = 0
    for f in norm:
        if f[2] == 1:
            n += 1
    if n:
        group_reset(&ctx.single, n)
        k = 0
        for f in norm:
            if f[2] == 1:
                ctx.single.mem[k] = &ctx.segs[off]
                k += 1
            off += f[2]
        infer(&ctx.single, 1)

    off = 0
    for f in norm:
        n = f[2]
        fs = &ctx.segs[off]
        off += n
        if n == 0:
            continue
        put_varint(&cols[COL_FIRST], <uint64_t>fs[0].part)
        if n == 1:
            g = &ctx.single
            gk = single_i
            single_i += 1
            if not have_single_ref:
                have_single_ref = 1
                if g.ok:
                    single_ref = _inst_ref(g, insts, inst_ids)
            ref = single_ref
            size_a = fs[0].size
        else:
            g = &ctx.file
            group_reset(g, n)
            for k in range(n):
                g.mem[k] = &fs[k]
            infer(g, 0)
            ref = _inst_ref(g, insts, inst_ids) if g.ok else 0
            gk = -1
            size_a = fs[0].size
            for k in range(1, n - 1):
                if fs[k].size < size_a:
                    size_a = fs[k].size
        put_varint(&cols[COL_INST], ref)
        if n == 1:
            put_varint(&cols[COL_SIZE], zz(size_a - <int64_t>f[1]))
        else:
            put_varint(&cols[COL_SIZE], zz(size_a - prev_size))
            prev_size = size_a
        width = 0
        if n >= 2:
            hi = size_a
            for k in range(n - 1):
                if fs[k].size > hi:
                    hi = fs[k].size
            width = vy_bitlen(<uint64_t>(hi - size_a))
            put_byte(&cols[COL_WIDTH], <uint8_t>width)
            put_varint(&cols[COL_LAST], zz(fs[n - 1].size - size_a))
            nexc = 0
            for k in range(1, n):
                if fs[k].part - fs[k - 1].part != 1:
                    nexc += 1
            put_varint(&cols[COL_PEXC_N], nexc)
            prev = -1
            for k in range(1, n):
                d = fs[k].part - fs[k - 1].part
                if d != 1:
                    put_varint(&cols[COL_PEXC], <uint64_t>(k - prev - 1))
                    put_varint(&cols[COL_PEXC], zz(d - 1))
                    prev = k
        nexc = 0
        prev = -1
        for k in range(n):
            if g.match[gk if gk >= 0 else k]:
                emit(g, gk if gk >= 0 else k, &ctx.bits)
            else:
                nexc += 1
                put_varint(&cols[COL_MEXC], <uint64_t>(k - prev - 1))
                put_varint(&cols[COL_MEXC], <uint64_t>fs[k].mlen)
                put_bytes(&cols[COL_MEXC], fs[k].mid, fs[k].mlen)
                prev = k
            if n >= 2 and k < n - 1:
                bw_write(&ctx.bits, <uint64_t>(fs[k].size - size_a), width)
        put_varint(&cols[COL_MEXC_N], nexc)
    bw_finish(&ctx.bits)

    cdef Buf* meta = &ctx.meta
    put_varint(meta, nfiles)
    put_varint(meta, len(insts))
    for raw in insts:
        put_bytes(meta, <const uint8_t*>PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw))
    for f in norm:
        put_varint(meta, PyBytes_GET_SIZE(f[0]))
    for f in norm:
        name = f[0]
        put_bytes(meta, <const uint8_t*>PyBytes_AS_STRING(name), PyBytes_GET_SIZE(name))
    for f in norm:
        put_varint(meta, <uint64_t>(<int64_t>f[1]))
    for f in norm:
        put_varint(meta, f[2])
    for i in range(9):
        put_bytes(meta, cols[i].p, cols[i].n)
    meta_bytes = PyBytes_FromStringAndSize(<char*>meta.p, meta.n)
    z = _compress(meta_bytes)
    cdef Buf out
    out.p = NULL
    out.n = out.cap = 0
    cdef bytes result
    try:
        put_byte(&out, VERSION)
        if len(z) < meta.n:
            put_varint(&out, <uint64_t>meta.n * 2 + 1)
            put_varint(&out, len(z))
            put_bytes(&out, <const uint8_t*>PyBytes_AS_STRING(z), PyBytes_GET_SIZE(z))
        else:
            put_varint(&out, <uint64_t>meta.n * 2)
            put_bytes(&out, meta.p, meta.n)
        put_bytes(&out, ctx.bits.buf.p, ctx.bits.buf.n)
        crc = zlib.crc32(PyMemoryView_FromMemory(<char*>out.p, out.n, PyBUF_READ))
        put_bytes(&out, <const uint8_t*>b"\0\0\0\0", 4)
        out.p[out.n - 4] = <uint8_t>(crc & 0xFF)
        out.p[out.n - 3] = <uint8_t>((crc >> 8) & 0xFF)
        out.p[out.n - 2] = <uint8_t>((crc >> 16) & 0xFF)
        out.p[out.n - 1] = <uint8_t>((crc >> 24) & 0xFF)
        result = PyBytes_FromStringAndSize(<char*>out.p, out.n)
    finally:
        free(out.p)
    return result


cdef uint64_t _inst_ref(Group* g, list insts, dict inst_ids) except? 0:
    cdef bytes raw = PyBytes_FromStringAndSize(<char*>g.raw.p, g.raw.n)
    if not g.delta:
        got = inst_ids.get(raw)
        if got is not None:
            return got
    insts.append(raw)
    if not g.delta:
        inst_ids[raw] = len(insts)
    return len(insts)
