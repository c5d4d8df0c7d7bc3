# What Python calls in ext/window.pyx: the window over a group's overview lines.
from typing import Any, Iterator, Sequence

Segment = tuple[int, bytes, int]            # (part, message-id, article bytes)
Batch = dict[str, Any]                      # first_article, next_article, releases, pending, samples, retracted, counts

SNAPSHOT_VERSION: int
WINDOW_S: int
UPLOAD_GAP_S: int
PLAUSIBLE_S: int
FRONTIER_N: int
ESTABLISHED_N: int
TICK_ARTICLES: int
IDLE_ARTICLES: int
QUIET_TICKS: int
ALBUM_MAX_FILES: int
BATCH_COUNTER_TOTAL: int
BATCH_COUNTER_STARTS: int
BATCH_COUNTER_TICKS: int
SAMPLE_PERCENT: int
MALFORMED: tuple[str, ...]                  # ("malformed", reason) counts: lines skipped (ext.scan's)
MENDED: tuple[str, ...]                     # ("mended", reason) counts: lines kept after mend_line
DEFAULT_RULES: dict[str, Any]
TOOLS: tuple[str, ...]

def parse_subject_py(subject: bytes) -> dict[str, Any] | None: ...
def facts_of(name: bytes) -> tuple[bytes, int, int]: ...
def stem_of(name: bytes) -> bytes: ...
def identity_of(f: FileAgg) -> bytes: ...
def is_random(stem: bytes) -> bool: ...
def is_scrambled(name: bytes) -> bool: ...
def template_of(name: bytes) -> bytes: ...
def release_chunk(rec: dict[str, Any]) -> bytes: ...
def segments_of(packed: bytes) -> list[Segment]: ...

class SegmentSpool:
    BUFFER: int
    def __init__(self, directory: str | None = ...) -> None: ...
    @property
    def size(self) -> int: ...
    def put(self, data: bytes | bytearray) -> tuple[int, int]: ...
    def flush(self) -> None: ...
    def get(self, off: int, length: int) -> bytes: ...
    def drop(self, length: int) -> None: ...
    def content(self) -> bytes: ...
    def load(self, data: bytes) -> None: ...

class FileAgg:
    name: bytes
    poster: bytes
    rel: bytes
    xref: bytes
    N: int
    i: int
    P: int
    first_article: int
    last_article: int
    first_date: int
    last_date: int
    nbytes: int
    max_article: int
    nsegs: int
    distinct: int
    dupes: int
    tool: int
    segs: bytearray
    seen: int | bytearray
    ident: int
    spool_off: int
    spool_len: int
    def packed(self, spool: SegmentSpool | None) -> bytes: ...
    def segments(self, spool: SegmentSpool | None = ...) -> list[Segment]: ...

class Release:
    ident: int
    key_article: int
    first_date: int
    last_date: int
    first_article: int
    last_article: int
    N: int
    files: list[FileAgg]
    poster: bytes
    rel: bytes
    tool: int
    written: bool
    def __init__(self, ident: int, key_article: int, first: FileAgg) -> None: ...
    def join(self, f: FileAgg) -> None: ...
    def groups(self, own: bytes) -> set[bytes] | tuple[bytes]: ...
    def copy(self) -> Release: ...

class Window:
    group: bytes
    priority: int
    priorities: dict[bytes, int]
    rules: dict[str, Any]
    files: Any
    releases: Any
    lines: int
    malformed_lines: int
    spool: SegmentSpool | None
    def __init__(self, group: bytes, priorities: dict[bytes, int] | None = ..., rules: dict[str, Any] | None = ...,
                 spool: bool = ..., spool_dir: str | None = ...) -> None: ...
    def feed(self, text: bytes | bytearray, chunk_last: int = ..., chunk_first: int = ...) -> None: ...
    def compact(self) -> None: ...
    def take_batch(self) -> Batch: ...
    def finish_lease(self) -> Batch | None: ...
    def lease_end_batches(self, max_releases: int = ...) -> Iterator[Batch]: ...
    def flush(self) -> Batch | None: ...
    def flush_batches(self, max_releases: int = ...) -> Iterator[Batch]: ...
    def snapshot(self) -> bytes: ...
    @classmethod
    def restore(cls, data: bytes) -> Window: ...
    @property
    def open_files(self) -> int: ...
    @property
    def open_releases(self) -> int: ...
