"""Releases the simulator serves pass the checks a downloader runs on them:
a corpus of multi-file releases (RAR 5 `.partNN.rar`, RAR 4 `.rar`/`.rNN`,
a `.7z.NNN` split set, a single zip; each with its par2 index and volumes,
an .nfo and an .sfv; files of 2-5 MiB, past what used to be hashed) is
served by `voyager sim serve`; every article is fetched with BODY over NNTP
and yEnc-decoded by sabctools, the files joined and written out, and then
par2cmdline must find every file correct, rar, 7z and unzip must test
every archive OK and the .sfv must list every file's CRC. NZBGet downloads
two of the releases from their NZBs and par2-verifies them itself. The
generator's own releases within TRUE_HASH_LIMIT (its archive volumes are
split evenly, not as the archiver would, so only par2 is asked) verify with
par2cmdline, and NZBGet downloads and par-checks one from the server."""
from __future__ import annotations

import hashlib
import json
import math
import shutil
import socket
import subprocess
import zlib
from pathlib import Path

import pytest

from sim.bodies import Bodies, natural_bytes, part_count, volume_sizes
from sim.bodyparts import TRUE_HASH_LIMIT
from sim.generate import Options, generate
from voyager.corpus import CorpusWriter
from tests.nzb_reference import render as render_nzb
from tests.nzbget import NZBGET, NzbGet
from tests.sim.test_bodies import decode
from tests.sim.test_served_bodies import serve

PART = 716_800
VOLUME = 2 * 1048576
TOOLS = ("par2", "rar", "7z", "unzip")     # rar: RarLab's (Debian's unrar may be unrar-free)
GROUP = "alt.binaries.test.verified"

# (release, archive kind, how its volumes are named, inner files)
RELEASES = [
    ("Verified.Show.S01E01.1080p.WEB.x264-GRP", "rar5", "part",
     [("Verified.Show.S01E01.1080p.WEB.x264-GRP.mkv", 5 * 1048576 + 12_345)]),
    ("Verified.Film.2019.720p.BluRay.x264-OLD", "rar", "old",
     [("Verified.Film.2019.720p.BluRay.x264-OLD.mkv", 4 * 1048576 + 777),
      ("Sample/verified.film.sample.mkv", 1_400_001)]),
    ("Verified.Album.2024.FLAC-SVN", "7z", "7z",
     [("01 - Verified - Opening.flac", 2 * 1048576 + 5), ("02 - Verified - Closing.flac", 3 * 1048576 + 3)]),
    ("Verified.Book.2024.RETAIL.EPUB-ZIP", "zip", "zip",
     [("Verified.Book.epub", 1_700_000), ("Verified.Book.Extras.pdf", 2_300_003)]),
]


def volume_name(release: str, style: str, v: int, n: int) -> str:
    if style == "part":
        return f"{release}.part{v:0{max(2, len(str(n)))}d}.rar"
    if style == "old":
        return f"{release}.rar" if v == 1 else f"{release}.r{v - 2:02d}"
    if style == "7z":
        return f"{release}.7z.{v:03d}"
    return f"{release}.zip"


def posted(spec: dict, tag: str) -> dict:
    """The spec as the generator writes it: with its articles."""
    parts = max(1, math.ceil(spec["bytes"] / PART))
    return dict(spec, part_size=PART, segments=[[p, f"{tag}.{p}of{parts}@verified.sim", int(PART * 1.03) + 400]
                                                 for p in range(1, parts + 1)])


