# cython: language_level=3
"""The subject parser: a yEnc part counter, a file counter, the file name and
the release name of an overview Subject (the window's; parse_subject_py for
tests and tools)."""
from ext.chars cimport isdigit, lower


cdef bint digits_back(const char* s, Py_ssize_t end, Py_ssize_t* start, long long* value) noexcept nogil:
    """Digits ending just before `end`; start of the run and its value."""
    cdef Py_ssize_t j = end, q
    cdef long long v = 0
    while j > 0 and isdigit(s[j - 1]) and end - j < 9:
        j -= 1
    if j == end or (j > 0 and isdigit(s[j - 1])):
        return False
    for q in range(j, end):
        v = v * 10 + (s[q] - 48)
    start[0] = j
    value[0] = v
    return True


cdef bint counter_at(const char* s, Py_ssize_t close, char opener, long long* a, long long* b,
                     Py_ssize_t* open_at) noexcept nogil:
    """`(a/b)` or `[a/b]` whose closing bracket is at `close`."""
    cdef Py_ssize_t ds
    if not digits_back(s, close, &ds, b):
        return False
    if ds == 0 or s[ds - 1] != 47:     # '/'
        return False
    cdef Py_ssize_t ns
    if not digits_back(s, ds - 1, &ns, a):
        return False
    if ns == 0 or s[ns - 1] != opener:
        return False
    open_at[0] = ns - 1
    return True


cdef inline void quoted_name(const char* s, Py_ssize_t lo, Py_ssize_t head, Subj* o) noexcept nogil:
    """A non-empty "file name" between lo and head, when there is one, as the name."""
    cdef Py_ssize_t j = lo, q1 = -1
    while j < head:
        if s[j] == 34:
            if q1 < 0:
                q1 = j
            else:
                if j - q1 > 1:
                    o.name_off = q1 + 1
                    o.name_len = j - q1 - 1
                return
        j += 1


cdef inline Py_ssize_t last_quote(const char* s, Py_ssize_t end) noexcept nogil:
    """Where the last double quote before end stands, or -1."""
    cdef Py_ssize_t j = end
    while j > 0:
        j -= 1
        if s[j] == 34:
            return j
    return -1


cdef bint parse_subject(const char* s, Py_ssize_t n, Subj* o) noexcept nogil:
    """False when the subject has no yEnc part counter (counterless)."""
    cdef Py_ssize_t j = n, pc = -1, open_at, head, q1, q2, fc_open = -1, fc_close = -1, t, lo, tag_end
    cdef long long a, b
    o.i = -1
    o.N = -1
    o.rel_len = 0
    o.rel_off = 0
    # the yEnc part counter: the last "(k/P)"
    while j > 0:
        j -= 1
        if s[j] == 41 and counter_at(s, j, 40, &a, &b, &open_at):     # ')' ... '('
            pc = open_at
            o.k = a
            o.P = b
            break
    if pc < 0 or o.P < 1:
        return False
    head = pc
    # drop a trailing "yEnc" (and the size some tools put after it) and separators
    while head > 0 and (s[head - 1] == 32 or isdigit(s[head - 1])):
        head -= 1
    if head >= 4 and lower(s[head - 4]) == 121 and lower(s[head - 3]) == 101 and lower(s[head - 2]) == 110 \
            and lower(s[head - 1]) == 99:
        head -= 4
    elif head < pc and not (s[head] == 32):
        head = pc                      # the digits were part of the name: keep them
    while head > 0 and s[head - 1] == 32:
        head -= 1
    # [PRiVATE]-[WtFnZb]-[release/file]-[i/N] - "" yEnc size (k/P), and the same with a
    # random token in the third brackets ([PRiVATE]-[tag]-[token]-[i/N]): the token is
    # the file's name, and "[PRiVATE]-[tag]" stands for the release so that the upload's
    # files keep together; a release name that starts with '[' is no name (the window
    # sends it to pending)
    if n > 20 and s[0] == 91 and lower(s[1]) == 112 and lower(s[2]) == 114 and lower(s[3]) == 105 \
            and s[8] == 93 and s[9] == 45 and s[10] == 91:
        t = 11
        while t < head and s[t] != 93:
            t += 1
        tag_end = t + 1
        if t + 2 < head and s[t + 1] == 45 and s[t + 2] == 91:
            lo = t + 3
            t = lo
            while t < head and s[t] != 93:
                t += 1
            q2 = t                      # end of "release/file" (or of the token)
            q1 = q2
            while q1 > lo and s[q1 - 1] != 47:
                q1 -= 1
            if q1 > lo and lower(s[11]) == 119 and lower(s[12]) == 116:
                o.rel_off = lo
                o.rel_len = q1 - 1 - lo
                o.name_off = q1
                o.name_len = q2 - q1
            elif q1 == lo and t < head and is_token(s + lo, q2 - lo):
                o.rel_off = 0
                o.rel_len = tag_end
                o.name_off = lo
                o.name_len = q2 - lo
                quoted_name(s, q2, head, o)
            else:
                q1 = -1
            if q1 >= 0:
                j = q2
                while j < head:
                    if s[j] == 93 and counter_at(s, j, 91, &a, &b, &open_at):
                        o.i = a
                        o.N = b
                        break
                    j += 1
                return o.name_len > 0
    # a quoted file name: the last "..." before the counter
    q2 = last_quote(s, head)
    q1 = last_quote(s, q2) if q2 > 0 else -1
    if q1 >= 0 and q2 - q1 > 1:
        o.name_off = q1 + 1
        o.name_len = q2 - q1 - 1
        head = q1
    else:
        o.name_off = -1
    # the file counter: the last [i/N] or (i/N) in what is left
    j = head
    while j > 0:
        j -= 1
        if s[j] == 93 and counter_at(s, j, 91, &a, &b, &open_at):
            fc_open, fc_close = open_at, j + 1
            break
        if s[j] == 41 and counter_at(s, j, 40, &a, &b, &open_at):
            fc_open, fc_close = open_at, j + 1
            break
    if fc_open >= 0:
        o.i = a
        o.N = b
    if o.name_off >= 0:
        # the release name: what stands before the counter (or the quote)
        o.rel_off = 0
        o.rel_len = fc_open if fc_open >= 0 else head
        strip_span(s, &o.rel_off, &o.rel_len, True)
        return True
    # unquoted: the text after the file counter; "release - file" splits at the last " - "
    lo = fc_close if fc_open >= 0 else 0
    if fc_open > 0:                         # a name before the counter, none after it
        t = head - lo
        strip_span(s, &lo, &t, True)
        if t == 0:
            lo = 0
            head = fc_open
    t = head - lo
    strip_span(s, &lo, &t, False)
    head = lo + t
    j = head - 2
    while j > lo + 1:
        if s[j] == 45 and s[j - 1] == 32 and s[j + 1] == 32:
            o.rel_off = lo
            o.rel_len = j - 1 - lo
            strip_span(s, &o.rel_off, &o.rel_len, True)
            lo = j + 2
            break
        j -= 1
    t = head - lo
    strip_span(s, &lo, &t, False)
    o.name_off = lo
    o.name_len = t
    return t > 0


def parse_subject_py(bytes subject):
    """The subject's parts as a dict, or None when it has no part counter (tests, tools)."""
    cdef Subj o
    if not parse_subject(subject, len(subject), &o):
        return None
    return {"part": o.k, "parts": o.P, "file": o.i if o.i >= 0 else None, "files": o.N if o.N >= 0 else None,
            "name": subject[o.name_off:o.name_off + o.name_len],
            "release": subject[o.rel_off:o.rel_off + o.rel_len]}
