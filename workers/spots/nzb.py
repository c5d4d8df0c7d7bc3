"""A spot's NZB from its articles in alt.binaries.ftd: the bodies' lines
joined without their breaks, Spotnet's escapes undone (=A NUL, =B CR,
=C LF, =D `=`), raw deflate inflated under a cap, the NZB read by expat
with entities refused and a cap on segments."""
from __future__ import annotations

import re
import zlib
from xml.parsers import expat

from .xmlsafe import XmlRefused, parser

MAX_NZB = 32 << 20          # inflated; a 100,000-segment NZB is about 15 MiB
MAX_SEGMENTS = 100_000
MAX_FILES = 20_000
MAX_COMPRESSED = 16 << 20   # the articles' bytes together
_ESCAPE = re.compile(rb"=([ABCD])")
_UNESCAPE = {b"A": b"\x00", b"B": b"\r", b"C": b"\n", b"D": b"="}


def unspecial_zip(data: bytes) -> bytes:
    """Spotnet's binary escapes undone."""
    return _ESCAPE.sub(lambda m: _UNESCAPE[m.group(1)], data)


def _joined(bodies) -> bytes:
    total = sum(len(b) for b in bodies)
    if total > MAX_COMPRESSED:
        raise XmlRefused("too-large")
    return b"".join(bytes(b).replace(b"\r\n", b"").replace(b"\n", b"") for b in bodies)


def _inflate(data: bytes, cap: int) -> bytes:
    d = zlib.decompressobj(-zlib.MAX_WBITS)
    try:
        out = d.decompress(data, cap + 1)
    except zlib.error as e:
        raise XmlRefused("inflate") from e
    if len(out) > cap or d.unconsumed_tail:
        raise XmlRefused("too-large")
    if not d.eof:
        raise XmlRefused("inflate")
    return out


def _read(nzb: bytes, max_segments: int) -> list[dict]:
    files: list[dict] = []
    where: list[str] = []
    text: list[str] = []
    count = [0]

    def start(tag, attrib):
        name = tag.rpartition(":")[2]
        if not where and name != "nzb":
            raise XmlRefused("not-nzb")
        where.append(name)
        if len(where) > 8:
            raise XmlRefused("xml-too-deep")
        text.clear()
        if name == "file":
            if len(files) >= MAX_FILES:
                raise XmlRefused("too-many-files")
            files.append({"subject": attrib.get("subject", ""), "poster": attrib.get("poster", ""),
                          "date": _int(attrib.get("date")), "groups": [], "segments": []})
        elif name == "segment" and files:
            count[0] += 1
            if count[0] > max_segments:
                raise XmlRefused("too-many-segments")
            files[-1]["segments"].append([_int(attrib.get("number")), _int(attrib.get("bytes")), None])

    def end(tag):
        name = where.pop()
        value = "".join(text).strip()
        text.clear()
        if not files:
            return
        if name == "group" and value and len(files[-1]["groups"]) < 100:
            files[-1]["groups"].append(value)
        elif name == "segment" and files[-1]["segments"]:
            files[-1]["segments"][-1][2] = value.strip("<>")

    def chars(data):
        if where and where[-1] in ("group", "segment") and len(text) < 64:
            text.append(data)

    p = parser(allow_doctype=True)
    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, chars
    try:
        p.Parse(nzb, True)
    except expat.ExpatError as e:
        raise XmlRefused("xml") from e
    for f in files:
        f["segments"] = [tuple(s) for s in f["segments"] if s[2]]
    return files


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def decode_spot_nzb(bodies, cap: int = MAX_NZB, max_segments: int = MAX_SEGMENTS) -> dict:
    """{files: [{subject, poster, date, groups, segments: [(number, bytes,
    message_id)]}], error, size} of a spot's NZB articles' bodies (in the
    order the spot lists them); never raises. `error` is None, or
    `placeholder` (an NZB with no segments), `inflate`, `too-large`,
    `xml`, `xml-entities`, `too-many-segments`, `not-nzb`, `garbage`."""
    out = {"files": [], "error": None, "size": None}
    try:
        if not bodies:
            out["error"] = "empty"
            return out
        nzb = _inflate(unspecial_zip(_joined(list(bodies))), cap)
        out["size"] = len(nzb)
        files = _read(nzb, max_segments)
        out["files"] = files
        if not any(f["segments"] for f in files):
            out["error"] = "placeholder"
    except XmlRefused as e:
        out["error"] = e.reason
    except Exception:
        out["error"] = "garbage"
    return out
