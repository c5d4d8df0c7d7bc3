"""workers.probe against the simulator's bodies: for every probe target of a
generated corpus (and the passworded shapes it may not hold), the facts
read from the article equal what the generator described."""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from sim.bodies import encode_part, file_bytes, part_count
from sim.bodyparts.layout import members_of
from sim.bodyparts.par2 import inherit_release
from sim.bodyparts.text import shows_password
from sim.generate import Options, generate
from workers.probe import read_article

RELEASE = "Some.Release.2024.1080p.WEB.x264-GRP"
ARCHIVES = {"rar": "rar4", "rar5": "rar5", "7z": "7z", "zip": "zip"}


def md5_16k(spec: dict) -> str:
    size = int(spec["bytes"])
    return hashlib.md5(file_bytes(spec, 0, min(16384, size))).hexdigest()


def target(spec: dict) -> tuple[str, int] | None:
    """(candidate kind, part) the prober reads of a described file, or None."""
    kind = spec["kind"]
    volume, volumes = int(spec.get("volume") or 1), int(spec.get("volumes") or 1)
    if kind == "7z":
        return ("7z-tail", part_count(spec)) if volume == volumes else None
    if kind in ("rar", "rar5", "zip"):
        return ("archive", 1) if volume == 1 else None
    if kind in ("par2", "par2vol"):
        return "par2", 1
    if kind == "nfo":
        return "nfo", 1
    if kind in ("mkv", "mp4", "avi", "exe"):
        return "media", 1
    return None


