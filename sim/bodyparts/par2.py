"""PAR2 files: the index (`par2`) and recovery volumes (`par2vol`).

Real packets ("PAR2\\0PKT", length, MD5 of the packet body, recovery set id,
type): Main, a File Description for every protected file, IFSC (slice
checksums), Creator; a par2vol adds Recovery Slice packets after the same
metadata. What phase 2 matches renamed files with is exact: the file id and
the MD5 of the first 16 KiB are computed from the protected file's content
as this model makes it (file_bytes of the member spec).

The full-file MD5s and the IFSC entries are hashed from the bytes served, so
par2cmdline verifies a downloaded set, when the protected files total at
most TRUE_HASH_LIMIT (and a file of at most EXACT_LIMIT in any set); past
it they are derived from the seed instead (a GB set costs nothing). The
recovery data is filler, not Reed-Solomon output, but each Recovery Slice
packet's MD5 is true in such a set, so a verifier counts the blocks (a
repair would make garbage, a verify never repairs).
"""
from __future__ import annotations

import hashlib
import json
import re
import zlib
from functools import lru_cache

from .layout import (HASH_CHUNK, Builder, Layout, content_key, derived, hashed, seed_of, size_of,
                     text_seed, u32, u64, volume_of, filler)

MAGIC = b"PAR2\x00PKT"
MAIN = b"PAR 2.0\x00Main\x00\x00\x00\x00"
FILE_DESC = b"PAR 2.0\x00FileDesc"
IFSC = b"PAR 2.0\x00IFSC\x00\x00\x00\x00"
CREATOR = b"PAR 2.0\x00Creator\x00"
RECOVERY = b"PAR 2.0\x00RecvSlic"
CREATOR_TEXT = b"Voyager sim"
HEAD = 64
VOL_NAME = re.compile(r"\.vol(\d+)\+(\d+)\.par2$", re.IGNORECASE)


def pad4(data: bytes) -> bytes:
    return data + b"\x00" * (-len(data) % 4)


def packet(set_id: bytes, ptype: bytes, body: bytes, md5: bytes | None = None) -> bytes:
    body = pad4(body)
    if md5 is None:
        md5 = hashlib.md5(set_id + ptype + body).digest()
    return MAGIC + u64(HEAD + len(body)) + md5 + set_id + ptype + body


def file_id(hash16k: bytes, size: int, name: str) -> bytes:
    return hashlib.md5(hash16k + u64(size) + name.encode("utf-8")).digest()


