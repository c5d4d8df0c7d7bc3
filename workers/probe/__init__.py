"""The prober's readers: one article body to the facts it shows, with no
database and no NNTP. A module per format (yenc, par2, rar, sevenz, zip,
nfo, media); `read_article` decodes the body and runs every reader the
decoded bytes call for, whatever the candidate's kind says.

    read_article(kind, file_name, body, *, cap=MAX_BODY) -> dict

It never raises: bad input gives the dict's `error` (a short reason) with
whatever was read before it, and a body over `cap` bytes is refused before
anything is decoded, so one article never takes more than about twice its
size in memory.
"""
from __future__ import annotations

import hashlib
import re

from . import media, nfo, par2, rar, sevenz, yenc
from . import zip as zipfmt
from .errors import ProbeError

__all__ = ["KINDS", "MAX_BODY", "ProbeError", "read_article"]

MAX_BODY = 8 << 20          # ~10x a usual article; a bigger body is refused
START_BYTES = 16384         # the file start's hash covers its first 16 KiB
KINDS = ("archive", "par2", "lone", "7z-tail", "nfo", "media")
_7Z_VOLUME = re.compile(r"\.7z\.(\d{1,4})$", re.IGNORECASE)


def _empty() -> dict:
    return {"error": None, "yenc": None, "start": None, "par2": None, "archive": None,
            "nfo": None, "media": None, "password": None}


def read_article(kind: str, file_name: str, body: bytes, *, cap: int = MAX_BODY) -> dict:
    """The facts of one article body (see the package's docstring and the
    keys of _empty); never raises on bad input."""
    facts = _empty()
    try:
        _read(facts, kind, str(file_name or ""), body, cap)
    except ProbeError as e:
        _fail(facts, e)
    except Exception:       # memory, recursion, a reader's bug: none may stop the prober
        facts["error"] = facts["error"] or "garbage"
    return facts


def _fail(facts: dict, e: ProbeError) -> None:
    facts["error"] = facts["error"] or e.reason
    for key in ("yenc", "par2", "archive"):
        if e.partial.get(key) is not None:
            facts[key] = e.partial[key]


def _read(facts: dict, kind: str, file_name: str, body, cap: int) -> None:
    if not isinstance(body, bytes):
        body = bytes(body)
    if len(body) > cap:
        raise ProbeError("too-large")
    try:
        head, data = yenc.decode(body)
    except ProbeError as e:
        _fail(facts, e)
        data = e.partial.get("data")
        if e.reason == "yenc-crc" or data is None:
            return      # damaged bytes show nothing worth keeping
        head = facts["yenc"]
    facts["yenc"] = head
    first = head["begin"] == 1 or (head["begin"] is None and head["part"] in (None, 1))
    size = head["size"] if head["size"] is not None else len(data)
    name = (head["name"] or file_name).strip()
    if first and len(data) >= min(START_BYTES, size):
        facts["start"] = {"md5_16k": hashlib.md5(data[:START_BYTES]).hexdigest(), "size": size}
    last = head["end"] is None or head["size"] is None or head["end"] >= head["size"]
    _sections(facts, kind, name, data, first, last)


def _section(facts: dict, key: str, reader, *args):
    try:
        facts[key] = reader(*args)
    except ProbeError as e:
        _fail(facts, e)


def _sections(facts: dict, kind: str, name: str, data: bytes, first: bool, last: bool) -> None:
    lower = name.lower()
    if first:
        if data.startswith(par2.MAGIC):
            _section(facts, "par2", par2.read, data)
        elif rar.sniff(data):
            _section(facts, "archive", rar.read, data)
        elif data.startswith(sevenz.SIGNATURE):
            _section(facts, "archive", sevenz.read_start, data)
        elif zipfmt.sniff(data):
            _section(facts, "archive", zipfmt.read, data)
        found = media.read(data)
        if found is not None or kind == "media":
            facts["media"] = found or {"container": None, "title": None, "executable": None}
        if kind == "nfo" or lower.endswith(".nfo"):
            _section(facts, "nfo", nfo.read, data)
            if facts["nfo"] and facts["nfo"]["password"]:
                facts["password"] = {"value": facts["nfo"]["password"], "source": "nfo"}
    # a 7z lists itself at its end: the tail candidate, or a volume's last article
    if facts["archive"] is None and (kind == "7z-tail" or
                                     (last and not first and _7Z_VOLUME.search(lower))):
        if facts["error"] is None:
            _section(facts, "archive", sevenz.read_tail, data)
    archive = facts["archive"]
    if archive is not None and archive["format"] == "7z" and archive["volume"] is None:
        volume = _7Z_VOLUME.search(lower)
        archive["volume"] = int(volume.group(1)) if volume else None
    if facts["error"] is None:
        if kind == "par2" and facts["par2"] is None:
            facts["error"] = "garbage"
        elif kind == "archive" and facts["archive"] is None and \
                not (first and data.startswith(sevenz.SIGNATURE)):
            facts["error"] = "garbage"
