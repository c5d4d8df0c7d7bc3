"""sim.bodies: article bodies checked with real readers (sabctools' yEnc
decoder, rarfile, py7zr, zipfile) and parsers written here from the format
specs (PAR2, 7z signature header, RAR 5 password check)."""
from __future__ import annotations

import hashlib
import io
import json
import re
import struct
import time
import zipfile
import zlib
from pathlib import Path

import py7zr
import pytest
import rarfile
import sabctools

from sim.bodies import (Bodies, FileView, encode_part, file_bytes, layout_of, natural_bytes,
                        natural_set_bytes, part_count, part_span, synthetic_body, volume_sizes)
from sim.bodyparts import rar as rarmod

RELEASE = "Some.Release.2024.1080p.WEB.x264-GRP"


def spec_of(kind: str, size: int, parts: int = 1, **extra) -> dict:
    name = extra.pop("name", f"{RELEASE}.{kind}")
    spec = {"name": name, "bytes": size, "kind": kind, "volume": 1, "volumes": 1,
            "release": RELEASE, "password": None, "members": [], "seed": 4242,
            "segments": [[p, f"part{p}of{parts}.{kind}{size}@sim.local", 780000]
                         for p in range(1, parts + 1)]}
    spec.update(extra)
    return spec


def decode(body: bytes) -> sabctools.NNTPResponse:
    """Decode a body the way a downloader does: as a BODY response (dot-stuffed,
    terminated) through sabctools' decoder."""
    stuffed = b"".join(b"." + line if line.startswith(b".") else line
                       for line in body.splitlines(keepends=True))
    response = b"222 0 <x@y> body\r\n" + stuffed + b".\r\n"
    decoder = sabctools.Decoder(max(1 << 20, 2 * len(response)))
    decoder.expect("ctx")
    memoryview(decoder)[:len(response)] = response
    decoder.process(len(response))
    return next(iter(decoder))


def yenc_fields(line: bytes) -> dict:
    return dict(re.findall(r"(\w+)=(\S+)", line.decode("utf-8", "replace").split(" name=")[0]))


def plain_decode(body: bytes) -> bytes:
    """A small yEnc decoder of our own, to check sabctools against."""
    out = bytearray()
    for line in body.split(b"\r\n"):
        if line.startswith((b"=ybegin", b"=ypart", b"=yend")) or not line:
            continue
        esc = False
        for c in line:
            if esc:
                out.append((c - 64 - 42) & 0xFF)
                esc = False
            elif c == 0x3D:
                esc = True
            else:
                out.append((c - 42) & 0xFF)
    return bytes(out)


def write_corpus(root: Path, specs: list[dict]) -> Path:
    (root / "bodies").mkdir(parents=True)
    with open(root / "bodies" / "files.jsonl", "w") as f:
        for s in specs:
            f.write(json.dumps(s) + "\n")
    return root


# --- yEnc parts ----------------------------------------------------------------------

def test_part_span_splits_like_yenc_posters():
    spec = spec_of("bin", 1000, parts=3)
    assert [part_span(spec, p) for p in (1, 2, 3)] == [(0, 334), (334, 668), (668, 1000)]
    assert part_count(spec) == 3
    tiny = spec_of("bin", 3, parts=5)
    assert [part_span(tiny, p) for p in range(1, 6)] == [(0, 1), (1, 2), (2, 3), (3, 3), (3, 3)]
    with pytest.raises(ValueError):
        part_span(spec, 4)
    gappy = dict(spec, segments=[[1, "a@b", 1], [7, "c@d", 1]])     # parts lost in transit
    assert part_count(gappy) == 7


