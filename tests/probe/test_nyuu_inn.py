"""The prober and the NZBs end to end with tools nobody here wrote: releases
made by rar 7 (RAR5, -p, -hp), p7zip (-p -mhe=on, plain, unsplit), Info-ZIP's zip
(plain, -P) and par2cmdline, their files
renamed to random names as an obfuscating poster does (a fake keeps the film's
name, the way a fake is meant to be found), posted by Nyuu 0.4.0
(tests/nyuu.py) into Debian's INN 2 (tests/inn.py), indexed by `voyager
worker`, probed by `voyager probe`, named and moved into the catalog by the
pending ladder (`voyager tick --once`) and `voyager namer`. A third release
is posted one random-named file at a time under ngPost's obfuscated subject
(no file counter, no shared stem): the header pass sees one upload a file,
and the merges job makes it one release again. A fake (7z volumes holding
only a program under a film's name) and a film beside its installer show the
facts the junk judge reads. Then Debian's NZBGet
(tests/nzbget.py) downloads each release's NZB from the web's `t=get`,
par2-verifies it, and the files come out byte-identical to those posted.

Skipped only when INN cannot be installed here; Nyuu and NZBGet missing is a
failure (scripts/setup.sh installs both, so in CI every test runs). A failing
step says what the tool printed.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

import psycopg
import pytest

from tests.conftest import create_database, drop_database
from tests.inn import InnServer, InnUnavailable, ensure_inn
from tests.nyuu import ensure_nyuu, post_files
from tests.nzbget import NzbGet

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
GROUP = "alt.binaries.voyager.real"
PASSWORD = "s3cret-Pw"
VIDEO = "Real.Nyuu.2024.1080p.WEB.x264-VOY.mkv"
VIDEO_7Z = "Real.Nyuu.Sevenz.2024.1080p.WEB.x264-VOY.mkv"
VIDEO_APART = "Real.Nyuu.Apart.2024.720p.WEB.x264-VOY.mkv"
VIDEO_ZIP = "Real.Nyuu.Zip.2024.1080p.WEB.x264-VOY.mkv"
VIDEO_ZIP_P = "Real.Nyuu.Zipcrypto.2024.1080p.WEB.x264-VOY.mkv"
VIDEO_HP = "Real.Nyuu.Sealed.2024.1080p.WEB.x264-VOY.mkv"
VIDEO_7Z_OPEN = "Real.Nyuu.Sevenz.Open.2024.1080p.WEB.x264-VOY.mkv"
VIDEO_7Z_WHOLE = "Real.Nyuu.Sevenz.Whole.2024.1080p.WEB.x264-VOY.mkv"
VIDEO_SETUP = "Real.Nyuu.Setup.2024.1080p.WEB.x264-VOY.mkv"
FAKE = "Some.Film.2019.1080p.BluRay.x264-GRP.mkv"        # what the fake poses as; it holds FAKE's .exe
INSTALLER = "Setup.exe"
SMALL = 1_500_000           # the releases after the first three: a couple of articles a volume
SAMPLE = 100_000            # packed before the video: both members' headers in the first article
ARTICLE = 716800            # Nyuu's -a 700K


def run_tool(argv, cwd: Path, timeout: float = 120) -> str:
    """A release tool's run; its output in the failure when it fails."""
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"{' '.join(map(str, argv))} exited {p.returncode}:\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"
    return p.stdout


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def obfuscate(folder: Path, base: str) -> dict:
    """Renames every file of the release to one random stem, keeping what
    follows `base` (.part1.rar, .vol000+10.par2): {random name: true name}."""
    stem = os.urandom(12).hex()
    names = {}
    for p in sorted(folder.iterdir()):
        assert p.name.startswith(base), p.name
        new = stem + p.name[len(base):]
        p.rename(folder / new)
        names[new] = p.name
    return names


def obfuscate_each(folder: Path, base: str) -> dict:
    """Gives every file of the release a random name of its own (no shared stem,
    no extension): {random name: true name}."""
    names = {}
    for p in sorted(folder.iterdir()):
        assert p.name.startswith(base), p.name
        new = os.urandom(14).hex()
        p.rename(folder / new)
        names[new] = p.name
    return names