def slice_size_of(spec: dict, members: list[dict]) -> int:
    if spec.get("slice_size"):
        return int(spec["slice_size"]) // 4 * 4 or 4
    total = sum(max(0, int(m.get("bytes") or 0)) for m in members)
    per = -(-total // 2000)                 # about 2000 slices, as par2cmdline aims for
    return max(4096, -(-per // 4) * 4)      # a multiple of 4


def describe(member: dict, slice_size: int, set_total: int):
    """(file id, file description body, IFSC body) of one protected file of a
    set of `set_total` bytes."""
    from . import file_bytes       # the member's own content model
    name = str(member.get("name") or "")
    size = max(0, int(member.get("bytes") or 0))
    hash16k = hashlib.md5(file_bytes(member, 0, min(16384, size))).digest()
    fid = file_id(hash16k, size, name)
    if hashed(size, set_total):
        full, entries = file_hashes(content_key(member), slice_size)
    else:
        fake = text_seed(content_key(member))
        full = derived(fake, "par2-md5", 16)
        entries = hashlib.shake_128(b"voyager:ifsc:%d" % fake).digest(20 * -(-size // slice_size))
    desc = fid + full + hash16k + u64(size) + pad4(name.encode("utf-8"))
    return fid, desc, fid + entries


@lru_cache(maxsize=1024)
def file_hashes(key: str, slice_size: int) -> tuple[bytes, bytes]:
    """(MD5 of the whole file, IFSC entries: MD5 and CRC32 of each slice, the
    last padded with zeros) of the file with this content key, read a chunk
    of whole slices at a time; the index and every volume of a set ask."""
    from . import file_chunks
    full, entries = hashlib.md5(), bytearray()
    for chunk in file_chunks(json.loads(key), max(1, HASH_CHUNK // slice_size) * slice_size):
        full.update(chunk)
        for at in range(0, len(chunk), slice_size):
            piece = chunk[at:at + slice_size]
            if len(piece) < slice_size:
                piece = piece.ljust(slice_size, b"\x00")
            entries += hashlib.md5(piece).digest() + u32(zlib.crc32(piece))
    return full.digest(), bytes(entries)


def inherit_release(spec: dict) -> list[dict]:
    """The protected files' specs; one that leaves its release out is of the
    same upload as the par2 file, whose content (mkv title, NFO text, archive
    times) depends on it."""
    return [m if m.get("release") else dict(m, release=spec.get("release"))
            for m in spec.get("members") or [] if isinstance(m, dict)]


def set_total(members: list[dict]) -> int:
    return sum(max(0, int(m.get("bytes") or 0)) for m in members)


def recovery_set(spec: dict):
    """(set id, critical packets in order, slice size) shared by the index and
    every recovery volume of the set."""
    members = inherit_release(spec)
    slice_size = slice_size_of(spec, members)
    total = set_total(members)
    described = sorted((describe(m, slice_size, total) for m in members), key=lambda d: d[0])
    main = u64(slice_size) + u32(len(described)) + b"".join(d[0] for d in described)
    set_id = hashlib.md5(main).digest()
    # Main and the descriptions first: a short index file loses IFSC first
    packets = [packet(set_id, MAIN, main)]
    packets += [packet(set_id, FILE_DESC, d[1]) for d in described]
    packets.append(packet(set_id, CREATOR, CREATOR_TEXT))
    packets += [packet(set_id, IFSC, d[2]) for d in described]
    return set_id, packets, slice_size


def build_par2(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    set_id, packets, slice_size = recovery_set(spec)
    critical = b"".join(packets)
    out = Builder()
    out.put(critical)
    # a bigger index repeats the packets, as par2 writers do in volumes
    while critical and out.pos + len(critical) <= size:
        out.put(critical)
    return Layout(size, seed, out.pieces, natural=len(critical),
                  info={"set_id": set_id, "slice_size": slice_size})


def build_par2vol(spec: dict) -> Layout:
    size, seed = size_of(spec), seed_of(spec)
    set_id, packets, slice_size = recovery_set(spec)
    critical = b"".join(packets)
    out = Builder()
    out.put(critical)
    each = HEAD + 4 + slice_size
    named = VOL_NAME.search(str(spec.get("name") or spec.get("yenc_name") or ""))
    fits = max(0, -(-(size - out.pos) // each))
    if named:
        first, count = int(named.group(1)), int(named.group(2))
    else:
        k, _ = volume_of(spec)
        first, count = (k - 1) * max(1, fits), fits
    exact = hashed(min(count, fits) * slice_size, set_total(inherit_release(spec)))
    for i in range(min(count, fits)):
        exponent = u32(first + i)
        data_at = out.pos + HEAD + 4
        data = filler(seed, data_at, data_at + slice_size) if exact else b""
        md5 = hashlib.md5(set_id + RECOVERY + exponent + data).digest() if exact else \
            derived(seed, f"par2-recovery:{i}", 16)
        head = MAGIC + u64(each) + md5 + set_id + RECOVERY + exponent
        out.put(head)
        out.skip(slice_size)
    return Layout(size, seed, out.pieces,
                  natural=len(critical) + count * each if named else None,
                  info={"set_id": set_id, "slice_size": slice_size, "first_exponent": first,
                        "recovery_packets": min(count, fits)})