def test_parts_decode_back_to_the_file():
    spec = spec_of("rar", 300_001, parts=4, members=[{"name": f"{RELEASE}.mkv", "bytes": 299_000}])
    whole = file_bytes(spec, 0, spec["bytes"])
    decoded = b""
    for part in range(1, 5):
        body = encode_part(spec, part)
        assert body.endswith(b"\r\n") and b"\r\n\r\n" not in body
        lines = body.split(b"\r\n")
        head = yenc_fields(lines[0])
        assert (head["part"], head["total"], head["line"], head["size"]) == \
            (str(part), "4", "128", str(spec["bytes"]))
        assert lines[0].endswith(f"name={spec['name']}".encode())
        assert all(len(line) <= 129 for line in lines[2:-2])
        r = decode(body)
        begin, end = part_span(spec, part)
        assert (r.part_begin, r.part_end, r.file_size) == (begin, end, spec["bytes"])
        assert r.crc is not None and r.crc == r.crc_expected == zlib.crc32(bytes(r.data))
        assert bytes(r.data) == plain_decode(body) == whole[begin:end]
        tail = yenc_fields(lines[-2])
        assert int(tail["size"]) == end - begin and int(tail["pcrc32"], 16) == r.crc
        # the whole file's CRC only on the last part (the file is small enough)
        assert ("crc32" in tail) == (part == 4)
        decoded += bytes(r.data)
    assert decoded == whole
    assert int(yenc_fields(encode_part(spec, 4).split(b"\r\n")[-2])["crc32"], 16) == zlib.crc32(whole)


def test_yenc_name_is_the_posted_header_name():
    spec = spec_of("mkv", 5000, name="a1b2c3d4e5.bin", yenc_name="Some.Release.mkv")
    assert decode(encode_part(spec, 1)).file_name == "Some.Release.mkv"


def test_a_750k_part_builds_fast():
    members = [{"name": f"{RELEASE}.mkv", "bytes": 4_000_000_000}]
    spec = spec_of("rar5", 52_428_800, parts=70, volume=3, volumes=80, members=members)
    encode_part(spec, 1)        # the layout is built once per file
    times = []
    for part in (2, 35, 70):
        t = time.perf_counter()
        body = encode_part(spec, part)
        times.append(time.perf_counter() - t)
    assert len(body) > 700_000
    assert min(times) < 0.1, times


# --- Bodies -------------------------------------------------------------------------

def test_bodies_serves_described_articles(tmp_path):
    a = spec_of("nfo", 2000, parts=1, seed=1)
    b = spec_of("bin", 9000, parts=3, seed=2, name="b.bin")
    root = write_corpus(tmp_path, [a, b])
    bodies = Bodies(root)
    mid = b["segments"][1][1]
    assert bodies.spec(mid) == (b, 2)
    assert bodies.spec(f"<{mid}>") == (b, 2)
    assert bodies.body(f"<{mid}>", 123) == encode_part(b, 2)
    assert bodies.body(a["segments"][0][1], 0) == encode_part(a, 1)
    assert bodies.spec("nobody@nowhere") is None


def test_bodies_are_deterministic(tmp_path):
    specs = [spec_of(kind, 70_000, parts=2, seed=i, name=f"f{i}.{kind}",
                     members=[{"name": "inner.mkv", "bytes": 60_000}])
             for i, kind in enumerate(["rar", "rar5", "7z", "zip", "mkv", "nfo"])]
    root = write_corpus(tmp_path, specs)
    one, two = Bodies(root), Bodies(root)
    for s in specs:
        for seg in s["segments"]:
            assert one.body(seg[1], seg[2]) == two.body(seg[1], seg[2])
    assert one.body("unknown@x", 5000) == two.body("unknown@x", 5000)


def test_golden_bytes_guard_the_content_model():
    # phase 2's expectations rest on these bytes: a change here changes what
    # the simulated Usenet serves, so update GOLDEN only on purpose
    inner = [{"name": "a.mkv", "bytes": 199_000}]
    h = hashlib.sha256()
    for kind in ("rar", "rar5", "7z", "zip", "nfo", "mkv", "mp3"):
        spec = spec_of(kind, 200_000, parts=2, members=inner, password=None)
        h.update(encode_part(spec, 1) + encode_part(spec, 2))
    par2 = spec_of("par2", 3000, members=[dict(spec_of("mkv", 50_000), segments=None)])
    h.update(encode_part(par2, 1))
    h.update(synthetic_body("golden@sim", 20_000))
    assert h.hexdigest()[:16] == GOLDEN


GOLDEN = "089b7053e9924296"


def test_unknown_ids_get_a_synthetic_body_of_the_hinted_size(tmp_path):
    bodies = Bodies(tmp_path)       # no bodies/ at all
    for hint in (750_000, 400_000, 5_000):
        body = bodies.body("<nobody.1@example.com>", hint)
        assert abs(len(body) - hint) < 0.03 * hint + 300
        r = decode(body)
        assert r.crc is not None and r.crc == r.crc_expected
    assert bodies.body("a@x", 10_000) != bodies.body("b@x", 10_000)
    assert bodies.spec("a@x") is None


