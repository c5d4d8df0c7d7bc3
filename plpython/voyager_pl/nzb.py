"""NZB 1.1 of a release in the database's own Python (voyager.nzb_from_chunk,
voyager.nzb_from_chunks): the compiled codec's one NZB writer, which the
set-up installs beside this package as voyager_pl_ext (the web's downloads
call the same writer, so voyager.nzb() and t=get give the same bytes)."""
from __future__ import annotations

from voyager_pl_ext.codec import nzb


def build(chunk: bytes, title: str, poster: str, posted_at: int | None, groups: list,
          category: str | None = None, password: str | None = None) -> str:
    """The NZB of a release of one chunk."""
    return build_chunks((chunk,), title, poster, posted_at, groups, category, password)


def build_chunks(chunks: list, title: str, poster: str, posted_at: int | None, groups: list,
                 category: str | None = None, password: str | None = None) -> str:
    """The NZB of a release whose files come from these chunks, in their order."""
    return nzb([bytes(c) for c in chunks or ()], title, poster, posted_at, groups, category, password).decode("utf-8")
