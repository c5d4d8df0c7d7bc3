# What Python calls in ext/codec.pyx: the release chunk codec and the one NZB writer.
from typing import Iterable, Sequence

Segment = tuple[int, bytes, int]            # (part, message-id, article bytes)
File = tuple[bytes, int, Sequence[Segment]]  # (name, file bytes, segments)

ALPHABETS: tuple[bytes, ...]
CHUNKS: tuple[int, ...]
LIMITS: tuple[int, ...]
LEVEL: int
DICTIONARY: bytes
DOCTYPE: str
NAMESPACE: str

def encode(files: Iterable[File]) -> bytes: ...
def encode_packed(files: Iterable[tuple[bytes, int, bytes]]) -> bytes: ...
def decode(data: bytes | bytearray | memoryview) -> list[tuple[bytes, int, list[Segment]]]: ...
def text_of(b: bytes) -> str: ...
def decode_nzb(chunks: Iterable[bytes], head: bytes, file_open: bytes, file_groups: bytes) -> bytes: ...
def nzb(chunks: Iterable[bytes], title: str, poster: str, posted_at: int | None, groups: Sequence[str] | None,
        category: str | None = ..., password: str | None = ...) -> bytes: ...
