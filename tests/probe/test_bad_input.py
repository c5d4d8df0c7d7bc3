"""workers.probe on bad input: every damaged body gives `error` with what was
wrong and keeps what was sound; fuzzing every reader with mutated real
headers finds no exception, no hang and no memory beyond the bound."""
from __future__ import annotations

import hashlib
import struct
import time
import tracemalloc
import zlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from sim.bodies import encode_part, file_bytes, yenc_part
from workers.probe import MAX_BODY, ProbeError, media, nfo, par2, rar, read_article, sevenz
from workers.probe import zip as zipfmt

from .test_sim_bodies import SHAPES, target


def body_of(data: bytes, name: str = "x.bin") -> bytes:
    return yenc_part(data, name, 1, 1, len(data), 0, zlib.crc32(data))


def plain_encode(data: bytes) -> bytes:
    """yEnc as a careless poster writes it: only the critical bytes escaped,
    so lines may start with a dot (which NNTP then stuffs and unstuffs)."""
    out, line = bytearray(), bytearray()
    for b in data:
        c = (b + 42) & 0xFF
        if c in (0, 10, 13, 61):
            line += bytes([61, (c + 64) & 0xFF])
        else:
            line.append(c)
        if len(line) >= 128:
            out += line + b"\r\n"
            line = bytearray()
    if line:
        out += line + b"\r\n"
    return bytes(out)


def test_yenc_crc_and_missing_and_cut():
    data = file_bytes(SHAPES["par2"], 0, 40_000)
    body = bytearray(body_of(data, "a.par2"))
    body[5000] = ord("A") if body[5000] != ord("A") else ord("B")
    bad = read_article("par2", "a.par2", bytes(body))
    assert bad["error"] == "yenc-crc" and bad["yenc"]["name"] == "a.par2"
    assert bad["yenc"]["crc_ok"] is False and bad["par2"] is None and bad["start"] is None
    assert read_article("lone", "t.txt", b"just some text\r\nno yenc here\r\n")["error"] == "yenc-missing"
    assert read_article("lone", "t", b"")["error"] == "yenc-missing"
    # cut short by the server: what the bytes hold is still read, the cut is said
    cut = read_article("par2", "a.par2", body_of(data, "a.par2")[:30_000])
    assert cut["error"] == "yenc-end"
    assert cut["par2"] is not None and cut["par2"]["files"]


def test_utf8_names():
    data = b"x" * 100
    body = body_of(data, "Caf\u00e9.\u00c9t\u00e9.2024.mkv")
    assert read_article("lone", "f", body)["yenc"]["name"] == "Caf\u00e9.\u00c9t\u00e9.2024.mkv"
    latin = body.replace("Caf\u00e9".encode(), b"Caf\xe9")
    assert read_article("lone", "f", latin)["yenc"]["name"].startswith("Caf\u00e9.")


def test_lines_starting_with_a_dot():
    data = bytes([4]) * 300 + bytes(range(256)) * 50      # byte 4 encodes to "."
    enc = plain_encode(data)
    assert b"\r\n." in enc
    body = (b"=ybegin line=128 size=%d name=dots.bin\r\n" % len(data) + enc
            + b"=yend size=%d crc32=%08x\r\n" % (len(data), zlib.crc32(data)))
    facts = read_article("lone", "dots.bin", body)
    assert facts["error"] is None and facts["yenc"]["crc_ok"]
    assert facts["start"]["md5_16k"] == hashlib.md5(data[:16384]).hexdigest()


def test_a_line_of_one_dot():
    """A data line that is "." alone: in NNTP it would end the body, so the
    server stuffed it and the prober's client unstuffed it again."""
    enc = b"k" * 128 + b"\r\n" + b".\r\n" + b"k" * 128 + b"\r\n"
    data = b"A" * 128 + b"\x04" + b"A" * 128
    body = (b"=ybegin line=128 size=257 name=one.bin\r\n" + enc
            + b"=yend size=257 crc32=%08x\r\n" % zlib.crc32(data))
    facts = read_article("lone", "one.bin", body)
    assert facts["error"] is None and facts["yenc"]["crc_ok"] and facts["start"]["size"] == 257
    assert facts["start"]["md5_16k"] == hashlib.md5(data).hexdigest()


def test_too_large_is_refused_before_decoding():
    facts = read_article("lone", "big", b"=ybegin " + b"x" * 100, cap=64)
    assert facts["error"] == "too-large" and facts["yenc"] is None
    assert MAX_BODY >= 4 << 20


def par2_index() -> bytes:
    return file_bytes(SHAPES["par2"], 0, 40_000)


def test_par2_wrong_md5_and_absurd_length():
    data = bytearray(par2_index())
    # the second packet is a file description: damage its name
    (first_len,) = struct.unpack_from("<Q", data, 8)
    data[first_len + 64 + 60] ^= 0x20
    facts = read_article("par2", "a.par2", body_of(bytes(data)))
    assert facts["error"] == "par2-md5"
    absurd = bytearray(par2_index())
    struct.pack_into("<Q", absurd, 8, 1 << 62)
    assert read_article("par2", "a.par2", body_of(bytes(absurd)))["error"] == "par2-length"
    odd = bytearray(par2_index())
    struct.pack_into("<Q", odd, 8, 63)
    assert read_article("par2", "a.par2", body_of(bytes(odd)))["error"] == "par2-length"


