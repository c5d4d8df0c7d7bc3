"""workers.probe against files made at test time by the real tools (par2cmdline,
p7zip, Info-ZIP, rar 7), yEnc-encoded by sabctools into ~700 KB articles split
as a poster splits them: the facts are what those tools wrote."""
from __future__ import annotations

import hashlib
import os
import subprocess
import zlib
from pathlib import Path

import pytest

from sim.bodies import yenc_part
from workers.probe import read_article

ARTICLE = 716800            # a poster's usual article size (700 KiB)
VIDEO = "Real.Tools.2024.1080p.WEB.x264-VOY.mkv"
NFO = "real.tools-voy.nfo"
PASSWORD = "s3cret-Pw"


def articles(path: Path, name: str | None = None) -> list[bytes]:
    """The file as a poster posts it: yEnc parts of ARTICLE bytes, the last
    with the whole file's CRC."""
    data = path.read_bytes()
    total = max(1, -(-len(data) // ARTICLE))
    crc = zlib.crc32(data)
    return [yenc_part(data[i * ARTICLE:(i + 1) * ARTICLE], name or path.name, i + 1, total,
                      len(data), i * ARTICLE, crc if i + 1 == total else None)
            for i in range(total)]


def run(cwd: Path, *argv: str) -> None:
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("real-tools")
    # a file over the 16 KiB the hashes cover, several articles long
    (root / VIDEO).write_bytes(b"\x1a\x45\xdf\xa3" + os.urandom(2_500_000))
    (root / NFO).write_bytes(("  Real.Tools.2024.1080p.WEB.x264-VOY\r\n\r\n"
                              "  https://www.imdb.com/title/tt1234567/\r\n"
                              f"  Password: {PASSWORD}\r\n  \xdb\xdb\xb2\xb1\xb0\r\n").encode("latin-1"))
    files = [VIDEO, NFO]
    run(root, "par2", "create", "-q", "-r10", "-n2", "set.par2", *files)
    # volumes start with a recovery slice: one shorter than an article, one longer
    run(root, "par2", "create", "-q", "-s400000", "-r60", "-n1", "small.par2", VIDEO)
    run(root, "par2", "create", "-q", "-s800000", "-r60", "-n1", "large.par2", VIDEO)
    for label, flags in (("plain", []), ("p", [f"-p{PASSWORD}"]), ("hp", [f"-hp{PASSWORD}"])):
        run(root, "rar", "a", "-idq", "-m0", "-v1m", *flags, f"rar-{label}.rar", *files)
    for label, flags in (("plain", []), ("p", [f"-p{PASSWORD}"]), ("mhe", [f"-p{PASSWORD}", "-mhe=on"])):
        run(root, "7z", "a", "-bd", "-mx0", "-v1m", *flags, f"sz-{label}.7z", *files)
    run(root, "7z", "a", "-bd", "-mx1", "whole.7z", *files)
    run(root, "7z", "a", "-bd", "-mx0", "-mhc=off", "plainhdr.7z", *files)
    run(root, "zip", "-q", "-0", "zip-plain.zip", *files)
    run(root, "zip", "-q", "-0", "-P", PASSWORD, "zip-e.zip", *files)
    run(root, "zip", "-q", "-0", "-s", "1m", "zip-split.zip", *files)
    # the small member first: both local headers in the first article
    run(root, "zip", "-q", "-0", "zip-two.zip", NFO, VIDEO)
    run(root, "zip", "-q", "-0", "-P", PASSWORD, "zip-e-two.zip", NFO, VIDEO)
    return root


def first(root: Path, name: str, kind: str, posted: str | None = None) -> dict:
    facts = read_article(kind, posted or name, articles(root / name, posted)[0])
    assert facts["error"] is None, facts["error"]
    return facts


def last(root: Path, name: str) -> dict:
    facts = read_article("7z-tail", name, articles(root / name)[-1])
    assert facts["error"] is None, facts["error"]
    return facts


def truth(root: Path, name: str) -> dict:
    data = (root / name).read_bytes()
    return {"name": name, "size": len(data), "md5_16k": hashlib.md5(data[:16384]).hexdigest(),
            "md5": hashlib.md5(data).hexdigest()}


def test_par2cmdline_index_and_volume(release):
    want = sorted((truth(release, n) for n in (VIDEO, NFO)), key=lambda f: f["name"])
    for name in ["set.par2", *sorted(p.name for p in release.glob("set.vol*.par2"))]:
        # posted under a random name: the set is read from the bytes
        facts = first(release, name, "par2", posted="a3f09c1b7d.bin")
        p = facts["par2"]
        got = sorted(({k: f[k] for k in ("name", "size", "md5_16k", "md5")} for f in p["files"]),
                     key=lambda f: f["name"])
        assert got == want, name
        assert "par2cmdline" in p["creator"]
        assert len(p["set_id"]) == 32 and all(len(f["file_id"]) == 32 for f in p["files"])
        assert facts["yenc"]["name"] == "a3f09c1b7d.bin"


def test_par2cmdline_volumes_start_with_recovery_slices(release):
    small = first(release, next(release.glob("small.vol*.par2")).name, "par2")["par2"]
    assert [f["name"] for f in small["files"]] == [VIDEO]
    assert small["set_id"] == first(release, "small.par2", "par2")["par2"]["set_id"]
    name = next(release.glob("large.vol*.par2")).name
    large = read_article("par2", name, articles(release / name)[0])
    assert large["error"] == "par2-recovery"
    assert large["par2"] == {"set_id": first(release, "large.par2", "par2")["par2"]["set_id"],
                             "creator": None, "files": []}


def test_rar5_plain_p_and_hp(release):
    plain = first(release, "rar-plain.part1.rar", "archive")["archive"]
    assert plain["format"] == "rar5" and plain["volume"] == 1 and not plain["solid"]
    assert not plain["encrypted_headers"] and not plain["encrypted_files"]
    assert plain["entries"][0] == {"name": VIDEO, "size": (release / VIDEO).stat().st_size,
                                   "encrypted": False}
    p = first(release, "rar-p.part1.rar", "archive")["archive"]
    assert not p["encrypted_headers"] and p["encrypted_files"]
    assert p["entries"][0]["name"] == VIDEO and p["entries"][0]["encrypted"]
    hp = first(release, "rar-hp.part1.rar", "archive")
    assert hp["archive"]["encrypted_headers"] and hp["archive"]["encrypted_files"]
    assert hp["archive"]["entries"] == []
    assert hp["password"] is None           # passworded; what the password is, nobody says
    second = read_article("archive", "rar-plain.part2.rar", articles(release / "rar-plain.part2.rar")[0])
    assert second["archive"]["volume"] == 2
    # a later volume names the file it continues (an obfuscated volume posted alone is named by it)
    assert second["archive"]["entries"] == [{"name": VIDEO, "size": (release / VIDEO).stat().st_size,
                                             "encrypted": False, "continued": True}]


def test_7z_tails_plain_p_and_mhe(release):
    sizes = {VIDEO: (release / VIDEO).stat().st_size, NFO: (release / NFO).stat().st_size}
    vols = sorted(p.name for p in release.glob("sz-plain.7z.*"))
    plain = last(release, vols[-1])["archive"]
    assert plain["format"] == "7z" and plain["volume"] == len(vols)
    assert {e["name"]: e["size"] for e in plain["entries"]} == sizes
    assert not plain["encrypted_headers"] and not plain["encrypted_files"]
    p = last(release, sorted(p.name for p in release.glob("sz-p.7z.*"))[-1])["archive"]
    assert {e["name"]: e["size"] for e in p["entries"]} == sizes
    assert p["encrypted_files"] and not p["encrypted_headers"] and all(e["encrypted"] for e in p["entries"])
    mhe = last(release, sorted(p.name for p in release.glob("sz-mhe.7z.*"))[-1])["archive"]
    assert mhe["encrypted_headers"] and mhe["encrypted_files"] and mhe["entries"] == []
    # an unsplit multi-segment .7z, LZMA-packed: its last segment holds the listing
    whole = last(release, "whole.7z")["archive"]
    assert {e["name"]: e["size"] for e in whole["entries"]} == sizes
    assert whole["solid"]
    # -mhc=off: the end header as it is, not packed
    plainhdr = last(release, "plainhdr.7z")["archive"]
    assert {e["name"]: e["size"] for e in plainhdr["entries"]} == sizes
    # a tail article too short to hold the packed header it points at
    tail = (release / "whole.7z").read_bytes()[-40:]
    short = read_article("7z-tail", "whole.7z", yenc_part(tail, "whole.7z", 9, 9, 9_000_000, 8_999_960))
    assert short["error"] == "truncated" and short["archive"] is None


def test_zip_local_headers(release):
    plain = first(release, "zip-plain.zip", "archive")["archive"]
    assert plain["format"] == "zip"
    assert plain["entries"][0] == {"name": VIDEO, "size": (release / VIDEO).stat().st_size,
                                   "encrypted": False}
    e = first(release, "zip-e.zip", "archive")["archive"]
    assert e["encrypted_files"] and e["entries"][0]["name"] == VIDEO and e["entries"][0]["encrypted"]
    # zip -s: the first volume (.z01) starts with the split marker, then the local headers
    split = first(release, "zip-split.z01", "archive")["archive"]
    assert split["volume"] == 1 and split["entries"][0]["name"] == VIDEO


def test_zip_members_after_the_first(release):
    sizes = [(NFO, (release / NFO).stat().st_size), (VIDEO, (release / VIDEO).stat().st_size)]
    two = first(release, "zip-two.zip", "archive")["archive"]
    assert two["entries"] == [{"name": n, "size": s, "encrypted": False} for n, s in sizes]
    # zip -P writes a data descriptor after each encrypted member (flag bit 3, the sizes
    # in the local header as well): the next member's header lies past it
    e = first(release, "zip-e-two.zip", "archive")["archive"]
    assert e["encrypted_files"] and e["entries"] == [{"name": n, "size": s, "encrypted": True} for n, s in sizes]


def test_nfo_and_file_starts(release):
    facts = first(release, NFO, "nfo")
    assert facts["nfo"]["title"] == "Real.Tools.2024.1080p.WEB.x264-VOY"
    assert facts["nfo"]["media_ids"] == [{"site": "imdb", "id": "tt1234567"}]
    assert facts["password"] == {"value": PASSWORD, "source": "nfo"}
    assert "\u2588" in facts["nfo"]["text"]         # cp437's full block, as NFO art draws it
    video = first(release, VIDEO, "media")
    assert video["start"] == {"md5_16k": truth(release, VIDEO)["md5_16k"],
                              "size": (release / VIDEO).stat().st_size}
    assert video["media"]["container"] == "mkv"
