"""RAR 4 and 5: the listing of a volume's first bytes, with rarfile.

rarfile walks the headers of a file object and copes with a volume cut
short: it lists what it reached and notes the rest as an unexpected end,
which for an article's worth of a multi-GB volume is the normal case (the
next header lies past the member's data). A header whose CRC fails stops
the walk and is reported. With encrypted headers (`rar -hp`) nothing but
the fact is readable: passworded, no names. A later volume lists the file
it continues (`continued`: its header is there, its start is not).
"""
from __future__ import annotations

import io

import rarfile

from .errors import ProbeError

RAR4 = b"Rar!\x1a\x07\x00"
RAR5 = b"Rar!\x1a\x07\x01\x00"
MAX_ENTRIES = 1000
MAIN_VOLUME, MAIN_FIRSTVOLUME = rarfile.RAR_MAIN_VOLUME, rarfile.RAR_MAIN_FIRSTVOLUME
MAIN_PASSWORD = rarfile.RAR_MAIN_PASSWORD


def sniff(data: bytes) -> str | None:
    if data.startswith(RAR5):
        return "rar5"
    if data.startswith(RAR4):
        return "rar4"
    return None


def read(data: bytes) -> dict:
    """The archive facts of a RAR volume's first bytes (see read_article).
    Raises ProbeError: garbage, truncated (not even the main header),
    rar-crc (a damaged header; the entries before it go along)."""
    fmt = sniff(data)
    if fmt is None:
        raise ProbeError("garbage")
    # a later volume's file header (split before) names the file it continues; rarfile
    # lists only files that start in the volume, so the headers are taken as it walks them
    continued: list = []

    def seen(h) -> None:
        if getattr(h, "flags", 0) & rarfile.RAR_FILE_SPLIT_BEFORE and getattr(h, "filename", None):
            continued.append(h)
    try:
        rf = rarfile.RarFile(io.BytesIO(data), part_only=True, info_callback=seen)
    except rarfile.NotRarFile as e:
        raise ProbeError("garbage") from e
    except (rarfile.BadRarFile, rarfile.NeedFirstVolume) as e:
        raise ProbeError("truncated") from e
    parser = rf._file_parser
    main = parser._main
    sealed = parser._hdrenc_main is not None or bool(main and main.flags & MAIN_PASSWORD)
    entries = [{"name": i.filename, "size": i.file_size, "encrypted": bool(i.needs_password())}
               for i in rf.infolist()[:MAX_ENTRIES] if not i.is_dir()]
    listed = {e["name"] for e in entries}
    entries += [{"name": h.filename, "size": h.file_size, "encrypted": bool(h.needs_password()), "continued": True}
                for h in continued[:MAX_ENTRIES - len(entries)] if h.filename not in listed and not h.is_dir()]
    volume = None
    if main is not None and main.flags & MAIN_VOLUME:
        number = getattr(main, "main_volume_number", None)
        if fmt == "rar5":
            volume = (number or 0) + 1      # RAR 5 leaves the first volume's number out
        elif main.flags & MAIN_FIRSTVOLUME:
            volume = 1
    found = {"format": fmt, "volume": volume,
             "solid": None if main is None else bool(rf.is_solid()),
             "encrypted_headers": sealed,
             "encrypted_files": sealed or any(e["encrypted"] for e in entries),
             "entries": entries}
    problem = parser._parse_error or ""
    if main is None and not sealed:
        raise ProbeError("truncated", archive=found)
    if "CRC" in problem:
        raise ProbeError("rar-crc", archive=found)
    if problem and "EOF" not in problem:
        raise ProbeError("garbage", archive=found)
    return found
