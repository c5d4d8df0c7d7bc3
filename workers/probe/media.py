"""Media: what a file's first bytes say it is (container, title) and
whether a "video" is in fact a program (MZ or ELF magic)."""
from __future__ import annotations

import struct

TITLE_MAX = 255
MAX_ELEMENTS = 4096             # a walk gives up after this many elements or boxes

EBML, SEGMENT, INFO, TITLE, CLUSTER, DOCTYPE = 0x1A45DFA3, 0x18538067, 0x1549A966, 0x7BA9, 0x1F43B675, 0x4282


def _vint(data: bytes, at: int, keep_marker: bool) -> tuple[int, int] | None:
    """An EBML variable-length integer: (value, next position)."""
    if at >= len(data):
        return None
    first = data[at]
    width = 1
    while width <= 8 and not first & (0x80 >> (width - 1)):
        width += 1
    if width > 8 or at + width > len(data):
        return None
    value = first if keep_marker else first & (0xFF >> width)
    for b in data[at + 1:at + width]:
        value = (value << 8) | b
    if not keep_marker and value == (1 << (7 * width)) - 1:
        value = -1          # unknown size
    return value, at + width


def _elements(data: bytes, at: int, end: int):
    """(id, body start, body end) of the EBML elements in [at, end)."""
    for _ in range(MAX_ELEMENTS):
        if at >= end:
            return
        eid = _vint(data, at, True)
        if eid is None:
            return
        size = _vint(data, eid[1], False)
        if size is None:
            return
        body = size[1]
        stop = end if size[0] < 0 else min(end, body + size[0])
        yield eid[0], body, stop
        if size[0] < 0:
            return
        at = body + size[0]


def _text(raw: bytes) -> str | None:
    text = raw.split(b"\x00", 1)[0].decode("utf-8", "replace").strip()
    return text[:TITLE_MAX] or None


def _matroska(data: bytes) -> tuple[str, str | None]:
    container, title = "mkv", None
    for eid, lo, hi in _elements(data, 0, len(data)):
        if eid == EBML:
            for cid, clo, chi in _elements(data, lo, hi):
                if cid == DOCTYPE and data[clo:chi] == b"webm":
                    container = "webm"
        elif eid == SEGMENT:
            for cid, clo, chi in _elements(data, lo, hi):
                if cid == INFO:
                    for iid, ilo, ihi in _elements(data, clo, chi):
                        if iid == TITLE:
                            return container, _text(data[ilo:ihi])
                elif cid == CLUSTER:
                    break
            break
    return container, title


def _boxes(data: bytes, at: int, end: int):
    for _ in range(MAX_ELEMENTS):
        if at + 8 > end:
            return
        size, kind = struct.unpack_from(">I4s", data, at)
        head = 8
        if size == 1 and at + 16 <= end:
            size, head = struct.unpack_from(">Q", data, at + 8)[0], 16
        elif size == 0:
            size = end - at
        if size < head:
            return
        yield kind, at + head, min(end, at + size)
        at += size


def _mp4_title(data: bytes, at: int, end: int, depth: int = 0) -> str | None:
    for kind, lo, hi in _boxes(data, at, end):
        if kind in (b"moov", b"udta", b"ilst") and depth < 6:
            found = _mp4_title(data, lo, hi, depth + 1)
            if found:
                return found
        elif kind == b"meta" and depth < 6:
            found = _mp4_title(data, lo + 4, hi, depth + 1)       # a full box: version, flags
            if found:
                return found
        elif kind == b"\xa9nam":
            body = data[lo:hi]
            if body[4:8] == b"data":                # iTunes: a data box, type and locale first
                return _text(body[16:])
            if len(body) >= 4:                      # QuickTime: length, language, text
                (length,) = struct.unpack_from(">H", body)
                return _text(body[4:4 + length])
    return None


def _avi_title(data: bytes) -> str | None:
    at = data.find(b"INAM", 0, 1 << 16)
    if at < 0 or at + 8 > len(data):
        return None
    (length,) = struct.unpack_from("<I", data, at + 4)
    return _text(data[at + 8:at + 8 + min(length, 1024)])


def read(data: bytes) -> dict | None:
    """{container, title, executable} of a file's first bytes, or None when
    they show no media and no program."""
    if data.startswith(b"MZ"):
        return {"container": None, "title": None, "executable": "pe"}
    if data.startswith(b"\x7fELF"):
        return {"container": None, "title": None, "executable": "elf"}
    container = title = None
    if data.startswith(b"\x1a\x45\xdf\xa3"):
        container, title = _matroska(data)
    elif data[4:8] == b"ftyp":
        container = "mov" if data[8:12] == b"qt  " else "mp4"
        title = _mp4_title(data, 0, len(data))
    elif data.startswith(b"RIFF") and data[8:12] == b"AVI ":
        container, title = "avi", _avi_title(data)
    elif data.startswith(b"ID3") or data[:2] in (b"\xff\xfb", b"\xff\xf3", b"\xff\xf2"):
        container = "mp3"
    elif data.startswith(b"fLaC"):
        container = "flac"
    elif data.startswith(b"OggS"):
        container = "ogg"
    elif len(data) > 376 and data[0] == data[188] == data[376] == 0x47:
        container = "ts"
    elif data.startswith((b"\x00\x00\x01\xba", b"\x00\x00\x01\xb3")):
        container = "mpeg"
    if container is None:
        return None
    return {"container": container, "title": title, "executable": None}