# --- RAR ----------------------------------------------------------------------------

def small_rar(kind: str, **extra) -> dict:
    members = [{"name": f"{RELEASE}.mkv", "bytes": 40_000},
               {"name": f"{RELEASE}.nfo", "bytes": 900},
               {"name": "Sübs/ñame.srt", "bytes": 0}]
    spec = spec_of(kind, 0, parts=2, members=members, **extra)
    spec["bytes"] = natural_bytes(spec)
    return spec


@pytest.mark.parametrize("kind", ["rar", "rar5"])
def test_rar_listing_reads_with_rarfile(kind):
    spec = small_rar(kind)
    rf = rarfile.RarFile(FileView(spec))
    assert [(i.filename, i.file_size) for i in rf.infolist()] == \
        [(m["name"], m["bytes"]) for m in spec["members"]]
    assert not rf.needs_password()
    # stored members with real CRCs: rarfile extracts and checks them
    rf.testrar()
    inner = rf.read(f"{RELEASE}.nfo")
    assert len(inner) == 900 and inner in file_bytes(spec, 0, spec["bytes"])


@pytest.mark.parametrize("kind", ["rar", "rar5"])
def test_rar_listing_reads_from_the_first_article_alone(kind):
    # what phase 2 has: the first segment of the first volume of a big set
    members = [{"name": f"{RELEASE}.mkv", "bytes": 3_000_000_000}]
    spec = spec_of(kind, 52_428_800, parts=70, volume=1, volumes=58, members=members)
    first = decode(encode_part(spec, 1))
    rf = rarfile.RarFile(io.BytesIO(bytes(first.data)))
    info = rf.infolist()
    assert [(i.filename, i.file_size) for i in info] == [(f"{RELEASE}.mkv", 3_000_000_000)]
    assert info[0].flags & rarfile.RAR_FILE_SPLIT_AFTER
    assert not info[0].flags & rarfile.RAR_FILE_SPLIT_BEFORE


def test_rar4_headers_carry_volume_flags_and_crcs():
    members = [{"name": "x.mkv", "bytes": 10_000_000}]
    for k in (1, 2, 5):
        spec = spec_of("rar", 2_000_000, volume=k, volumes=5, members=members, name=f"x.part{k}.rar")
        head = file_bytes(spec, 0, 200)
        assert head[:7] == rarmod.RAR4_SIGNATURE
        crc, htype, flags, hsize = struct.unpack_from("<HBHH", head, 7)
        assert htype == 0x73 and crc == zlib.crc32(head[9:7 + hsize]) & 0xFFFF
        assert flags & rarmod.MHD_VOLUME and flags & rarmod.MHD_NEWNUMBERING
        assert bool(flags & rarmod.MHD_FIRSTVOLUME) == (k == 1)
        # the same set named .rar, .r00, .r01 ...: readers must look for those
        old = dict(spec, name="x.rar" if k == 1 else f"x.r{k - 2:02d}")
        flags_old = struct.unpack_from("<HBHH", file_bytes(old, 0, 200), 7)[2]
        assert flags_old == flags & ~rarmod.MHD_NEWNUMBERING
        pos = 7 + hsize
        crc, htype, fflags, fsize = struct.unpack_from("<HBHH", head, pos)
        assert htype == 0x74 and crc == zlib.crc32(head[pos + 2:pos + fsize]) & 0xFFFF
        assert bool(fflags & rarmod.LHD_SPLIT_BEFORE) == (k > 1)
        assert bool(fflags & rarmod.LHD_SPLIT_AFTER) == (k < 5)
        assert head[pos + 32:pos + 32 + 5] == b"x.mkv"