def check(spec: dict, kind: str, facts: dict) -> None:
    """The facts of a probe target against its spec."""
    assert facts["error"] is None, (spec["name"], facts["error"])
    y = facts["yenc"]
    assert y["name"] == (spec.get("yenc_name") or spec["name"])
    assert y["size"] == spec["bytes"] and y["crc_ok"]
    if kind != "7z-tail":
        assert facts["start"] == {"md5_16k": md5_16k(spec), "size": spec["bytes"]}
    password = spec.get("password")
    if spec["kind"] in ("par2", "par2vol"):
        members = inherit_release(spec)
        got = {f["name"]: f for f in facts["par2"]["files"]}
        assert sorted(got) == sorted(m["name"] for m in members)
        for m in members:
            assert got[m["name"]]["size"] == m["bytes"]
            assert got[m["name"]]["md5_16k"] == md5_16k(m)
            if m["bytes"] <= 1 << 20:
                assert got[m["name"]]["md5"] == hashlib.md5(file_bytes(m, 0, m["bytes"])).hexdigest()
        assert facts["par2"]["creator"] == "Voyager sim"
        assert facts["password"] is None
    elif spec["kind"] in ARCHIVES:
        a = facts["archive"]
        assert a["format"] == ARCHIVES[spec["kind"]]
        members = members_of(spec)
        if password and spec["kind"] in ("rar5", "7z"):
            # rar -hp and 7z -mhe: passworded, no names
            assert a["encrypted_headers"] and a["encrypted_files"] and a["entries"] == []
        else:
            assert not a["encrypted_headers"]
            assert a["entries"], spec["name"]
            want = [(m["name"], m["bytes"]) for m in members if not m["name"].endswith("/")]
            got = [(e["name"], e["size"]) for e in a["entries"]]
            if spec["kind"] == "7z":
                assert got == want          # the end header lists them all
            else:
                assert got == want[:len(got)]   # the first volume's first headers
            assert a["encrypted_files"] == bool(password)
            assert all(e["encrypted"] == bool(password) for e in a["entries"] if e["size"])
        if spec["kind"] == "7z" and int(spec.get("volumes") or 1) > 1:
            assert a["volume"] == int(spec["volumes"])
        assert facts["password"] is None        # an archive tells whether, never what
    elif spec["kind"] == "nfo":
        n = facts["nfo"]
        assert n["title"] == spec["release"]
        assert spec["release"] in n["text"]
        if shows_password(spec):
            assert n["password"] == password
            assert facts["password"] == {"value": password, "source": "nfo"}
        else:
            assert n["password"] is None and facts["password"] is None
    elif spec["kind"] == "exe":
        assert facts["media"]["executable"] == "pe"
    else:
        m = facts["media"]
        assert m["container"] == spec["kind"] and m["executable"] is None
        if spec["kind"] != "mp4" or part_count(spec) == 1:      # mp4's moov is at the end
            assert m["title"] == spec["release"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("probe-corpus")
    generate(Options(out=out, seed=15, groups=4, lines=40_000, days=1, range_articles=20_000,
                     chunk_articles=5_000))
    return out


def test_every_probe_target_of_a_corpus(corpus):
    seen: dict[str, int] = {}
    with open(corpus / "bodies" / "files.jsonl") as f:
        for line in f:
            spec = json.loads(line)
            found = target(spec)
            if found is None:
                continue
            kind, part = found
            facts = read_article(kind, spec["name"], encode_part(spec, part))
            json.dumps(facts)       # what the prober stores: plain JSON
            check(spec, kind, facts)
            key = spec["kind"] + ("+pw" if spec.get("password") else "")
            seen[key] = seen.get(key, 0) + 1
    # the corpus holds every common shape
    for kind in ("rar", "7z", "zip", "par2", "nfo", "mkv"):
        assert seen.get(kind), (kind, seen)


def spec_of(kind: str, size: int, parts: int = 1, **extra) -> dict:
    spec = {"name": extra.pop("name", f"{RELEASE}.{kind}"), "bytes": size, "kind": kind,
            "volume": 1, "volumes": 1, "release": RELEASE, "password": None, "members": [],
            "seed": 4242, "segments": [[p, f"p{p}.{kind}@sim.local", 780000]
                                       for p in range(1, parts + 1)]}
    spec.update(extra)
    return spec


MEMBERS = [{"name": f"{RELEASE}.mkv", "bytes": 140_000_000}, {"name": f"{RELEASE}.nfo", "bytes": 3000}]
SHAPES = {
    "rar4": spec_of("rar", 50_000_000, 70, volumes=3, name=f"{RELEASE}.part01.rar", members=MEMBERS),
    "rar4-p": spec_of("rar", 50_000_000, 70, volumes=3, name=f"{RELEASE}.part01.rar",
                      members=MEMBERS, password="pw4"),
    "rar5": spec_of("rar5", 50_000_000, 70, volumes=3, name=f"{RELEASE}.part01.rar", members=MEMBERS),
    "rar5-hp": spec_of("rar5", 50_000_000, 70, volumes=3, name=f"{RELEASE}.part01.rar",
                       members=MEMBERS, password="pw5"),
    "7z": spec_of("7z", 50_000_000, 70, volume=3, volumes=3, name=f"{RELEASE}.7z.003", members=MEMBERS),
    "7z-mhe": spec_of("7z", 50_000_000, 70, volume=3, volumes=3, name=f"{RELEASE}.7z.003",
                      members=MEMBERS, password="pw7"),
    "7z-one": spec_of("7z", 3_000_000, 1, members=[{"name": "a.mkv", "bytes": 2_000_000},
                                                   {"name": "b.nfo", "bytes": 0}]),
    "zip": spec_of("zip", 200_000_000, 280, members=list(reversed(MEMBERS))),
    "zip-e": spec_of("zip", 200_000_000, 280, members=list(reversed(MEMBERS)), password="pz"),
    "nfo-p": spec_of("nfo", 3000, password="secret123", seed=1),
    "par2": spec_of("par2", 40_000, members=[
        {"name": f"{RELEASE}.part{i:02d}.rar", "bytes": 50_000_000, "kind": "rar", "volume": i,
         "volumes": 3, "seed": i} for i in range(1, 4)] + [
        {"name": f"{RELEASE}.nfo", "bytes": 3000, "kind": "nfo", "seed": 9}]),
    "mp4": spec_of("mp4", 500_000),
    "avi": spec_of("avi", 50_000_000, 70),
    "exe-as-mkv": spec_of("exe", 50_000_000, 70, name=f"{RELEASE}.mkv"),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_shapes(shape):
    spec = SHAPES[shape]
    kind, part = target(spec)
    check(spec, kind, read_article(kind, spec["name"], encode_part(spec, part)))


def test_a_random_name_is_read_as_what_it_is():
    """A lone random-named file: the sections come from the bytes, not the kind."""
    spec = dict(SHAPES["rar5"], name="4f1c2a9e0b7d4c3e8f6a5b2c1d0e9f8a", yenc_name="4f1c2a9e0b7d4c3e")
    facts = read_article("lone", spec["name"], encode_part(spec, 1))
    assert facts["error"] is None
    assert facts["archive"]["entries"][0]["name"] == f"{RELEASE}.mkv"
    assert facts["yenc"]["name"] == "4f1c2a9e0b7d4c3e"
    exe = read_article("media", "x.mkv", encode_part(SHAPES["exe-as-mkv"], 1))
    assert exe["media"] == {"container": None, "title": None, "executable": "pe"}


def test_later_parts_show_no_start():
    spec = SHAPES["rar4"]
    facts = read_article("archive", spec["name"], encode_part(spec, 2))
    assert facts["yenc"]["part"] == 2 and facts["yenc"]["begin"] > 1
    assert facts["start"] is None and facts["archive"] is None
    assert facts["error"] == "garbage"      # an archive candidate that shows no archive
    # a 7z volume's middle article is nothing to read; its last one holds the listing
    seven = SHAPES["7z"]
    middle = read_article("lone", seven["name"], encode_part(seven, 2))
    assert middle["error"] is None and middle["archive"] is None
    tail = read_article("lone", seven["name"], encode_part(seven, part_count(seven)))
    assert tail["archive"]["entries"][0]["name"] == f"{RELEASE}.mkv"


def test_nfo_links_and_passwords():
    text = ("   ___ ART ___\r\n\r\n  Some.Movie.2019.1080p.BluRay.x264-GRP\r\n"
            "  https://www.imdb.com/title/tt0133093/\r\n  http://www.tvmaze.com/shows/82/x\r\n"
            "  https://thetvdb.com/?tab=series&id=121361\r\n  https://www.themoviedb.org/movie/603-the\r\n"
            "  https://www.themoviedb.org/tv/1399\r\n  imdb.com/title/tt0133093 again\r\n"
            "  Password: {{s3cr3t}}\r\n").encode("cp437")
    from sim.bodies import yenc_part
    facts = read_article("nfo", "x.nfo", yenc_part(text, "x.nfo", 1, 1, len(text), 0))
    n = facts["nfo"]
    assert n["title"] == "Some.Movie.2019.1080p.BluRay.x264-GRP"
    assert n["media_ids"] == [{"site": "imdb", "id": "tt0133093"}, {"site": "tvmaze", "id": "82"},
                              {"site": "tvdb", "id": "121361"}, {"site": "tmdb", "id": "movie/603"},
                              {"site": "tmdb", "id": "tv/1399"}]
    assert n["password"] == "s3cr3t"
    none = b"  Password: none\r\n  Title ....: Other.Show.S01E01.720p.WEB.h264-X\r\n"
    facts = read_article("nfo", "y.nfo", yenc_part(none, "y.nfo", 1, 1, len(none), 0))
    assert facts["nfo"]["password"] is None and facts["password"] is None
    assert facts["nfo"]["title"] == "Other.Show.S01E01.720p.WEB.h264-X"
    assert re.fullmatch(r"[0-9a-f]{32}", facts["start"]["md5_16k"])


def test_media_titles_as_muxers_write_them():
    """mkvmerge's order (SeekHead and Void before Info) and an iTunes-style
    MP4 title (moov/udta/meta/ilst/©nam/data) at the front."""
    from sim.bodies import yenc_part
    from sim.bodyparts.media import box, element
    segment = element(0x114D9B74, b"\x00" * 40) + element(0xEC, b"\x00" * 100) + element(
        0x1549A966, element(0x2AD7B1, b"\x0f\x42\x40") + element(0x7BA9, "Títle.mkv".encode()))
    mkv = element(0x1A45DFA3, element(0x4282, b"webm")) + element(0x18538067, segment) + b"\x00" * 5000
    facts = read_article("media", "a.webm", yenc_part(mkv, "a.webm", 1, 1, len(mkv), 0))
    assert facts["media"] == {"container": "webm", "title": "Títle.mkv", "executable": None}
    data = box(b"data", b"\x00\x00\x00\x01\x00\x00\x00\x00" + b"An Episode Title")
    ilst = box(b"ilst", box(b"\xa9nam", data))
    moov = box(b"moov", box(b"udta", box(b"meta", b"\x00" * 4 + ilst)))
    mp4 = box(b"ftyp", b"isom\x00\x00\x02\x00isomiso2") + moov + box(b"mdat", b"\x00" * 5000)
    facts = read_article("media", "b.mp4", yenc_part(mp4, "b.mp4", 1, 1, len(mp4), 0))
    assert facts["media"] == {"container": "mp4", "title": "An Episode Title", "executable": None}
    elf = b"\x7fELF\x02\x01\x01" + b"\x00" * 1000
    facts = read_article("media", "c.mkv", yenc_part(elf, "c.mkv", 1, 1, len(elf), 0))
    assert facts["media"]["executable"] == "elf"