def keep_names(folder: Path, base: str) -> dict:
    """The names as packed: a fake is posted under the film's name to be found."""
    return {p.name: p.name for p in sorted(folder.iterdir())}


def make_release(root: Path, label: str, video: str, pack, rename=obfuscate, size: int = 3_000_000) -> dict:
    """A few-MB "video" packed by `pack(folder, base, video)` into volumes, a par2
    set over the volumes, the video removed, the rest renamed: what is posted.
    `entries`: what the archive holds, [(name, size)] in the order packed."""
    folder = root / label
    folder.mkdir()
    base = video.rsplit(".", 1)[0]
    data = b"\x1a\x45\xdf\xa3" + os.urandom(size)       # Matroska's magic, then noise
    (folder / video).write_bytes(data)
    entries = pack(folder, base, video)
    (folder / video).unlink()
    volumes = sorted(p.name for p in folder.iterdir())
    run_tool(["par2", "create", "-q", "-r10", "-n2", f"{base}.par2", *volumes], folder)
    names = rename(folder, base)
    return {"label": label, "folder": folder, "video": video, "video_size": len(data), "names": names,
            "volumes": volumes, "entries": entries, "sha256": {p.name: sha256(p) for p in folder.iterdir()}}


def packed(folder: Path, names: list[str]) -> list[tuple]:
    return [(n, (folder / n).stat().st_size) for n in names]


def pack_rar(folder: Path, base: str, video: str) -> list:
    run_tool(["rar", "a", "-idq", "-m0", "-v1m", f"-p{PASSWORD}", f"{base}.rar", video], folder)
    return packed(folder, [video])


def pack_rar_hp(folder: Path, base: str, video: str) -> list:
    run_tool(["rar", "a", "-idq", "-m0", "-v1m", f"-hp{PASSWORD}", f"{base}.rar", video], folder)
    return packed(folder, [video])


def pack_7z(folder: Path, base: str, video: str) -> list:
    run_tool(["7z", "a", "-bd", "-mx0", "-v1m", f"-p{PASSWORD}", "-mhe=on", f"{base}.7z", video], folder)
    return packed(folder, [video])


def program(path: Path, size: int) -> None:
    """A Windows program of `size` bytes: setuptools' launcher (a real PE, there
    wherever this project builds) with a payload appended, as an installer carries."""
    import setuptools
    stub = (Path(setuptools.__file__).parent / "cli-64.exe").read_bytes()
    assert stub[:2] == b"MZ" and b"PE\0\0" in stub[:1024]
    path.write_bytes(stub + os.urandom(max(0, size - len(stub))))


def pack_7z_program(folder: Path, base: str, video: str) -> list:
    """The fake: 7z volumes holding nothing but a program named as the film."""
    exe = f"{base}.exe"
    program(folder / exe, SMALL)
    run_tool(["7z", "a", "-bd", "-mx0", "-v1m", f"{base}.7z", exe], folder)
    entries = packed(folder, [exe])
    (folder / exe).unlink()
    return entries


def pack_rar_setup(folder: Path, base: str, video: str) -> list:
    """A film with an installer beside it (packed first: both headers in the first article)."""
    program(folder / INSTALLER, 64_000)
    entries = packed(folder, [INSTALLER, video])
    run_tool(["rar", "a", "-idq", "-m0", "-v1m", f"{base}.rar", INSTALLER, video], folder)
    (folder / INSTALLER).unlink()
    return entries


def with_sample(pack):
    """`pack` over a small sample and the video, the sample first; the sample removed after."""
    def pack_both(folder: Path, base: str, video: str) -> list:
        sample = f"{base}.sample.mkv"
        (folder / sample).write_bytes(b"\x1a\x45\xdf\xa3" + os.urandom(SAMPLE - 4))
        entries = packed(folder, [sample, video])
        pack(folder, base, [sample, video])
        (folder / sample).unlink()
        return entries
    return pack_both