def release_files(release: str, kind: str, style: str, inner: list, seed: int) -> list[dict]:
    """Every file of one release: the archive volumes (sized as the archiver
    splits them), the .nfo, the .sfv, the par2 index and two volumes."""
    members = [{"name": n, "bytes": b} for n, b in inner]
    base = {"kind": kind, "release": release, "password": None, "members": members}
    if style == "zip":
        sizes = [natural_bytes(dict(base, bytes=1, volume=1, volumes=1, seed=seed))]
    else:
        sizes = volume_sizes(dict(base, bytes=VOLUME, volume=1, volumes=2, seed=seed), VOLUME)
    n = len(sizes)
    files = [dict(base, name=volume_name(release, style, v, n), bytes=size, volume=v, volumes=n, seed=seed + v)
             for v, size in enumerate(sizes, 1)]
    side = {"release": release, "password": None, "volume": 1, "volumes": 1}
    nfo = dict(side, name=f"{release}.nfo", kind="nfo", members=members, seed=seed + 50)
    files.append(dict(nfo, bytes=natural_bytes(nfo)))
    sfv = dict(side, name=f"{release}.sfv", kind="sfv", members=list(files), seed=seed + 51)
    files.append(dict(sfv, bytes=natural_bytes(sfv)))
    protected = [dict(f, part_size=PART) for f in files]
    for i, name in enumerate((f"{release}.par2", f"{release}.vol00+01.par2", f"{release}.vol01+02.par2")):
        par2 = dict(side, name=name, kind="par2" if i == 0 else "par2vol", members=protected, seed=seed + 60 + i)
        files.append(dict(par2, bytes=natural_bytes(par2)))
    return [posted(f, f"{seed}.{i}") for i, f in enumerate(files)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict]:
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    root = tmp_path_factory.mktemp("verified") / "corpus"
    releases = {rel: release_files(rel, kind, style, inner, 1000 * (i + 1))
                for i, (rel, kind, style, inner) in enumerate(RELEASES)}
    # one group's overview holds every article (the server answers BODY for
    # the message-ids it lists), bodies/files.jsonl describes every file
    lines = []
    for release, specs in releases.items():
        for i, spec in enumerate(specs, 1):
            for part, mid, nbytes in spec["segments"]:
                n = len(lines) + 1
                subject = f'[{i}/{len(specs)}] - "{spec["name"]}" yEnc ({part}/{len(spec["segments"])})'
                lines.append(f"{n}\t{subject}\tsim <sim@verified.sim>\tTue, 14 Nov 2023 22:13:20 +0000\t"
                             f"<{mid}>\t\t{nbytes}\t{nbytes // 130 + 8}\tXref: verified.sim {GROUP}:{n}".encode())
    writer = CorpusWriter(root)
    writer.write_range(GROUP, 1, len(lines), [(1, len(lines), lines)])
    writer.write_groups([{"name": GROUP, "low": 1, "high": len(lines), "priority": 1}])
    (root / "bodies").mkdir()
    with open(root / "bodies" / "files.jsonl", "w") as f:
        for specs in releases.values():
            for spec in specs:
                f.write(json.dumps(spec) + "\n")
    return root, releases


@pytest.fixture(scope="module")
def server(corpus):
    proc, port = serve(corpus[0])
    try:
        yield port
    finally:
        proc.kill()
        proc.wait(timeout=10)


class Reader:
    """One NNTP connection that asks BODY by message-id, as a downloader does."""

    def __init__(self, port: int):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.f = self.sock.makefile("rb")
        assert self.f.readline()[:3] in (b"200", b"201")

    def body(self, message_id: str) -> bytes:
        """The BODY reply as it came: status line, dot-stuffed lines, the dot line."""
        self.sock.sendall(f"BODY <{message_id}>\r\n".encode())
        status = self.f.readline()
        assert status.startswith(b"222"), status
        lines = [status]
        while True:
            line = self.f.readline()
            assert line, "the reply ended before its terminator"
            lines.append(line)
            if line == b".\r\n":
                return b"".join(lines)

    def close(self) -> None:
        self.sock.sendall(b"QUIT\r\n")
        self.sock.close()


def join(specs: list[dict], into: Path, body) -> dict[str, Path]:
    """Every file of a release from its articles' bodies (`body(message_id,
    bytes)`, unstuffed), each part decoded and its CRC checked by sabctools,
    written at its =ypart offset under its yEnc name."""
    into.mkdir(parents=True)
    out = {}
    for spec in specs:
        name = spec.get("yenc_name") or spec["name"]
        data = bytearray(spec["bytes"])
        for part, mid, nbytes in spec["segments"]:
            r = decode(body(mid, nbytes))
            assert r.crc == r.crc_expected, (name, part)
            assert r.file_size == spec["bytes"] and r.file_name == name
            data[r.part_begin:r.part_begin + len(r.data)] = r.data
        out[name] = into / name
        out[name].write_bytes(bytes(data))
    return out


