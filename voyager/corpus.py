"""The corpus layout (interface version 1).

    <corpus>/groups.json                    [{"name", "low", "high", "priority"}]
    <corpus>/<group>/<start>-<end>/<first>-<last>.zz    zlib of the overview lines
    <corpus>/<group>/<start>-<end>/range.json           written last
    <corpus>/truth.jsonl                    generated corpora: the ground truth
    <corpus>/bodies/                        optional article bodies (sim.bodies)

The reader and the writer are the worker's (ranges read from a corpus
instead of the news server, `capture` ranges written into one), and the
simulator's server and generator, the replay and the benchmarks use them.
"""
from __future__ import annotations

import json
import os
import zlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

CRLF = b"\r\n"


@dataclass(frozen=True)
class ChunkInfo:
    first: int
    last: int
    lines: int
    bytes: int
    path: Path

    def read(self) -> bytes:
        """The chunk file: a zlib stream (RFC 1950)."""
        return self.path.read_bytes()

    def text(self) -> bytes:
        return zlib.decompress(self.read())

    def overview_lines(self) -> list[bytes]:
        """The chunk's overview lines as stored (order kept), without CRLF."""
        data = self.text()
        if not data:
            return []
        if data.endswith(CRLF):
            data = data[:-2]
        return data.split(CRLF)


@dataclass
class RangeInfo:
    group: str
    start: int
    end: int
    filtered: bool
    chunks: list[ChunkInfo]
    path: Path
    extra: dict = field(default_factory=dict)

    @property
    def lines(self) -> int:
        return sum(c.lines for c in self.chunks)


def line_number(line: bytes) -> int | None:
    """The article number of an overview line (its first field), or None."""
    tab = line.find(b"\t")
    head = line if tab < 0 else line[:tab]
    if head.isdigit():
        return int(head)
    return None


class Corpus:
    """A corpus on disk, read only. Ranges without range.json are incomplete
    and not listed."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)
        if not self.root.is_dir():
            raise FileNotFoundError(f"{self.root}: no such corpus folder")
        self._ranges: dict[str, list[RangeInfo]] = {}

    # -- groups -------------------------------------------------------------
    def group_names(self) -> list[str]:
        names = []
        for p in sorted(self.root.iterdir()):
            if p.is_dir() and p.name not in ("bodies",) and not p.name.startswith("."):
                names.append(p.name)
        return names

    def groups(self) -> list[dict]:
        """What LIST ACTIVE would say: groups.json when present, else the
        watermarks derived from the stored ranges (priority by name order)."""
        gj = self.root / "groups.json"
        if gj.exists():
            return json.loads(gj.read_text())
        out = []
        for i, name in enumerate(self.group_names(), 1):
            rs = self.ranges(name)
            if not rs:
                continue
            out.append({"name": name, "low": rs[0].start, "high": rs[-1].end, "priority": i})
        return out

    def priorities(self) -> dict[str, int]:
        """Each group's priority number (the owner rule's): groups.json's, else its place."""
        return {g["name"]: g.get("priority", i) for i, g in enumerate(self.groups(), 1)}

    # -- ranges and chunks --------------------------------------------------
    def ranges(self, group: str) -> list[RangeInfo]:
        """The group's complete ranges in article order."""
        if group in self._ranges:
            return self._ranges[group]
        gdir = self.root / group
        out: list[RangeInfo] = []
        if gdir.is_dir():
            for rdir in gdir.iterdir():
                meta = rdir / "range.json"
                if not meta.exists():
                    continue
                out.append(read_range(meta))
        out.sort(key=lambda r: r.start)
        self._ranges[group] = out
        return out

    def chunks(self, group: str, first: int = 1, last: int | None = None) -> Iterator[ChunkInfo]:
        """Chunks whose span overlaps first..last, in article order."""
        for r in self.ranges(group):
            if last is not None and r.start > last:
                break
            if r.end < first:
                continue
            for c in r.chunks:
                if c.last < first or (last is not None and c.first > last):
                    continue
                yield c

    def lines(self, group: str, first: int, last: int) -> Iterator[bytes]:
        """Overview lines of articles first..last as stored (a chunk's order
        kept). A line whose number does not parse is served with its chunk
        when the request covers that whole chunk."""
        for c in self.chunks(group, first, last):
            whole = first <= c.first and c.last <= last
            for line in c.overview_lines():
                n = line_number(line)
                if n is None:
                    if whole:
                        yield line
                elif first <= n <= last:
                    yield line

    def truth(self) -> Iterator[dict]:
        path = self.root / "truth.jsonl"
        if not path.exists():
            return
        with open(path, "rb") as fh:
            for raw in fh:
                if raw.strip():
                    yield json.loads(raw)


def truth_message_ids(upload: dict) -> frozenset:
    """The message-ids of a truth upload: what it is matched to catalog releases by."""
    return frozenset(s[1] for f in upload["files"] for s in f["segments"])


def read_range(meta: Path) -> RangeInfo:
    info = json.loads(meta.read_text())
    rdir = meta.parent
    chunks = [ChunkInfo(first=c["first"], last=c["last"], lines=c["lines"], bytes=c["bytes"],
                        path=rdir / f"{c['first']}-{c['last']}.zz") for c in info["chunks"]]
    chunks.sort(key=lambda c: c.first)
    extra = {k: v for k, v in info.items() if k not in ("group", "start", "end", "filtered", "chunks")}
    return RangeInfo(group=info["group"], start=info["start"], end=info["end"],
                     filtered=bool(info.get("filtered", False)), chunks=chunks, path=rdir, extra=extra)


class CorpusWriter:
    """Writes a corpus: chunk files first, range.json last (a reader never
    sees a half-written range as complete)."""

    def __init__(self, root: str | os.PathLike, level: int = 6):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.level = level

    def write_groups(self, groups: list[dict]) -> None:
        _atomic_write(self.root / "groups.json", json.dumps(groups, indent=1).encode() + b"\n")

    def write_range(self, group: str, start: int, end: int,
                    chunks: Iterable[tuple[int, int, list[bytes]]], filtered: bool = False) -> RangeInfo:
        """chunks: (first, last, overview lines without CRLF) in article order."""
        rdir = self.root / group / f"{start}-{end}"
        rdir.mkdir(parents=True, exist_ok=True)
        meta = []
        chunks = list(chunks)

        def pack(lines: list[bytes]) -> bytes:
            return zlib.compress(b"".join(line + CRLF for line in lines), self.level)

        # zlib lets go of the GIL: the chunks of a range compress side by side
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            packed = list(pool.map(pack, (lines for _f, _l, lines in chunks)))
        for (first, last, lines), data in zip(chunks, packed):
            path = rdir / f"{first}-{last}.zz"
            _atomic_write(path, data)
            meta.append({"first": first, "last": last, "lines": len(lines), "bytes": len(data)})
        _atomic_write(rdir / "range.json", json.dumps(
            {"group": group, "start": start, "end": end, "filtered": filtered, "chunks": meta}).encode())
        return read_range(rdir / "range.json")


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
