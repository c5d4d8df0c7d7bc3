"""yEnc: one article body to its decoded bytes and what its =ybegin, =ypart
and =yend lines say, with sabctools (SABnzbd's decoder) checking the CRC.

sabctools decodes NNTP responses, dot-stuffed and terminated; the body comes
unstuffed. Stuffing again costs more than decoding (a scan for every line
start), so the body goes in as it is first: a line that began with a dot
loses it there, which the part's size and CRC then show, and only such a
body is stuffed and decoded again.
"""
from __future__ import annotations

import re

import sabctools

from .errors import ProbeError

STATUS = b"222 0 <probe@voyager> body\r\n"
END = b".\r\n"
FEED = 1 << 20                  # the decoder's buffer: the body goes through it in pieces
HEAD_SCAN = 4096                # where =ybegin must be
_FIELD = re.compile(rb"(\w+)=(\S*)")


def _head_fields(body: bytes) -> dict[bytes, bytes] | None:
    """The fields of =ybegin and =ypart (name left to sabctools)."""
    at = body.find(b"=ybegin ", 0, HEAD_SCAN)
    if at < 0 or (at and body[at - 1] not in b"\r\n"):
        return None
    line_end = body.find(b"\n", at)
    line = body[at:line_end if line_end >= 0 else len(body)]
    fields = dict(_FIELD.findall(line.split(b" name=", 1)[0]))
    if line_end >= 0 and body.startswith(b"=ypart ", line_end + 1):
        part_end = body.find(b"\n", line_end + 1)
        fields.update(_FIELD.findall(body[line_end + 1:part_end if part_end >= 0 else None]))
    return fields


def _number(fields: dict, key: bytes) -> int | None:
    raw = fields.get(key)
    if raw is None or not raw.isdigit() or len(raw) > 18:
        return None
    return int(raw)


def _run(body: bytes, stuff: bool):
    if stuff:
        body = (b"." if body.startswith(b".") else b"") + body.replace(b"\r\n.", b"\r\n..")
    tail = END if body.endswith(b"\r\n") else b"\r\n" + END
    decoder = sabctools.Decoder(FEED)
    decoder.expect(None)
    view = memoryview(body)
    for piece in (memoryview(STATUS), *(view[i:i + FEED] for i in range(0, len(view), FEED)),
                  memoryview(tail)):
        at = 0
        while at < len(piece):
            buf = memoryview(decoder)       # where the free room is now
            n = min(len(buf), len(piece) - at)
            if n == 0:
                return None
            buf[:n] = piece[at:at + n]
            decoder.process(n)
            at += n
            for got in decoder:
                return got      # the first response: a lone "." line may have ended it early
    return None


def decode(body: bytes) -> tuple[dict, bytes]:
    """(the yenc facts, the decoded bytes). Raises ProbeError: yenc-missing
    (no =ybegin), yenc-crc (the data does not match its CRC), yenc-end (no
    =yend: the body was cut), yenc-size (fewer bytes than =ypart says)."""
    fields = _head_fields(body)
    if fields is None:
        raise ProbeError("yenc-missing")
    got = _run(body, stuff=False)
    if got is not None and not _sound(got) and b"\n." in body:
        got = None
        got = _run(body, stuff=True)
    if got is None or got.file_name is None or got.data is None:
        raise ProbeError("yenc-missing")
    begin = got.part_begin + 1 if b"begin" in fields else None
    facts = {
        "name": _name(got.file_name),
        "part": _number(fields, b"part"),
        "total": _number(fields, b"total"),
        "size": got.file_size if b"size" in fields else None,
        "begin": begin,
        "end": got.part_end if b"end" in fields else None,
        "crc_ok": got.crc is not None and got.crc_expected is not None,
    }
    data = got.data      # a bytearray: the readers take it as it is, no copy
    if got.crc_expected is not None and got.crc is None:
        raise ProbeError("yenc-crc", yenc=facts, data=data)
    if not got.end_size and b"=yend" not in body[-512:]:
        raise ProbeError("yenc-end", yenc=facts, data=data)
    want = (got.part_end - got.part_begin) if b"end" in fields else got.end_size
    if want and len(data) != want:
        raise ProbeError("yenc-size", yenc=facts, data=data)
    return facts, data


def _name(decoded: str) -> str:
    """sabctools gives the name's bytes as Latin-1; posters write UTF-8."""
    try:
        return decoded.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return decoded


def _sound(got) -> bool:
    """Whether a decode without stuffing came out whole: the CRC matched, or
    without one, the sizes the lines give agree with the bytes."""
    if got.data is None:
        return False
    if got.crc_expected is not None:
        return got.crc is not None
    want = got.end_size or (got.part_end - got.part_begin)
    return bool(got.end_size) and len(got.data) == want