def download(port: int, specs: list[dict], into: Path) -> dict[str, Path]:
    """A release fetched over NNTP, article by article."""
    reader = Reader(port)
    try:
        return join(specs, into, lambda mid, _n: unframe(reader.body(mid)))
    finally:
        reader.close()


def unframe(reply: bytes) -> bytes:
    """A BODY reply's body: unstuffed, without status and dot lines (decode
    frames it again as the downloader's response)."""
    lines = reply.splitlines(keepends=True)[1:-1]
    return b"".join(x[1:] if x.startswith(b".") else x for x in lines)


def run(cwd: Path, *argv: str) -> str:
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    out = p.stdout + p.stderr
    assert p.returncode == 0, f"{' '.join(argv)} exited {p.returncode}:\n{out[-4000:]}"
    return out


ARCHIVES = ("rar", "rar5", "7z", "zip")


def archive_test(folder: Path, specs: list[dict]) -> None:
    """The archiver's own test of the release's archive set, from its first volume."""
    first = next(s for s in specs if s["kind"] in ARCHIVES and s["volume"] == 1)
    name = first.get("yenc_name") or first["name"]
    if first["kind"] in ("rar", "rar5"):
        out = run(folder, "rar", "t", "-idp", name)
        assert "All OK" in out, out
    if first["kind"] == "zip":
        out = run(folder, "unzip", "-t", name)
        assert "No errors detected" in out, out
    else:
        # 7-Zip reads RAR sets too, checking the same CRCs its own way
        out = run(folder, "7z", "t", name)
        assert "Everything is Ok" in out, out


@pytest.mark.parametrize("release", [r for r, *_ in RELEASES])
def test_a_downloaded_release_verifies_with_par2_and_its_archiver(corpus, server, tmp_path, release):
    _root, releases = corpus
    specs = releases[release]
    assert all(s["bytes"] > 1048576 for s in specs if s["kind"] not in ("nfo", "sfv", "par2", "par2vol"))
    files = download(server, specs, tmp_path / "dl")
    folder = tmp_path / "dl"
    # par2cmdline checks every file's MD5 and every slice's against the index
    out = run(folder, "par2", "verify", "-q", f"{release}.par2")
    assert "All files are correct, repair is not required." in out, out
    archive_test(folder, specs)
    sfv = files[f"{release}.sfv"].read_text()
    listed = {line.rsplit(" ", 1)[0]: line.rsplit(" ", 1)[1] for line in sfv.splitlines()
              if line and not line.startswith(";")}
    archives = [s["name"] for s in specs if s["kind"] in ARCHIVES]
    assert sorted(listed) == sorted(archives + [f"{release}.nfo"])
    for name, crc in listed.items():
        assert int(crc, 16) == zlib.crc32(files[name].read_bytes()), name


