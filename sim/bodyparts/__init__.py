"""Helpers of sim.bodies: the content model of every kind of posted file.

`layout_of(spec)` builds (and caches) the structures a file holds;
`file_bytes(spec, begin, end)` renders any slice of it.
"""
from __future__ import annotations

from functools import lru_cache
import json
import zlib

from .layout import HASH_CHUNK, TRUE_HASH_LIMIT, Layout, content_key, filler, size_of
from .media import (build_avi, build_bin, build_exe, build_flac, build_jpg, build_mkv,
                    build_mp3, build_mp4, build_pdf)
from .par2 import build_par2, build_par2vol
from .rar import build_rar, rar_volume_sizes
from .sevenzip import build_7z, natural_7z_bytes
from .text import build_nfo, build_nzb, build_sfv
from .zipfmt import build_epub, build_zip, natural_zip_bytes

BUILDERS = {
    "rar": lambda s: build_rar(s, rar5=False),
    "rar5": lambda s: build_rar(s, rar5=True),
    "7z": build_7z,
    "zip": build_zip,
    "epub": build_epub,
    "par2": build_par2,
    "par2vol": build_par2vol,
    "nfo": build_nfo,
    "sfv": build_sfv,
    "nzb": build_nzb,
    "exe": build_exe,
    "mkv": build_mkv,
    "mp4": build_mp4,
    "avi": build_avi,
    "jpg": build_jpg,
    "mp3": build_mp3,
    "flac": build_flac,
    "pdf": build_pdf,
    "bin": build_bin,
}
KINDS = tuple(BUILDERS)


@lru_cache(maxsize=512)
def _layout(key: str) -> Layout:
    spec = json.loads(key)
    return BUILDERS.get(spec.get("kind") or "bin", build_bin)(spec)


def layout_of(spec: dict) -> Layout:
    """The structures of a file, shared by every spec with the same content."""
    return _layout(content_key(spec))


def file_bytes(spec: dict, begin: int, end: int) -> bytes:
    return layout_of(spec).render(begin, end)


def file_chunks(spec: dict, step: int = HASH_CHUNK):
    """The whole file, `step` bytes at a time: what hashing a file reads, so
    no file is ever held whole."""
    layout, size = layout_of(spec), size_of(spec)
    for pos in range(0, size, step):
        yield layout.render(pos, min(size, pos + step))


@lru_cache(maxsize=1024)
def _crc32_of(key: str) -> int:
    crc = 0
    for chunk in file_chunks(json.loads(key)):
        crc = zlib.crc32(chunk, crc)
    return crc


def file_crc32(spec: dict) -> int | None:
    """The CRC32 of a whole file as served (an SFV line, yEnc's =yend crc32),
    None past TRUE_HASH_LIMIT."""
    if size_of(spec) > TRUE_HASH_LIMIT:
        return None
    return _crc32_of(content_key(spec))


def natural_set_bytes(spec: dict) -> int | None:
    """The whole length of a 7z or zip archive with stored members (all its
    volumes together)."""
    kind = spec.get("kind")
    if kind == "7z":
        return natural_7z_bytes(spec)
    if kind == "zip":
        return natural_zip_bytes(spec)
    return None


def volume_sizes(spec: dict, volume_size: int) -> list[int]:
    """Byte sizes of the volumes an archiver splitting at volume_size would
    write for this spec's members, so that the volumes built from them meet
    exactly: every volume volume_size bytes, the last what remains."""
    if spec.get("kind") in ("rar", "rar5"):
        return rar_volume_sizes(spec, volume_size)
    total = natural_set_bytes(spec)
    if total is None:
        raise ValueError(f"{spec.get('kind')!r} is not split in volumes")
    n = max(1, -(-total // volume_size))
    return [volume_size] * (n - 1) + [total - (n - 1) * volume_size]


__all__ = ["BUILDERS", "KINDS", "TRUE_HASH_LIMIT", "Layout", "file_bytes", "file_chunks",
           "file_crc32", "filler", "layout_of", "natural_set_bytes", "volume_sizes"]