@with_sample
def pack_zip(folder: Path, base: str, files: list) -> None:
    run_tool(["zip", "-q", "-0", f"{base}.zip", *files], folder)


@with_sample
def pack_zip_p(folder: Path, base: str, files: list) -> None:
    run_tool(["zip", "-q", "-0", "-P", PASSWORD, f"{base}.zip", *files], folder)


@with_sample
def pack_7z_open(folder: Path, base: str, files: list) -> None:
    run_tool(["7z", "a", "-bd", "-mx0", "-v1m", f"{base}.7z", *files], folder)


@with_sample
def pack_7z_whole(folder: Path, base: str, files: list) -> None:
    run_tool(["7z", "a", "-bd", "-mx1", f"{base}.7z", *files], folder)      # one .7z, its header LZMA-packed


@pytest.fixture(scope="module")
def inn_available():
    try:
        ensure_inn()
    except InnUnavailable as exc:
        pytest.skip(f"Debian's inn2 (INN 2) cannot be installed on this machine: {exc}")
    ensure_nyuu()      # installed by scripts/setup.sh: missing, it is a failure, not a skip


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> list[dict]:
    root = tmp_path_factory.mktemp("nyuu-releases")
    return [make_release(root, "rar", VIDEO, pack_rar), make_release(root, "7z", VIDEO_7Z, pack_7z),
            make_release(root, "apart", VIDEO_APART, pack_rar, rename=obfuscate_each),
            make_release(root, "zip", VIDEO_ZIP, pack_zip, size=SMALL),
            make_release(root, "zip-p", VIDEO_ZIP_P, pack_zip_p, size=SMALL),
            make_release(root, "rar-hp", VIDEO_HP, pack_rar_hp, size=SMALL),
            make_release(root, "7z-open", VIDEO_7Z_OPEN, pack_7z_open, size=SMALL),
            make_release(root, "7z-whole", VIDEO_7Z_WHOLE, pack_7z_whole, size=SMALL),
            make_release(root, "fake", FAKE, pack_7z_program, rename=keep_names, size=SMALL),
            make_release(root, "setup", VIDEO_SETUP, pack_rar_setup, size=SMALL)]


def by_label(releases: list[dict]) -> dict:
    return {rel["label"]: rel for rel in releases}


@pytest.fixture(scope="module")
def fed(inn_available, releases, tmp_path_factory):
    """A running INN with each release posted by Nyuu: (server, {label: NyuuPost})."""
    tmp = tmp_path_factory.mktemp("nyuu-inn")
    with InnServer(tmp, groups=[GROUP]) as inn:
        posts = {}
        for rel in releases:
            files = sorted(rel["folder"].iterdir())
            poster = f"{os.urandom(4).hex()} <{os.urandom(4).hex()}@ngPost.com>"
            if rel["label"] != "apart":
                posts[rel["label"]] = post_files(inn, files, group=GROUP, out_dir=tmp / rel["label"], poster=poster)
                continue
            # one random-named file at a time under ngPost's obfuscated subject (no file counter):
            # each file is an upload of its own to the header pass; the par2 merge makes them one
            whole = None
            for i, f in enumerate(files):
                one = post_files(inn, [f], group=GROUP, out_dir=tmp / rel["label"] / str(i), poster=poster,
                                 subject='"{filename}" yEnc ({part}/{parts})')
                if whole is None:
                    whole = one
                else:
                    whole.files.update(one.files)
                    whole.subjects.update(one.subjects)
                    whole.output += "\n" + one.output
            posts[rel["label"]] = whole
        yield inn, posts