def test_rar_volume_set_is_listable_across_volumes(tmp_path):
    for kind in ("rar", "rar5"):
        members = [{"name": "A.mkv", "bytes": 250_000}, {"name": "B.mkv", "bytes": 100_000}]
        base = spec_of(kind, 0, members=members)
        sizes = volume_sizes(base, 100_000)
        assert len(sizes) == 4 and sizes[:3] == [100_000] * 3
        for k, size in enumerate(sizes, 1):
            spec = dict(base, volume=k, volumes=len(sizes), bytes=size, name=f"set-{kind}.part{k}.rar")
            (tmp_path / spec["name"]).write_bytes(file_bytes(spec, 0, size))
        rf = rarfile.RarFile(str(tmp_path / f"set-{kind}.part1.rar"))
        assert [(i.filename, i.file_size) for i in rf.infolist()] == [("A.mkv", 250_000),
                                                                     ("B.mkv", 100_000)]
        assert len(rf.volumelist()) == 4
        # stored across volumes with true CRCs: each piece's and each member's hold
        rf.testrar()
        # each volume's pieces meet the next one's exactly
        ends = []
        for k, size in enumerate(sizes, 1):
            lay = layout_of(dict(base, volume=k, volumes=len(sizes), bytes=size))
            ps = lay.info["pieces"]
            first = sum(m["bytes"] for m in members[:ps[0].index]) + ps[0].start
            assert first == (ends[-1] if ends else 0)
            ends.append(rarmod.stream_end(members, ps))
        assert ends[-1] == 350_000


def test_rar5_passworded_hides_the_listing():
    spec = small_rar("rar5", password="secret")
    rf = rarfile.RarFile(FileView(spec))
    assert rf.needs_password() and rf.namelist() == []
    head = file_bytes(spec, 0, 4096)
    assert f"{RELEASE}".encode() not in file_bytes(spec, 0, spec["bytes"])
    # the encryption header's check value is real: rarfile's key derivation
    # confirms the right password and rejects a wrong one
    pos = len(rarmod.RAR5_SIGNATURE) + 4
    size, = head[pos:pos + 1]
    body = head[pos + 1:pos + 1 + size]
    assert body[:2] == b"\x04\x00"          # type 4 (encryption), flags 0
    assert body[2:4] == b"\x00\x01"         # AES-256, check value present
    kdf, salt, check = body[4], body[5:21], body[21:33]

    def matches(password: str) -> bool:
        digest = rarfile.rar5_s2k(password, salt, (1 << kdf) + 32)
        fold = bytearray(8)
        for i, v in enumerate(digest):
            fold[i & 7] ^= v
        return bytes(fold) == check[:8]
    assert hashlib.sha256(check[:8]).digest()[:4] == check[8:]
    assert matches("secret") and not matches("Secret")


def test_rar4_passworded_lists_with_the_password_flag():
    spec = small_rar("rar", password="secret")
    rf = rarfile.RarFile(FileView(spec))
    assert rf.needs_password()
    assert rf.namelist()[:2] == [f"{RELEASE}.mkv", f"{RELEASE}.nfo"]
    assert all(i.needs_password() for i in rf.infolist() if i.file_size)


# --- 7z -------------------------------------------------------------------------------

def small_7z(**extra) -> dict:
    members = [{"name": f"{RELEASE}.mkv", "bytes": 30_000}, {"name": "Sämple/ñ.nfo", "bytes": 700},
               {"name": "empty.txt", "bytes": 0}]
    spec = spec_of("7z", 0, parts=2, members=members, **extra)
    spec["bytes"] = natural_bytes(spec)
    return spec


def test_7z_lists_and_extracts_with_py7zr(tmp_path):
    spec = small_7z()
    with py7zr.SevenZipFile(FileView(spec)) as z:
        assert not z.needs_password()
        assert [(i.filename, i.uncompressed) for i in z.list()] == \
            [(m["name"], m["bytes"]) for m in spec["members"]]
        z.extractall(tmp_path)
    # Copy coder: the members are the packed stream right after the signature header
    data = file_bytes(spec, 32, 32 + 30_700)
    assert (tmp_path / f"{RELEASE}.mkv").read_bytes() == data[:30_000]
    assert (tmp_path / "Sämple" / "ñ.nfo").read_bytes() == data[30_000:]


