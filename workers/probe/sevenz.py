"""7z: the listing in the archive's end header, read from the archive's tail
(or from its first bytes when the whole archive fits in them).

The signature header at the start says where the end header is; the tail
article does not hold it, so the end header is found from the tail: the
last bytes that parse as a whole header ending exactly at the archive's
end. 7-Zip packs that header (LZMA) and writes it just before a small
encoded header that points at it, so an encoded header found in the tail
also says where its packed bytes lie. py7zr parses both, unpacks the packed
one and checks its CRC; with an encrypted header (`7z -mhe`) it asks for a
password, which means passworded without names.
"""
from __future__ import annotations

import io
import struct
import zlib

import py7zr
from py7zr import archiveinfo, exceptions

from .errors import ProbeError

SIGNATURE = b"7z\xbc\xaf\x27\x1c"
START_HEADER = 32
K_HEADER, K_ENCODED_HEADER = 0x01, 0x17
K_ARCHIVE_PROPERTIES, K_FILES_INFO = 0x02, 0x05
AES = b"\x06\xf1\x07\x01"
ATTR_DIRECTORY = 0x10
MAX_ENTRIES = 1000
ENCODED_SCAN = 4096         # an encoded header is some 40 bytes (more with AES)
MAX_HEADER = 16 << 20      # an end header unpacked: 7-Zip's for ~100,000 files
MAX_TRIALS = 64             # places tried as a header's start, whatever the bytes hold
_TAIL = struct.Struct("<QQI")


class _Window(io.RawIOBase):
    """The bytes at hand placed at their offset in the archive, for py7zr's
    seeks; anything outside them reads as the end of the file."""

    def __init__(self, data: bytes, base: int):
        super().__init__()
        self._data, self._base, self._pos = data, base, 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        base = {0: 0, 1: self._pos, 2: self._base + len(self._data)}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def tell(self) -> int:
        return self._pos

    def read(self, n: int = -1) -> bytes:
        lo = self._pos - self._base
        if lo < 0:
            return b""
        hi = len(self._data) if n is None or n < 0 else min(len(self._data), lo + n)
        out = self._data[lo:hi]
        self._pos += len(out)
        return out

    def readinto(self, buf) -> int:
        out = self.read(len(buf))
        buf[:len(out)] = out
        return len(out)


def read_start(data: bytes) -> dict | None:
    """The listing when the first bytes hold the whole archive, else None
    (the end header is in the tail). Raises ProbeError: garbage,
    truncated, 7z-crc (the signature header or end header damaged)."""
    if not data.startswith(SIGNATURE):
        raise ProbeError("garbage")
    if len(data) < START_HEADER:
        raise ProbeError("truncated")
    (crc,) = struct.unpack_from("<I", data, 8)
    if zlib.crc32(data[12:START_HEADER]) != crc:
        raise ProbeError("7z-crc")
    offset, size, header_crc = _TAIL.unpack_from(data, 12)
    at = START_HEADER + offset
    if at + size > len(data):
        return None
    header = data[at:at + size]
    if zlib.crc32(header) != header_crc:
        raise ProbeError("7z-crc")
    return _listing(data, 0, header)