def voyager(argv: list[str], env: dict, timeout: float = 120) -> str:
    p = subprocess.run([sys.executable, "-m", "voyager.cli", *argv], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"voyager {' '.join(argv)} exited {p.returncode}:\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}"
    return p.stdout


@pytest.fixture(scope="module")
def indexed(fed, admin_dsn, template_db, tmp_path_factory):
    """A fresh database planned from INN's LIST ACTIVE, indexed, probed, its
    pending releases named (the tick's pending ladder) and moved (the namer):
    (conn, dsn, env, what each command printed)."""
    inn, _posts = fed
    name = f"voyager_nyuu_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    home = tmp_path_factory.mktemp("nyuu-home")
    env = dict(os.environ, VOYAGER_HOME=str(home), VOYAGER_DSN=dsn, VOYAGER_POOLED_DSN=dsn,
               VOYAGER_WORKER_DSN=dsn, VOYAGER_NNTP_HOST=inn.host, VOYAGER_NNTP_PORT=str(inn.reader_port),
               VOYAGER_NNTP_CONNECTIONS="4", VOYAGER_NNTP_TIMEOUT="20")
    for k in ("VOYAGER_CORPUS", "VOYAGER_NNTP_USER", "VOYAGER_NNTP_PASS", "VOYAGER_NNTP_TLS",
              "VOYAGER_NNTP_WANT", "VOYAGER_NNTP_MODES"):
        env.pop(k, None)
    said = {}
    with psycopg.connect(dsn, autocommit=True) as conn:        # the merges read what is new at once
        conn.execute("UPDATE voyager.settings SET value = '0' WHERE name = 'merge_lag_seconds'")
    try:
        for step, argv in (("plan", ["plan"]),
                           ("worker", ["worker", "--until-idle", "--flush-at-end", "--node", "nyuu"]),
                           ("probe", ["probe", "--threads", "2", "--until-idle", "--node", "nyuu"]),
                           ("tick", ["tick", "--once", "--node", "nyuu"]),
                           ("namer", ["namer", "--until-idle", "--node", "nyuu"]),
                           ("merges", ["tick", "--once", "--node", "nyuu"])):
            if step == "merges":
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name IN ('merges', 'settle')")
            said[step] = voyager(argv, env)
        with psycopg.connect(dsn, autocommit=True) as conn:
            yield conn, dsn, env, said
    finally:
        drop_database(admin_dsn, name)


def printed(said: dict) -> str:
    """What the voyager commands printed, for a failure's message."""
    return "\n".join(f"--- voyager {k}\n{v[-1500:]}" for k, v in said.items())


def volume_truth(rel: dict) -> list[tuple]:
    """(true name, size, MD5 of the first 16 KiB, MD5) of each volume the par2 set covers."""
    out = []
    for posted, true in rel["names"].items():
        if true in rel["volumes"]:
            data = (rel["folder"] / posted).read_bytes()
            out.append((true, len(data), hashlib.md5(data[:16384]).hexdigest(), hashlib.md5(data).hexdigest()))
    return sorted(out)


def probed(conn, message_id: str, said: dict) -> dict:
    """What the probe cache holds of an article read whole."""
    row = conn.execute("SELECT status, error, facts FROM voyager.probe_cache WHERE message_id = %s",
                       (message_id,)).fetchone()
    assert row is not None, f"{message_id} was never probed:\n{printed(said)}"
    assert row[0] == 0 and row[1] is None, (row, printed(said))
    return row[2]


def first_mid(post, suffix: str) -> str:
    """The first message-id of the posted file whose name ends with `suffix`."""
    (name,) = [n for n in post.files if n.endswith(suffix)]
    return post.files[name][0]


def test_nyuu_posted_only_random_names(fed, releases):
    inn, posts = fed
    for rel in releases:
        post = posts[rel["label"]]
        assert set(post.files) == set(rel["names"]), post.output
        # nothing a subject shows says what the release is, but the fake's the film it poses as
        for name, subject in post.subjects.items():
            assert name in subject, post.output
            assert ("Some.Film" in subject) if rel["label"] == "fake" else ("Real" not in subject), post.output
        # each file in articles of 700 KiB
        sizes = {n: (rel["folder"] / n).stat().st_size for n in rel["names"]}
        assert {n: len(m) for n, m in post.files.items()} == {n: -(-s // ARTICLE) for n, s in sizes.items()}, \
            post.output


def test_the_par2_sets_hold_the_true_names(fed, releases, indexed):
    _inn, posts = fed
    conn, _dsn, _env, said = indexed
    for rel in releases:
        par2_mids = {m for n, mids in posts[rel["label"]].files.items() if rel["names"][n].endswith(".par2")
                     for m in mids}
        sets = conn.execute("SELECT set_id, creator, message_id, files, files_dropped_at IS NOT NULL "
                            "FROM voyager.par2_sets s WHERE message_id = ANY(%s)", (list(par2_mids),)).fetchall()
        assert len(sets) == 1, (rel["label"], sets, printed(said))
        set_id, creator, mid, count, dropped = sets[0]
        assert "par2cmdline" in creator and count == len(rel["volumes"]), (sets, printed(said))
        files = conn.execute("SELECT name, size, encode(md5_16k, 'hex'), encode(md5, 'hex') "
                             "FROM voyager.par2_files WHERE set_id = %s ORDER BY name", (set_id,)).fetchall()
        # the fake, whole and named by its subjects, leaves its set nothing to merge: the
        # par2_lists job may have dropped the list already
        assert files == ([] if dropped and rel["label"] == "fake" else volume_truth(rel)), \
            (rel["label"], printed(said))


def test_the_archives_inner_names_and_encryption(fed, releases, indexed):
    _inn, posts = fed
    conn, _dsn, _env, said = indexed
    rar = by_label(releases)["rar"]
    # RAR5 -p: the names are readable, the files encrypted
    facts = probed(conn, first_mid(posts["rar"], ".part1.rar"), said)
    assert facts["yenc"]["name"].endswith(".part1.rar") and facts["yenc"]["crc_ok"], facts
    a = facts["archive"]
    assert (a["format"], a["volume"], a["solid"], a["encrypted_headers"], a["encrypted_files"]) == \
        ("rar5", 1, False, False, True), (a, printed(said))
    assert a["entries"] == [{"name": VIDEO, "size": rar["video_size"], "encrypted": True}], a
    # 7z -p -mhe=on: the tail of the last volume says passworded, and no names
    (last,) = [mids[-1] for n, mids in posts["7z"].files.items() if n.endswith(".7z.003")]
    tail = conn.execute("SELECT message_id FROM voyager.probe_cache WHERE kind = '7z-tail' "
                        "AND message_id = ANY(%s)", (posts["7z"].message_ids,)).fetchall()
    assert tail == [(last,)], (tail, printed(said))
    a = probed(conn, tail[0][0], said)["archive"]
    assert (a["format"], a["volume"], a["encrypted_headers"], a["encrypted_files"], a["entries"]) == \
        ("7z", 3, True, True, []), (a, printed(said))
    # named from the par2 sets, moved into the catalog: passworded, the inner name searchable
    got = {name: (source, status) for name, source, status in conn.execute(
        "SELECT r.name, r.source, p.status FROM voyager.releases r "
        "LEFT JOIN voyager.release_passwords p ON p.release_id = r.id WHERE r.merged_into IS NULL")}
    apart = VIDEO_APART.rsplit(".", 1)[0]
    assert got.pop(apart, None) in ((7, 1), (8, 1)), (got, printed(said))    # by its set, or its volumes' file
    # the fake named by the header pass from its subjects: the volumes' stem
    assert got.pop(FAKE.rsplit(".", 1)[0], None) in ((1, None), (3, None)), (got, printed(said))
    assert got == {VIDEO.rsplit(".", 1)[0]: (7, 1), VIDEO_7Z.rsplit(".", 1)[0]: (7, 1),
                   # an encrypted zip or RAR headers sealed: passworded; a plain zip or 7z: no row
                   VIDEO_ZIP_P.rsplit(".", 1)[0]: (7, 1), VIDEO_HP.rsplit(".", 1)[0]: (7, 1),
                   VIDEO_ZIP.rsplit(".", 1)[0]: (7, None), VIDEO_7Z_OPEN.rsplit(".", 1)[0]: (7, None),
                   VIDEO_7Z_WHOLE.rsplit(".", 1)[0]: (7, None), VIDEO_SETUP.rsplit(".", 1)[0]: (7, None)}, \
        (got, printed(said))
    # posted one random-named file at a time: merged into one release holding every file
    files, merged = conn.execute("SELECT r.files, (SELECT count(*) FROM voyager.release_merges m "
                                 "WHERE m.survivor_id = r.id) FROM voyager.releases r "
                                 "WHERE r.name = %s AND r.merged_into IS NULL", (apart,)).fetchone()
    assert files == len(by_label(releases)["apart"]["names"]) and merged == files - 1, (files, merged, printed(said))
    assert inner_names(conn, VIDEO) == [VIDEO], printed(said)
    assert conn.execute("SELECT count(*) FROM voyager.release_passwords WHERE password IS NOT NULL").fetchone()[0] == 0


def inner_names(conn, video: str) -> list[str]:
    """The catalog release's archive entries as search reads them (release_texts kind 2)."""
    rows = conn.execute("SELECT t.text FROM voyager.release_texts t JOIN voyager.releases r ON r.id = t.release_id "
                        "WHERE t.kind = 2 AND r.name = %s AND r.merged_into IS NULL",
                        (video.rsplit(".", 1)[0],)).fetchall()
    return [line for (text,) in rows for line in text.split("\n")]


def lock(conn, video: str) -> tuple | None:
    """The catalog release's release_passwords row: (status, source, password), None without one."""
    return conn.execute("SELECT p.status, p.source, p.password FROM voyager.releases r "
                        "JOIN voyager.release_passwords p ON p.release_id = r.id "
                        "WHERE r.name = %s AND r.merged_into IS NULL", (video.rsplit(".", 1)[0],)).fetchone()


def test_zip_rar_hp_and_a_plain_7z_as_the_tools_wrote_them(fed, releases, indexed):
    _inn, posts = fed
    conn, _dsn, _env, said = indexed
    rels = by_label(releases)
    # zip: every local header in the first article read, names and sizes; nothing encrypted
    a = probed(conn, first_mid(posts["zip"], ".zip"), said)["archive"]
    want = [{"name": n, "size": s, "encrypted": False} for n, s in rels["zip"]["entries"]]
    assert (a["format"], a["volume"], a["encrypted_headers"], a["encrypted_files"], a["entries"]) == \
        ("zip", None, False, False, want), (a, printed(said))
    assert inner_names(conn, VIDEO_ZIP) == [n for n, _ in rels["zip"]["entries"]], printed(said)
    assert lock(conn, VIDEO_ZIP) is None, printed(said)
    # zip -P: the encryption bit on every member, the names still there
    a = probed(conn, first_mid(posts["zip-p"], ".zip"), said)["archive"]
    want = [{"name": n, "size": s, "encrypted": True} for n, s in rels["zip-p"]["entries"]]
    assert (a["format"], a["encrypted_headers"], a["encrypted_files"], a["entries"]) == \
        ("zip", False, True, want), (a, printed(said))
    assert inner_names(conn, VIDEO_ZIP_P) == [n for n, _ in rels["zip-p"]["entries"]], printed(said)
    assert lock(conn, VIDEO_ZIP_P) == (1, "archive", None), printed(said)
    # rar -hp: every header sealed (the main header's volume number too), so passworded and no name
    facts = probed(conn, first_mid(posts["rar-hp"], ".part1.rar"), said)
    a = facts["archive"]
    assert (a["format"], a["volume"], a["encrypted_headers"], a["encrypted_files"], a["entries"]) == \
        ("rar5", None, True, True, []), (a, printed(said))
    assert facts["password"] is None
    assert inner_names(conn, VIDEO_HP) == [], printed(said)
    assert lock(conn, VIDEO_HP) == (1, "archive", None), printed(said)
    # 7z without a password, in -v1m volumes and as one LZMA .7z: the last volume's tail
    # (the last article of the .7z, past its first) lists both entries
    for label, video, volume in (("7z-open", VIDEO_7Z_OPEN, len(rels["7z-open"]["volumes"])),
                                 ("7z-whole", VIDEO_7Z_WHOLE, None)):
        rel = rels[label]
        (vol,) = [n for n, true in rel["names"].items() if true == rel["volumes"][-1]]
        last = posts[label].files[vol][-1]
        assert volume or len(posts[label].files[vol]) > 1, posts[label].output     # the .7z's tail is not its start
        tail = conn.execute("SELECT message_id FROM voyager.probe_cache WHERE kind = '7z-tail' "
                            "AND message_id = ANY(%s)", (posts[label].message_ids,)).fetchall()
        assert tail == [(last,)], (label, tail, printed(said))
        a = probed(conn, last, said)["archive"]
        assert (a["format"], a["volume"], a["encrypted_headers"], a["encrypted_files"]) == \
            ("7z", volume, False, False), (label, a, printed(said))
        assert sorted((e["name"], e["size"], e["encrypted"]) for e in a["entries"]) == \
            sorted((n, s, False) for n, s in rel["entries"]), (label, a, printed(said))
        assert sorted(inner_names(conn, video)) == sorted(n for n, _ in rel["entries"]), printed(said)
        assert lock(conn, video) is None, printed(said)


def test_a_fake_and_a_film_beside_its_installer_as_the_tools_wrote_them(fed, releases, indexed):
    """What the junk judge's fake rule reads: every entry of the fake a program,
    the film's listing a program and a video."""
    _inn, posts = fed
    conn, _dsn, _env, said = indexed
    rels = by_label(releases)
    # 7z volumes holding only FAKE's .exe: the last volume's tail lists it, unencrypted
    fake = rels["fake"]
    (last,) = [mids[-1] for n, mids in posts["fake"].files.items() if n == fake["volumes"][-1]]
    tail = conn.execute("SELECT message_id FROM voyager.probe_cache WHERE kind = '7z-tail' "
                        "AND message_id = ANY(%s)", (posts["fake"].message_ids,)).fetchall()
    assert tail == [(last,)], (tail, printed(said))
    a = probed(conn, last, said)["archive"]
    exe = FAKE.rsplit(".", 1)[0] + ".exe"
    assert [(n, s) for n, s in fake["entries"]] == [(exe, SMALL)]
    assert (a["format"], a["volume"], a["encrypted_headers"], a["encrypted_files"], a["entries"]) == \
        ("7z", len(fake["volumes"]), False, False, [{"name": exe, "size": SMALL, "encrypted": False}]), \
        (a, printed(said))
    assert inner_names(conn, FAKE) == [exe], printed(said)
    assert lock(conn, FAKE) is None, printed(said)
    # RAR5 volumes, the installer first: the first article lists both entries
    setup = rels["setup"]
    a = probed(conn, first_mid(posts["setup"], ".part1.rar"), said)["archive"]
    assert (a["format"], a["volume"], a["encrypted_headers"], a["encrypted_files"], a["entries"]) == \
        ("rar5", 1, False, False, [{"name": n, "size": s, "encrypted": False} for n, s in setup["entries"]]), \
        (a, printed(said))
    assert [n for n, _ in setup["entries"]] == [INSTALLER, VIDEO_SETUP]
    assert sorted(inner_names(conn, VIDEO_SETUP)) == sorted([INSTALLER, VIDEO_SETUP]), printed(said)
    assert lock(conn, VIDEO_SETUP) is None, printed(said)


def search_total(conn, word: str, judged: bool = False) -> int:
    """voyager.search_page's exact total for one word, as the API's search reads it."""
    return conn.execute("SELECT total FROM voyager.search_page(jsonb_build_object('words', ARRAY[%s::text], "
                        "'judged', %s), 100, 0) LIMIT 1", (word, judged)).fetchone()[0]


def verdicts(conn) -> dict:
    """{catalog release name: its hiding verdict, or None}."""
    return dict(conn.execute("SELECT r.name, j.verdict FROM voyager.releases r LEFT JOIN voyager.release_judgements j "
                             "ON j.release_id = r.id AND j.hidden WHERE r.merged_into IS NULL").fetchall())


def test_the_judge_hides_the_fake_and_the_locked_and_takes_a_verdict_back(indexed):
    conn, _dsn, _env, said = indexed
    everything = search_total(conn, "nyuu")
    conn.execute("SELECT voyager.run_sql_job('judge')")
    got = verdicts(conn)
    base = {video: video.rsplit(".", 1)[0] for video in (VIDEO, VIDEO_7Z, VIDEO_APART, VIDEO_ZIP, VIDEO_ZIP_P,
                                                          VIDEO_HP, VIDEO_7Z_OPEN, VIDEO_7Z_WHOLE, VIDEO_SETUP, FAKE)}
    # the program under a film's name is a fake; every encrypted archive with no password
    # known is locked; a film beside its installer and the open archives get no verdict
    assert got == {base[FAKE]: "fake",
                   base[VIDEO]: "locked", base[VIDEO_7Z]: "locked", base[VIDEO_APART]: "locked",
                   base[VIDEO_ZIP_P]: "locked", base[VIDEO_HP]: "locked",
                   base[VIDEO_ZIP]: None, base[VIDEO_7Z_OPEN]: None, base[VIDEO_7Z_WHOLE]: None,
                   base[VIDEO_SETUP]: None}, (got, printed(said))
    # hidden, not deleted: out of search and its totals unless the judged are asked for
    assert search_total(conn, "nyuu") == everything - 5
    assert search_total(conn, "film") == 0 and search_total(conn, "film", judged=True) == 1
    assert search_total(conn, "sealed") == 0
    # the password arrives from an NZB's meta: the verdict is taken back, the release found again
    (sealed,) = conn.execute("SELECT id FROM voyager.releases WHERE name = %s AND merged_into IS NULL",
                             (base[VIDEO_HP],)).fetchone()
    conn.execute("SELECT voyager.add_release_password(%s, %s, 'nzb')", (sealed, PASSWORD))
    conn.execute("SELECT voyager.run_sql_job('judge')")
    assert verdicts(conn) == dict(got, **{base[VIDEO_HP]: None}), printed(said)
    assert lock(conn, VIDEO_HP)[1:] == ("nzb", PASSWORD)
    assert search_total(conn, "sealed") == 1
    assert search_total(conn, "nyuu") == everything - 4
    assert conn.execute("SELECT * FROM voyager.check_search_counts()").fetchall() == []


@pytest.fixture(scope="module")
def web(indexed):
    from tests.web.conftest import start_server, stop_server
    conn, dsn, env, _said = indexed
    key = voyager(["users", "add", "nzbget"], env).strip()
    server = start_server(dsn)
    try:
        yield server, key
    finally:
        stop_server(server.proc)


def test_nzbget_downloads_the_nzbs_and_par2_verifies_them(fed, releases, indexed, web, tmp_path):
    inn, _posts = fed
    conn, _dsn, _env, said = indexed
    server, key = web
    with NzbGet(tmp_path / "nzbget", host=inn.host, port=inn.reader_port) as nzbget:
        for rel in releases:
            name = rel["video"].rsplit(".", 1)[0]
            (guid,) = conn.execute("SELECT encode(release_key, 'hex') FROM voyager.releases "
                                   "WHERE name = %s AND merged_into IS NULL", (name,)).fetchone()
            with urlopen(f"{server.base}/api?{urlencode({'t': 'get', 'id': guid, 'apikey': key})}",
                         timeout=30) as r:
                assert r.status == 200 and r.headers["X-DNZB-Name"] == name
                nzb = r.read()
            done = nzbget.download(nzb, rel["label"])
            why = f"{rel['label']}: {done.status} / par {done.par_status}\n{nzbget.log()}"
            assert done.status == "SUCCESS/PAR" and done.par_status == "SUCCESS", why
            # the par2 set gave the volumes their true names back; every byte is what was posted
            want = {rel["names"][n] if rel["names"][n] in rel["volumes"] else n: h
                    for n, h in rel["sha256"].items()}
            got = {n: sha256(p) for n, p in done.files.items()}
            # the volumes under their true names; the par2 files as posted (NZBGet names a par2
            # posted without its extension after its set: its bytes are what count)
            volumes = {n: h for n, h in want.items() if n in rel["volumes"]}
            assert {n: h for n, h in got.items() if n in volumes} == volumes, (sorted(got), sorted(want), why)
            assert sorted(got.values()) == sorted(want.values()), (sorted(got), sorted(want), why)