def test_7z_signature_header_points_at_the_end_header():
    members = [{"name": f"{RELEASE}.mkv", "bytes": 6_000_000_000}]
    base = spec_of("7z", 0, members=members)
    sizes = volume_sizes(base, 104_857_600)
    first = dict(base, volume=1, volumes=len(sizes), bytes=sizes[0])
    last = dict(base, volume=len(sizes), volumes=len(sizes), bytes=sizes[-1])
    head = file_bytes(first, 0, 32)
    assert head[:6] == b"7z\xbc\xaf\x27\x1c"
    assert struct.unpack_from("<I", head, 8)[0] == zlib.crc32(head[12:32])
    offset, size, crc = struct.unpack_from("<QQI", head, 12)
    at = 32 + offset - sum(sizes[:-1])      # the end header, inside the last volume
    end = file_bytes(last, at, at + size)
    assert at + size == sizes[-1] and zlib.crc32(end) == crc
    assert end[0] == 0x01 and f"{RELEASE}.mkv".encode("utf-16-le") in end


def test_7z_passworded_has_an_aes_encoded_header():
    spec = small_7z(password="secret")
    with pytest.raises(py7zr.exceptions.PasswordRequired):
        py7zr.SevenZipFile(FileView(spec))
    whole = file_bytes(spec, 0, spec["bytes"])
    offset, size, _ = struct.unpack_from("<QQI", whole, 12)
    end = whole[32 + offset:32 + offset + size]
    assert end[0] == 0x17 and b"\x24\x06\xf1\x07\x01" in end
    assert "Sämple".encode("utf-16-le") not in whole


# --- ZIP / EPUB ------------------------------------------------------------------------

def test_zip_lists_and_tests_with_zipfile():
    members = [{"name": f"{RELEASE}.mkv", "bytes": 50_000}, {"name": "Über.nfo", "bytes": 333}]
    spec = spec_of("zip", 0, members=members)
    spec["bytes"] = natural_bytes(spec)
    with zipfile.ZipFile(FileView(spec)) as z:
        assert [(i.filename, i.file_size, i.flag_bits & 1) for i in z.infolist()] == \
            [(f"{RELEASE}.mkv", 50_000, 0), ("Über.nfo", 333, 0)]
        assert z.testzip() is None
    assert file_bytes(spec, 0, 4) == b"PK\x03\x04"


def test_zip_passworded_sets_the_encryption_bit():
    members = [{"name": "a.mkv", "bytes": 5000}]
    spec = spec_of("zip", 6000, members=members, password="pw")
    with zipfile.ZipFile(FileView(spec)) as z:
        info = z.infolist()[0]
        assert info.flag_bits & 1 and info.file_size == 5000
        with pytest.raises(RuntimeError, match="password required"):
            z.read("a.mkv")
    assert struct.unpack_from("<H", file_bytes(spec, 0, 8), 6)[0] & 1


def test_big_zip_uses_zip64_and_lists_lazily():
    members = [{"name": "big.mkv", "bytes": 5_000_000_000}, {"name": "small.nfo", "bytes": 10}]
    spec = spec_of("zip", 0, members=members)
    spec["bytes"] = natural_bytes(spec)
    with zipfile.ZipFile(FileView(spec)) as z:
        assert [(i.filename, i.file_size) for i in z.infolist()] == \
            [("big.mkv", 5_000_000_000), ("small.nfo", 10)]


def test_archive_smaller_than_stored_claims_compression():
    members = [{"name": "a.mkv", "bytes": 100_000}]
    spec = spec_of("zip", 60_000, members=members)
    with zipfile.ZipFile(FileView(spec)) as z:
        info = z.infolist()[0]
        assert info.compress_type == zipfile.ZIP_DEFLATED and info.file_size == 100_000
        assert info.compress_size < 60_000
    z7 = dict(spec, kind="7z")
    with py7zr.SevenZipFile(FileView(z7)) as z:
        assert [(i.filename, i.uncompressed) for i in z.list()] == [("a.mkv", 100_000)]
    rar = dict(spec, kind="rar5")
    assert rarfile.RarFile(FileView(rar)).infolist()[0].compress_size < 60_000


def test_epub_is_a_zip_with_mimetype_first():
    spec = spec_of("epub", 80_000)
    with zipfile.ZipFile(FileView(spec)) as z:
        names = z.namelist()
        assert names[0] == "mimetype" and z.read("mimetype") == b"application/epub+zip"
        assert RELEASE.encode() in z.read("OEBPS/content.opf")
        assert z.testzip() is None
    assert file_bytes(spec, 30, 38) == b"mimetype"


# --- PAR2 -------------------------------------------------------------------------------