def read_tail(data: bytes) -> dict:
    """The listing from the archive's last bytes. Raises ProbeError: garbage
    (no end header found), 7z-crc (its packed header does not unpack to its
    CRC), lzma (its packing unreadable)."""
    problem = None
    end = len(data)
    trials = 0
    for at in range(end - 2, max(-1, end - ENCODED_SCAN), -1):
        if data[at] != K_ENCODED_HEADER or data[at + 1] != 0x06:     # kPackInfo follows
            continue
        trials += 1
        if trials > MAX_TRIALS:
            break
        buf = io.BytesIO(data[at + 1:])
        try:
            streams = archiveinfo.HeaderStreamsInfo.retrieve(buf)
        except Exception:
            continue
        if buf.tell() != end - at - 1 or not streams.packinfo.packsizes:
            continue
        # the packed header ends where the encoded header starts
        packed = sum(streams.packinfo.packsizes)
        if packed > at:
            # it begins in an earlier article: a tail this short holds only its end
            problem = ProbeError("truncated")
            continue
        base = START_HEADER + streams.packinfo.packpos + packed - at
        try:
            return _listing(data, base, data[at:])
        except ProbeError as e:
            problem = e
    trials = 0
    for at in range(end - 2, -1, -1):
        if data[at] != K_HEADER or not K_ARCHIVE_PROPERTIES <= data[at + 1] <= K_FILES_INFO:
            continue
        trials += 1
        if trials > MAX_TRIALS:
            break
        try:
            return _listing(data, None, data[at:], whole=True)
        except ProbeError:
            continue
    raise problem or ProbeError("garbage")


def _listing(data: bytes, base: int | None, header: bytes, whole: bool = False) -> dict:
    """The facts of one end header (plain or encoded). `base` places the
    bytes in the archive for an encoded header's packed stream; `whole`
    asks a plain header to end exactly at the bytes' end."""
    if header[:1] == bytes([K_ENCODED_HEADER]):
        # what the packed header unpacks to is bounded before anything is unpacked
        try:
            streams = archiveinfo.HeaderStreamsInfo.retrieve(io.BytesIO(header[1:]))
            unpacked = sum(f.get_unpack_size() for f in streams.unpackinfo.folders)
        except Exception as e:
            raise ProbeError("garbage") from e
        if unpacked > MAX_HEADER:
            raise ProbeError("7z-length")
    buf = io.BytesIO(header)
    try:
        parsed = archiveinfo.Header.retrieve(_Window(data, base or 0), buf, START_HEADER)
    except exceptions.PasswordRequired:
        return {"format": "7z", "volume": None, "solid": None, "encrypted_headers": True,
                "encrypted_files": True, "entries": []}
    except (exceptions.UnsupportedCompressionMethodError, py7zr.exceptions.DecompressionError) as e:
        raise ProbeError("lzma") from e
    except Exception as e:
        raise ProbeError("7z-crc" if "invalid block data" in str(e) else "garbage") from e
    if whole and (header[0] != K_HEADER or buf.tell() != len(header)):
        raise ProbeError("garbage")
    if parsed.files_info is None:
        raise ProbeError("garbage")
    folders, sizes, per_folder = [], [], []
    streams = parsed.main_streams
    if streams is not None and streams.unpackinfo is not None:
        folders = streams.unpackinfo.folders or []
        sub = streams.substreamsinfo
        per_folder = (sub.num_unpackstreams_folders if sub is not None else None) or [1] * len(folders)
        if sub is not None and sub.unpacksizes is not None:
            sizes = list(sub.unpacksizes)
        else:
            sizes = [f.get_unpack_size() for f in folders]
    # which folder each stream is in, for its encryption
    stream_folder = [i for i, n in enumerate(per_folder) for _ in range(n)]
    sealed = [any(c.get("method") == AES for c in f.coders) for f in folders]
    entries, stream = [], 0
    for f in parsed.files_info.files:
        empty = f.get("emptystream", False)
        size = None if empty else (sizes[stream] if stream < len(sizes) else None)
        folder = stream_folder[stream] if not empty and stream < len(stream_folder) else None
        if not empty:
            stream += 1
        if (f.get("attributes") or 0) & ATTR_DIRECTORY or "filename" not in f:
            continue
        if len(entries) < MAX_ENTRIES:
            entries.append({"name": f["filename"], "size": 0 if empty else size,
                            "encrypted": folder is not None and sealed[folder]})
    return {"format": "7z", "volume": None, "solid": any(n > 1 for n in per_folder),
            "encrypted_headers": False, "encrypted_files": any(sealed),
            "entries": entries}
