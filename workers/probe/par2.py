"""PAR2: the recovery set of an index file or a volume's first bytes.

A packet is a 64-byte header (magic, length, the MD5 of everything after
the MD5 field, the set id, the type) and its body. Every packet whose MD5
holds is read; the file descriptions name each protected file with its
size, the MD5 of its first 16 KiB and its whole MD5, which is how a renamed
file is known again. Recovery slices carry nothing to read: the walk stops
at a packet that runs past the bytes at hand.
"""
from __future__ import annotations

import hashlib
import struct

from ext.codec import text_of

from .errors import ProbeError

MAGIC = b"PAR2\x00PKT"
HEAD = 64
FILE_DESC = b"PAR 2.0\x00FileDesc"
CREATOR = b"PAR 2.0\x00Creator\x00"
MAIN = b"PAR 2.0\x00Main\x00\x00\x00\x00"
# packets we read are small; a recovery slice may be big but is only skipped
MAX_READ_PACKET = 16 << 20
MAX_PACKET = 1 << 40
MAX_FILES = 100_000
_LEN = struct.Struct("<Q")
_DESC = struct.Struct("<16s16s16sQ")


def text_of_field(raw: bytes) -> str:
    """A name or creator, padded with NULs to four bytes (UTF-8 as par2cmdline
    writes it, else Latin-1)."""
    return text_of(raw.rstrip(b"\x00"))


def read(data: bytes) -> dict:
    """{set_id, creator, files: [{file_id, name, size, md5_16k, md5}]} of the
    set the bytes start with. Raises ProbeError: garbage (no packet),
    par2-length (an impossible length), par2-md5 (a packet damaged),
    truncated (a description cut off), par2-recovery (nothing but a recovery
    slice: the set id alone); the files read before it go along."""
    view = memoryview(data)
    pos = data.find(MAGIC, 0, HEAD)
    if pos < 0:
        raise ProbeError("garbage")
    set_id = creator = seen_set = None
    files: dict[bytes, dict] = {}
    problem = damaged = None
    while pos + HEAD <= len(data):
        if view[pos:pos + 8] != MAGIC:
            # packets are contiguous: bytes between them are damage, read on past it
            nxt = data.find(MAGIC, pos)
            if nxt < 0:
                break
            damaged, pos = "garbage", nxt
            continue
        (length,) = _LEN.unpack_from(data, pos + 8)
        if length < HEAD or length % 4 or length > MAX_PACKET:
            problem = "par2-length"
            break
        ptype = bytes(view[pos + 48:pos + 64])
        seen_set = seen_set or bytes(view[pos + 32:pos + 48])
        readable = ptype in (FILE_DESC, CREATOR, MAIN)
        if readable and length > MAX_READ_PACKET:
            problem = "par2-length"
            break
        if pos + length > len(data):
            if ptype == FILE_DESC:
                problem = "truncated"
            break
        if readable:
            if hashlib.md5(view[pos + 32:pos + length]).digest() != view[pos + 16:pos + 32]:
                problem = "par2-md5"
                break
            packet_set = bytes(view[pos + 32:pos + 48])
            if set_id is None:
                set_id = packet_set
            if packet_set == set_id:
                body = view[pos + HEAD:pos + length]
                if ptype == FILE_DESC:
                    if len(body) < _DESC.size:
                        problem = "par2-length"
                        break
                    fid, md5, md5_16k, size = _DESC.unpack_from(body)
                    if fid not in files and len(files) < MAX_FILES:
                        files[fid] = {"file_id": fid.hex(), "name": text_of_field(bytes(body[_DESC.size:])),
                                      "size": size, "md5_16k": md5_16k.hex(), "md5": md5.hex()}
                elif ptype == CREATOR and creator is None:
                    creator = text_of_field(bytes(body))
        pos += length
    problem = problem or damaged
    if set_id is None and seen_set is not None and problem is None:
        # a volume starting with a recovery slice longer than the bytes at hand:
        # the set is known (from the packet's header, its MD5 unchecked), its files are not
        raise ProbeError("par2-recovery", par2={"set_id": seen_set.hex(), "creator": None, "files": []})
    if set_id is None:
        raise ProbeError(problem or "garbage")
    found = {"set_id": set_id.hex(), "creator": creator, "files": list(files.values())}
    if problem:
        raise ProbeError(problem, par2=found)
    return found
