"""Article bodies of the simulated Usenet, built on demand and byte-exact.

The generator describes every posted file in `<corpus>/bodies/files.jsonl`
(one JSON object a line: name, yenc_name, bytes, segments, kind, volume,
volumes, release, password, members, seed; gone when taken down). From that alone this module
makes any article of the file as a real yEnc part: the file's content comes
from a model (sim.bodyparts) that places real structures - RAR/7z/ZIP
headers, PAR2 packets, NFO text, media magic - over pseudo-random filler,
so nothing big is stored and a slice of a 50 GB file costs what the slice
costs. Message-ids not described get a synthetic yEnc body of about the
size the overview announced.

Public API (the NNTP server calls Bodies.body):

    Bodies(corpus_root).body(message_id, size_hint) -> bytes | None (None: gone, 430)
    Bodies(corpus_root).spec(message_id) -> (spec, part) | None
    Bodies(corpus_root).load()    index files.jsonl now instead of on first use
    part_count(spec), part_span(spec, part) -> (begin, end)
    file_bytes(spec, begin, end) -> bytes
    encode_part(spec, part) -> bytes
    synthetic_body(message_id, size_hint) -> bytes
    natural_bytes(spec), natural_set_bytes(spec), volume_sizes(spec, volume_size)
                        sizes that fit the content model exactly, for the generator
    FileView(spec)      a read-only seekable file over file_bytes, for real tools
"""
from __future__ import annotations

import hashlib
import io
import json
import threading
import zlib
from array import array
from bisect import bisect_left
from collections import OrderedDict
from pathlib import Path

import sabctools

from sim.bodyparts import (KINDS, file_bytes, file_crc32, layout_of, natural_set_bytes,
                           volume_sizes)

__all__ = ["Bodies", "FileView", "KINDS", "encode_part", "file_bytes", "layout_of",
           "natural_bytes", "natural_set_bytes", "part_count", "part_span", "synthetic_body",
           "volume_sizes", "yenc_part"]

LINE = 128          # sabctools.yenc_encode writes 128-character lines
CRLF = b"\r\n"


# --- parts -------------------------------------------------------------------------

def part_count(spec: dict) -> int:
    """How many parts the file was posted in: `parts` when given, else the
    highest part number among its segments (missing parts are still counted)."""
    if spec.get("parts"):
        return max(1, int(spec["parts"]))
    numbers = [int(s[0]) for s in spec.get("segments") or []]
    return max([len(numbers), *numbers, 1])