def parse_par2(data: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """(type, set id, body) of every packet, checking magic, length and MD5."""
    packets, pos = [], 0
    while pos + 64 <= len(data):
        assert data[pos:pos + 8] == b"PAR2\x00PKT", pos
        length, = struct.unpack_from("<Q", data, pos + 8)
        assert length % 4 == 0 and pos + length <= len(data)
        md5, set_id, ptype = data[pos + 16:pos + 32], data[pos + 32:pos + 48], data[pos + 48:pos + 64]
        assert hashlib.md5(data[pos + 32:pos + length]).digest() == md5
        packets.append((ptype, set_id, data[pos + 64:pos + length]))
        pos += length
    return packets


def protected_set() -> list[dict]:
    members = [{"name": f"{RELEASE}.mkv", "bytes": 120_000}]
    return [spec_of("rar", 0, volume=k, volumes=3, members=members, seed=100 + k,
                    name=f"{RELEASE}.part{k}.rar") | {"bytes": b}
            for k, b in enumerate(volume_sizes(spec_of("rar", 0, members=members), 50_000), 1)] + \
        [spec_of("nfo", 1234, seed=7, name=f"{RELEASE}.nfo")]


def test_par2_index_packets_describe_the_protected_files():
    files = protected_set()
    members = [{k: v for k, v in f.items() if k != "segments"} for f in files]
    spec = spec_of("par2", 0, members=members, name=f"{RELEASE}.par2")
    spec["bytes"] = natural_bytes(spec)
    packets = parse_par2(file_bytes(spec, 0, spec["bytes"]))
    types = [p[0] for p in packets]
    assert types.count(b"PAR 2.0\x00FileDesc") == 4 and types.count(b"PAR 2.0\x00IFSC\x00\x00\x00\x00") == 4
    assert b"PAR 2.0\x00Creator\x00" in types
    main = next(p for p in packets if p[0] == b"PAR 2.0\x00Main\x00\x00\x00\x00")[2]
    set_id = hashlib.md5(main).digest()
    assert all(p[1] == set_id for p in packets)
    slice_size, count = struct.unpack_from("<QI", main)
    ids = [main[12 + 16 * i:28 + 16 * i] for i in range(count)]
    assert count == 4 and ids == sorted(ids)
    descs = {}
    for ptype, _, body in packets:
        if ptype == b"PAR 2.0\x00FileDesc":
            fid, full, hash16k, length = body[:16], body[16:32], body[32:48], \
                struct.unpack_from("<Q", body, 48)[0]
            descs[body[56:].rstrip(b"\x00").decode()] = (fid, full, hash16k, length)
    for f in files:
        fid, full, hash16k, length = descs[f["name"]]
        content = file_bytes(f, 0, f["bytes"])
        assert length == f["bytes"] and fid in ids
        assert hash16k == hashlib.md5(content[:16384]).digest()
        assert fid == hashlib.md5(hash16k + struct.pack("<Q", length) + f["name"].encode()).digest()
        assert full == hashlib.md5(content).digest()        # small files: the real MD5
    # IFSC: real slice checksums of the small files
    nfo = files[-1]
    ifsc = next(b for t, _, b in packets if t.startswith(b"PAR 2.0\x00IFSC") and
                b[:16] == descs[nfo["name"]][0])
    piece = file_bytes(nfo, 0, nfo["bytes"]).ljust(slice_size, b"\x00")
    assert ifsc[16:32] == hashlib.md5(piece).digest()
    assert struct.unpack_from("<I", ifsc, 32)[0] == zlib.crc32(piece)


def test_par2_matches_renamed_files():
    # posted obfuscated, described by par2 under the real name: same content
    real = spec_of("mkv", 3_000_000_000, name=f"{RELEASE}.mkv", seed=9)
    posted = dict(real, name="8f3a9c0d1e.bin", yenc_name="8f3a9c0d1e.bin")
    # described the way the generator does: no segments, no release (inherited)
    fields = ("name", "bytes", "kind", "volume", "volumes", "password", "seed", "members")
    index = spec_of("par2", 0, members=[{k: real[k] for k in fields}])
    index["bytes"] = natural_bytes(index)
    desc = next(b for t, _, b in parse_par2(file_bytes(index, 0, index["bytes"]))
                if t == b"PAR 2.0\x00FileDesc")
    assert desc[32:48] == hashlib.md5(file_bytes(posted, 0, 16384)).digest()
    assert struct.unpack_from("<Q", desc, 48)[0] == 3_000_000_000


def test_par2vol_carries_recovery_slices():
    files = protected_set()
    members = [{k: v for k, v in f.items() if k != "segments"} for f in files]
    index = spec_of("par2", 0, members=members)
    index["bytes"] = natural_bytes(index)
    vol = spec_of("par2vol", 0, members=members, name=f"{RELEASE}.vol03+04.par2", seed=77)
    vol["bytes"] = natural_bytes(vol)
    packets = parse_par2(file_bytes(vol, 0, vol["bytes"]))
    index_packets = parse_par2(file_bytes(index, 0, index["bytes"]))
    recovery = [b for t, _, b in packets if t == b"PAR 2.0\x00RecvSlic"]
    assert [struct.unpack_from("<I", b)[0] for b in recovery] == [3, 4, 5, 6]
    assert packets[:len(index_packets)] == index_packets        # the same set, same metadata
    slice_size = struct.unpack_from("<Q", index_packets[0][2])[0]
    assert all(len(b) == 4 + slice_size for b in recovery)


def test_big_par2_index_is_cheap_and_keeps_descriptions_first():
    members = [{"name": f"{RELEASE}.part{k:03d}.rar", "bytes": 104_857_600, "kind": "rar",
                "volume": k, "volumes": 100, "release": RELEASE, "seed": k,
                "members": [{"name": f"{RELEASE}.mkv", "bytes": 10_400_000_000}]}
               for k in range(1, 101)]
    spec = spec_of("par2", 9000, members=members)
    t = time.perf_counter()
    data = file_bytes(spec, 0, 9000)
    assert time.perf_counter() - t < 2.0
    assert data[48:64] == b"PAR 2.0\x00Main\x00\x00\x00\x00"
    assert data.count(b"PAR 2.0\x00FileDesc") > 40


# --- text and media ---------------------------------------------------------------------------

def test_nfo_names_the_release_and_sometimes_the_password():
    shown = 0
    for seed in range(12):
        spec = spec_of("nfo", 3000, seed=seed, password="hunter2")
        text = file_bytes(spec, 0, 3000)
        assert len(text) == 3000 and RELEASE.encode() in text[:200]
        shown += b"Password: hunter2" in text
        assert text == file_bytes(dict(spec), 0, 3000)
    assert 0 < shown < 12
    assert b"Password" not in file_bytes(spec_of("nfo", 3000, seed=1), 0, 3000)


def test_sfv_lists_member_crcs():
    nfo = {k: v for k, v in spec_of("nfo", 500, seed=3, name="x.nfo").items() if k != "segments"}
    spec = spec_of("sfv", 0, members=[nfo])
    spec["bytes"] = natural_bytes(spec)
    text = file_bytes(spec, 0, spec["bytes"]).decode()
    assert f"x.nfo {zlib.crc32(file_bytes(nfo, 0, 500)):08x}" in text


MAGIC = {
    "mkv": b"\x1a\x45\xdf\xa3",
    "mp4": b"\x00\x00\x00\x20ftypisom",
    "avi": b"RIFF",
    "jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
    "mp3": b"ID3\x04",
    "flac": b"fLaC",
    "epub": b"PK\x03\x04",
    "pdf": b"%PDF-1.",
    "exe": b"MZ",
    "rar": b"Rar!\x1a\x07\x00",
    "rar5": b"Rar!\x1a\x07\x01\x00",
    "7z": b"7z\xbc\xaf\x27\x1c",
    "zip": b"PK\x03\x04",
    "par2": b"PAR2\x00PKT",
    "par2vol": b"PAR2\x00PKT",
}


@pytest.mark.parametrize("kind", sorted(MAGIC))
def test_magic_bytes(kind):
    spec = spec_of(kind, 2_000_000, members=[{"name": "inner.mkv", "bytes": 1_900_000}])
    head = file_bytes(spec, 0, 64)
    assert head.startswith(MAGIC[kind])
    assert len(file_bytes(spec, 0, 2_000_000)) == 2_000_000


def test_media_headers_hold_the_title():
    mkv = file_bytes(spec_of("mkv", 100_000), 0, 4096)
    assert b"\x42\x82\x88matroska" in mkv
    assert b"\x7b\xa9" + bytes([0x80 | len(RELEASE)]) + RELEASE.encode() in mkv
    assert b"TIT2" in file_bytes(spec_of("mp3", 100_000), 0, 1024)
    assert f"TITLE={RELEASE}".encode() in file_bytes(spec_of("flac", 100_000), 0, 1024)
    exe = file_bytes(spec_of("exe", 100_000), 0, 1024)
    lfanew, = struct.unpack_from("<I", exe, 0x3C)
    assert exe[lfanew:lfanew + 4] == b"PE\x00\x00"
    jpg = spec_of("jpg", 50_000)
    assert file_bytes(jpg, 49_998, 50_000) == b"\xff\xd9"
    pdf = spec_of("pdf", 50_000)
    assert file_bytes(pdf, 49_993, 50_000) == b"\n%%EOF\n"
    mp4 = file_bytes(spec_of("mp4", 100_000), 0, 64)
    assert mp4[36:40] == b"mdat"


class Joined(io.RawIOBase):
    """Volumes of a byte-split archive read as one stream (as 7-Zip joins .001, .002 ...)."""

    def __init__(self, specs: list[dict]):
        super().__init__()
        self.specs, self.pos = specs, 0
        self.total = sum(s["bytes"] for s in specs)

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, offset, whence=0):
        self.pos = {0: 0, 1: self.pos, 2: self.total}[whence] + offset
        return self.pos

    def readinto(self, buf):
        end, out, base = min(self.total, self.pos + len(buf)), b"", 0
        for s in self.specs:
            lo, hi = max(self.pos, base), min(end, base + s["bytes"])
            if hi > lo:
                out += file_bytes(s, lo - base, hi - base)
            base += s["bytes"]
        buf[:len(out)] = out
        self.pos += len(out)
        return len(out)