def test_garbage_and_truncated_archives():
    assert read_article("archive", "a.rar", body_of(b"Rar!\x1a\x07\x01\x00" + bytes(5)))["error"]
    rar_start = file_bytes(SHAPES["rar5"], 0, 4096)
    damaged = bytearray(rar_start)
    damaged[20] ^= 0xFF     # inside the main header: its CRC fails
    assert read_article("archive", "a.rar", body_of(bytes(damaged)))["error"] in ("rar-crc", "truncated")
    assert read_article("archive", "a.rar", body_of(rar_start[:10]))["error"] == "truncated"
    assert read_article("archive", "a.zip", body_of(b"PK\x03\x04" + bytes(10)))["error"] == "truncated"
    assert read_article("archive", "x", body_of(bytes(range(256)) * 40))["error"] == "garbage"
    assert read_article("7z-tail", "a.7z.003", body_of(bytes(range(256)) * 40))["error"] == "garbage"
    seven = file_bytes(SHAPES["7z-one"], 0, 3_000_000)
    bad = bytearray(seven)
    bad[10] ^= 1
    assert read_article("archive", "a.7z", body_of(bytes(bad)))["error"] == "7z-crc"


def test_nfo_of_random_bytes():
    rnd = hashlib.shake_128(b"nfo").digest(4000)
    facts = read_article("nfo", "x.nfo", body_of(rnd, "x.nfo"))
    assert facts["error"] == "nfo-binary" and facts["nfo"] is None and facts["password"] is None


# --- fuzzing ---------------------------------------------------------------------------

def seeds() -> dict[str, bytes]:
    """Real headers: the first (or, for 7z, the last) bytes of each shape."""
    out = {}
    for name, spec in SHAPES.items():
        kind, part = target(spec)
        size = int(spec["bytes"])
        out[name] = (file_bytes(spec, max(0, size - 8192), size) if kind == "7z-tail"
                     else file_bytes(spec, 0, min(size, 8192)))
    return out


SEEDS = seeds()
READERS = [par2.read, rar.read, sevenz.read_start, sevenz.read_tail, zipfmt.read, nfo.read, media.read]
MEMORY = 32 << 20           # what one reader may take for an 8 KiB input, at most


@st.composite
def mutated(draw):
    data = bytearray(SEEDS[draw(st.sampled_from(sorted(SEEDS)))])
    for _ in range(draw(st.integers(0, 8))):
        op = draw(st.integers(0, 3))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if op == 0 and data:
            data[at] = draw(st.integers(0, 255))
        elif op == 1:
            data[at:at] = draw(st.binary(max_size=16))
        elif op == 2:
            del data[at:at + draw(st.integers(1, 64))]
        else:
            struct.pack_into("<I", data, min(at, max(0, len(data) - 4)),
                             draw(st.sampled_from([0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 64, 1 << 20]))) \
                if len(data) >= 4 else None
    if draw(st.booleans()):
        data = data[:draw(st.integers(0, len(data)))]
    return bytes(data)


def bounded(call, *args):
    tracemalloc.start()
    began = time.process_time()
    try:
        return call(*args)
    except ProbeError:
        return None
    finally:
        spent = time.process_time() - began
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert spent < 2.0, (call, spent)
        assert peak < MEMORY, (call, peak)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzz_readers(data):
    for reader in READERS:
        bounded(reader, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), st.sampled_from(["archive", "par2", "lone", "7z-tail", "nfo", "media"]))
def test_fuzz_read_article(data, kind):
    facts = bounded(read_article, kind, "f.bin", body_of(data))
    assert set(facts) == {"error", "yenc", "start", "par2", "archive", "nfo", "media", "password"}


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=4096), st.sampled_from(["archive", "par2", "lone", "7z-tail", "nfo", "media"]))
def test_fuzz_raw_bodies(raw, kind):
    """Whatever a server sends as a body, yEnc-looking or not."""
    facts = bounded(read_article, kind, "f", b"=ybegin part=1 line=128 size=9 name=f\r\n" + raw)
    assert facts["error"] is not None or facts["yenc"] is not None


def test_fuzz_sim_bodies_bit_flips():
    """Every shape's real article with bytes flipped: an error or sound facts, never a raise."""
    for name, spec in SHAPES.items():
        kind, part = target(spec)
        body = bytearray(encode_part(spec, part))
        for i in range(0, len(body), max(1, len(body) // 7)):
            damaged = bytearray(body)
            damaged[i] ^= 0x55
            facts = read_article(kind, spec["name"], bytes(damaged))
            assert isinstance(facts, dict) and (facts["error"] or facts["yenc"])


@pytest.mark.parametrize("reader", READERS, ids=lambda r: f"{r.__module__}.{r.__name__}")
def test_readers_on_empty_and_tiny(reader):
    for data in (b"", b"\x00", b"PAR2\x00PKT", b"Rar!\x1a\x07\x00", b"7z\xbc\xaf\x27\x1c", b"PK\x03\x04"):
        bounded(reader, data)