def part_span(spec: dict, part: int) -> tuple[int, int]:
    """Byte range [begin, end) of a part, 0-based, end exclusive (=ypart says
    begin+1 and end). Every part holds ceil(bytes/parts) bytes, the last the
    rest; a spec may fix `part_size` instead."""
    total = part_count(spec)
    if not 1 <= part <= total:
        raise ValueError(f"part {part} outside 1..{total}")
    size = max(0, int(spec.get("bytes") or 0))
    each = int(spec.get("part_size") or 0) or max(1, -(-size // total))
    return min(size, (part - 1) * each), min(size, part * each)


def yenc_part(data: bytes, name: str, part: int, total: int, size: int, begin: int,
              crc32: int | None = None) -> bytes:
    """A yEnc part body: =ybegin, =ypart, data lines, =yend (CRLF lines)."""
    encoded, pcrc = sabctools.yenc_encode(data) if data else (b"", 0)
    head = (f"=ybegin part={part} total={total} line={LINE} size={size} name=".encode()
            + name.encode("utf-8") + CRLF
            + f"=ypart begin={begin + 1} end={begin + len(data)}".encode() + CRLF)
    tail = f"=yend size={len(data)} part={part} pcrc32={pcrc:08x}"
    if crc32 is not None:
        tail += f" crc32={crc32:08x}"
    return head + (encoded + CRLF if encoded else b"") + tail.encode() + CRLF


def encode_part(spec: dict, part: int) -> bytes:
    """The yEnc body of one part of a described file."""
    begin, end = part_span(spec, part)
    total = part_count(spec)
    name = str(spec.get("yenc_name") or spec.get("name") or "file.bin")
    crc = file_crc32(spec) if part == total else None
    return yenc_part(file_bytes(spec, begin, end), name, part, total,
                     max(0, int(spec.get("bytes") or 0)), begin, crc)


def synthetic_body(message_id: str, size_hint: int) -> bytes:
    """A yEnc body for an article nobody described: about `size_hint` bytes
    (the overview's :bytes, headers included), its content and name derived
    from the message-id."""
    digest = hashlib.blake2b(message_id.encode("utf-8", "surrogateescape"), digest_size=16)
    seed = int.from_bytes(digest.digest()[:8], "little")
    name = digest.hexdigest()[:24] + ".bin"
    # encoded data grows by ~1.6% escapes and ~1.6% line ends; ~200 bytes of yEnc
    # lines and article headers are part of the hint
    size = max(0, int((max(0, int(size_hint or 0)) - 200) / 1.0325))
    spec = {"kind": "bin", "bytes": size, "seed": seed}
    data = file_bytes(spec, 0, size)
    return yenc_part(data, name, 1, 1, size, 0, zlib.crc32(data))


# --- natural sizes -------------------------------------------------------------------

def natural_bytes(spec: dict) -> int | None:
    """The size a file's structure has on its own, for a generator that wants
    sizes to match the content exactly: the NFO/SFV/NZB text, the par2 index
    packets, a par2vol named .volNN+MM, a single-volume archive with stored
    members. None where any size fits (media, multi-volume archives: see
    natural_set_bytes for a split 7z/zip's whole length)."""
    probe = dict(spec, bytes=max(1, int(spec.get("bytes") or 0)))
    return layout_of(probe).natural


# --- the corpus index ------------------------------------------------------------------

def _mid_hash(message_id: str) -> int:
    mid = message_id.strip()
    if mid.startswith("<") and mid.endswith(">"):
        mid = mid[1:-1]
    return int.from_bytes(hashlib.blake2b(mid.encode("utf-8", "surrogateescape"),
                                          digest_size=8).digest(), "little")


class Bodies:
    """The article bodies of one corpus. files.jsonl is indexed on first use:
    per segment 16 bytes (message-id hash, line number and part), per file 8
    (its line's offset); specs are parsed again on demand and kept in a small
    cache, so a corpus of millions of segments stays cheap to hold."""

    SPEC_CACHE = 256

    def __init__(self, corpus_root):
        self.root = Path(corpus_root)
        self.path = self.root / "bodies" / "files.jsonl"
        self._lock = threading.Lock()
        self._loaded = False
        self._hashes = array("Q")
        self._refs = array("Q")         # line << 24 | part
        self._offsets = array("Q")
        self._specs: OrderedDict[int, dict] = OrderedDict()

    def load(self) -> "Bodies":
        """Index files.jsonl now rather than on the first request."""
        if not self._loaded:
            self._load()
        return self

    def __len__(self) -> int:
        """Described articles (segments) in the index."""
        self.load()
        return len(self._hashes)

    def _load(self) -> None:
        with self._lock:
            if self._loaded:
                return
            keys = []
            if self.path.is_file():
                with open(self.path, "rb") as f:
                    offset = 0
                    for raw in f:
                        at, offset = offset, offset + len(raw)
                        if not raw.strip():
                            continue
                        try:
                            spec = json.loads(raw)
                        except ValueError:
                            continue        # a malformed line describes nothing
                        line = len(self._offsets)
                        self._offsets.append(at)
                        for seg in spec.get("segments") or []:
                            part = int(seg[0])
                            if 0 < part < 1 << 24:
                                keys.append((_mid_hash(str(seg[1])) << 64) | (line << 24) | part)
            keys.sort()
            mask = (1 << 64) - 1
            self._hashes = array("Q", (k >> 64 for k in keys))
            self._refs = array("Q", (k & mask for k in keys))
            self._loaded = True

    def _spec_at(self, line: int) -> dict:
        with self._lock:
            spec = self._specs.get(line)
            if spec is not None:
                self._specs.move_to_end(line)
                return spec
        with open(self.path, "rb") as f:
            f.seek(self._offsets[line])
            spec = json.loads(f.readline())
        with self._lock:
            self._specs[line] = spec
            while len(self._specs) > self.SPEC_CACHE:
                self._specs.popitem(last=False)
        return spec

    def spec(self, message_id: str) -> tuple[dict, int] | None:
        """(the file's spec, the part number) of a described article, or None.
        The spec dict is shared with a cache: read it, do not change it."""
        if not self._loaded:
            self._load()
        mid = message_id.strip()
        if mid.startswith("<") and mid.endswith(">"):
            mid = mid[1:-1]
        h = _mid_hash(mid)
        i = bisect_left(self._hashes, h)
        while i < len(self._hashes) and self._hashes[i] == h:
            ref = self._refs[i]
            spec, part = self._spec_at(ref >> 24), ref & 0xFFFFFF
            # a hash is not proof: the segment must carry this very message-id
            if any(int(s[0]) == part and str(s[1]) == mid for s in spec.get("segments") or []):
                return spec, part
            i += 1
        return None

    def body(self, message_id: str, size_hint: int) -> bytes | None:
        """The article body (CRLF lines, not dot-stuffed); None for a file
        taken down (its spec says gone: the overview lists it, BODY is 430)."""
        found = self.spec(message_id)
        if found is None:
            return synthetic_body(message_id.strip().strip("<>"), size_hint)
        if found[0].get("gone"):
            return None
        return encode_part(*found)


# --- a file object for real tools ----------------------------------------------------------

class FileView(io.RawIOBase):
    """A read-only, seekable view of a described file, so zipfile, rarfile
    and py7zr can read a multi-GB archive's headers without it existing."""

    def __init__(self, spec: dict):
        super().__init__()
        self._spec = spec
        self._size = max(0, int(spec.get("bytes") or 0))
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self._pos, 2: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buf) -> int:
        data = file_bytes(self._spec, self._pos, min(self._size, self._pos + len(buf)))
        buf[:len(data)] = data
        self._pos += len(data)
        return len(data)

    def read(self, n: int = -1) -> bytes:
        end = self._size if n is None or n < 0 else min(self._size, self._pos + n)
        data = file_bytes(self._spec, self._pos, end)
        self._pos += len(data)
        return data