@pytest.mark.parametrize("kind", ["7z", "zip"])
def test_split_archives_join_into_a_listable_whole(kind):
    members = [{"name": f"E{i:02d}.mkv", "bytes": 1_500_000_000 + i} for i in range(4)]
    base = spec_of(kind, 0, members=members)
    sizes = volume_sizes(base, 100 * 2**20)
    assert sum(sizes) == natural_set_bytes(base) and len(sizes) == 58
    specs = [dict(base, volume=k, volumes=len(sizes), bytes=b, seed=k)
             for k, b in enumerate(sizes, 1)]
    if kind == "zip":
        with zipfile.ZipFile(Joined(specs)) as z:
            listing = [(i.filename, i.file_size) for i in z.infolist()]
    else:
        with py7zr.SevenZipFile(Joined(specs)) as z:
            listing = [(i.filename, i.uncompressed) for i in z.list()]
    assert listing == [(m["name"], m["bytes"]) for m in members]


def test_odd_specs_still_make_bodies(tmp_path):
    empty = spec_of("rar", 0, parts=1)
    r = decode(encode_part(empty, 1))
    assert r.file_size == 0 and not r.data and r.crc == r.crc_expected == 0
    unknown = spec_of("weird-kind", 1000, parts=1)
    assert len(decode(encode_part(unknown, 1)).data) == 1000
    bare = {"name": "x.bin", "bytes": 10, "segments": [[1, "bare@x", 400]]}
    root = write_corpus(tmp_path, [bare])
    (root / "bodies" / "files.jsonl").write_text(json.dumps(bare) + "\n{not json\n\n")
    bodies = Bodies(root).load()
    assert len(bodies) == 1 and len(decode(bodies.body("bare@x", 400)).data) == 10


def test_slices_agree_with_the_whole():
    spec = spec_of("rar5", 300_000, members=[{"name": "a.mkv", "bytes": 290_000}])
    whole = file_bytes(spec, 0, 300_000)
    for begin, end in [(0, 1), (5, 70), (65_530, 65_545), (131_000, 299_999), (299_990, 400_000)]:
        assert file_bytes(spec, begin, end) == whole[begin:end]
    view = FileView(spec)
    view.seek(100)
    assert view.read(10) == whole[100:110]
    assert natural_set_bytes(spec_of("7z", 0, members=[{"name": "a", "bytes": 10}])) > 32