def test_a_corrupted_file_fails_the_checks(corpus, server, tmp_path):
    # the checks see the bytes: one flipped byte in a volume is found by both
    release, _kind, style, _inner = RELEASES[0]
    files = download(server, corpus[1][release], tmp_path / "dl")
    victim = files[volume_name(release, style, 2, 3)]
    data = bytearray(victim.read_bytes())
    data[len(data) // 2] ^= 0xFF
    victim.write_bytes(bytes(data))
    p = subprocess.run(["par2", "verify", f"{release}.par2"], cwd=tmp_path / "dl",
                       capture_output=True, text=True, timeout=120)
    said = p.stdout + p.stderr
    assert p.returncode != 0 and "1 file(s) exist but are damaged." in said, said
    # the par2 volumes' recovery packets are all accepted (their MD5s hold)
    assert "You have 3 recovery blocks available." in said and "Repair is possible." in said, said
    p = subprocess.run(["rar", "t", "-idp", volume_name(release, style, 1, 3)], cwd=tmp_path / "dl",
                       capture_output=True, text=True, timeout=120)
    said = p.stdout + p.stderr
    # the piece's own CRC in that volume's header finds it
    assert p.returncode != 0 and f"packed data checksum error in volume {victim.name}" in said, said


def nzb_of(specs: list[dict], release: str) -> bytes:
    files = [((s.get("yenc_name") or s["name"]).encode(), s["bytes"],
              [(p, mid.encode(), n) for p, mid, n in s["segments"]]) for s in specs]
    return render_nzb(files, release, "sim <sim@verified.sim>", 1_700_000_000, [GROUP]).encode()


@pytest.mark.skipif(not Path(NZBGET).is_file(), reason="nzbget is not installed")
def test_nzbget_downloads_and_par2_verifies_the_releases(corpus, server, tmp_path):
    _root, releases = corpus
    with NzbGet(tmp_path / "nzbget", host="127.0.0.1", port=server) as nzbget:
        for release, _kind, _style, _inner in RELEASES[:2]:
            specs = releases[release]
            done = nzbget.download(nzb_of(specs, release), release)
            why = f"{release}: {done.status} / par {done.par_status}\n{nzbget.log()}"
            assert done.status == "SUCCESS/PAR" and done.par_status == "SUCCESS", why
            assert sorted(done.files) == sorted(s["name"] for s in specs), why
            ours = download(server, specs, tmp_path / release)
            for name, path in done.files.items():
                assert hashlib.sha256(path.read_bytes()).digest() == \
                    hashlib.sha256(ours[name].read_bytes()).digest(), name


# --- releases the generator made ---------------------------------------------------------

@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    if shutil.which("par2") is None:
        pytest.skip("par2 is not installed")
    out = tmp_path_factory.mktemp("generated") / "corpus"
    generate(Options(out=out, seed=1, groups=2, lines=6_000, days=1, range_articles=10_000,
                     chunk_articles=3_000))
    return out


def par2_sets(root: Path) -> list[list[dict]]:
    """The generated releases with a par2 set, every article posted, whose
    files total at most TRUE_HASH_LIMIT, the smallest first."""
    by: dict[str, list[dict]] = {}
    for line in (root / "bodies" / "files.jsonl").read_text().splitlines():
        spec = json.loads(line)
        by.setdefault(spec["release"], []).append(spec)
    sets = []
    for specs in by.values():
        names = [s.get("yenc_name") or s["name"] for s in specs]
        if (any(s["kind"] == "par2" for s in specs) and len(set(names)) == len(names)
                and all(len(s["segments"]) == part_count(s) for s in specs)
                and sum(s["bytes"] for s in specs if s["kind"] not in ("par2", "par2vol")) <= TRUE_HASH_LIMIT):
            sets.append(specs)
    return sorted(sets, key=lambda specs: sum(s["bytes"] for s in specs))


def test_generated_par2_sets_verify(generated, tmp_path):
    sets = par2_sets(generated)[:2]
    assert len(sets) == 2
    bodies = Bodies(generated)
    for i, specs in enumerate(sets):
        # through sim.bodies directly this time, each body decoded as from the wire
        files = join(specs, tmp_path / str(i), bodies.body)
        assert sum(p.stat().st_size for p in files.values()) > 20 * 1048576
        index = next(s for s in specs if s["kind"] == "par2")
        out = run(tmp_path / str(i), "par2", "verify", "-q", index.get("yenc_name") or index["name"])
        assert "All files are correct, repair is not required." in out, out


@pytest.mark.skipif(not Path(NZBGET).is_file(), reason="nzbget is not installed")
def test_nzbget_downloads_and_par2_verifies_a_generated_release(generated, tmp_path):
    specs = par2_sets(generated)[0]
    proc, port = serve(generated)
    try:
        with NzbGet(tmp_path / "nzbget", host="127.0.0.1", port=port) as nzbget:
            done = nzbget.download(nzb_of(specs, specs[0]["release"]), "generated", timeout=240)
            why = f"{done.status} / par {done.par_status}\n{nzbget.log()}"
            assert done.status == "SUCCESS/PAR" and done.par_status == "SUCCESS", why
            assert sorted(done.files) == sorted(s.get("yenc_name") or s["name"] for s in specs), why
    finally:
        proc.kill()
        proc.wait(timeout=10)
