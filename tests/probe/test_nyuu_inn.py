"""The prober and the NZBs end to end with tools nobody here wrote: releases
made by rar 7 (RAR5, -p), p7zip (-p -mhe=on) and par2cmdline, their files
renamed to random names as an obfuscating poster does, posted by Nyuu 0.4.0
(tests/nyuu.py) into Debian's INN 2 (tests/inn.py), indexed by `voyager
worker`, probed by `voyager probe`, named and moved into the catalog by the
pending ladder (`voyager tick --once`) and `voyager namer`; then Debian's
NZBGet (tests/nzbget.py) downloads each release's NZB from the web's `t=get`,
par2-verifies it, and the files come out byte-identical to those posted.

Skipped only when INN cannot be installed here; Nyuu and NZBGet missing is a
failure (scripts/setup.sh installs both, so in CI every test runs). A failing
step says what the tool printed.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

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
ALBUM = "Real.Nyuu.Sevenz.2024.1080p.WEB.x264-VOY.mkv"


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


def make_release(root: Path, label: str, video: str, pack) -> dict:
    """A few-MB "video" packed by `pack(folder, base)` into volumes, a par2
    set over the volumes, the video removed, the rest renamed: what is posted."""
    folder = root / label
    folder.mkdir()
    base = video.rsplit(".", 1)[0]
    data = b"\x1a\x45\xdf\xa3" + os.urandom(3_000_000)       # Matroska's magic, then noise
    (folder / video).write_bytes(data)
    pack(folder, base, video)
    (folder / video).unlink()
    volumes = sorted(p.name for p in folder.iterdir())
    run_tool(["par2", "create", "-q", "-r10", "-n2", f"{base}.par2", *volumes], folder)
    names = obfuscate(folder, base)
    return {"label": label, "folder": folder, "video": video, "video_size": len(data), "names": names,
            "volumes": volumes, "sha256": {p.name: sha256(p) for p in folder.iterdir()}}


def pack_rar(folder: Path, base: str, video: str) -> None:
    run_tool(["rar", "a", "-idq", "-m0", "-v1m", f"-p{PASSWORD}", f"{base}.rar", video], folder)


def pack_7z(folder: Path, base: str, video: str) -> None:
    run_tool(["7z", "a", "-bd", "-mx0", "-v1m", f"-p{PASSWORD}", "-mhe=on", f"{base}.7z", video], folder)


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
    return [make_release(root, "rar", VIDEO, pack_rar), make_release(root, "7z", ALBUM, pack_7z)]


@pytest.fixture(scope="module")
def fed(inn_available, releases, tmp_path_factory):
    """A running INN with each release posted by Nyuu: (server, {label: NyuuPost})."""
    tmp = tmp_path_factory.mktemp("nyuu-inn")
    with InnServer(tmp, groups=[GROUP]) as inn:
        posts = {}
        for rel in releases:
            files = sorted(rel["folder"].iterdir())
            posts[rel["label"]] = post_files(inn, files, group=GROUP, out_dir=tmp / rel["label"],
                                             poster=f"{os.urandom(4).hex()} <{os.urandom(4).hex()}@ngPost.com>")
        yield inn, posts


def voyager(argv: list[str], env: dict, timeout: float = 120) -> str:
    p = subprocess.run([sys.executable, "-m", "voyager.cli", *argv], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"voyager {' '.join(argv)} exited {p.returncode}:\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}"
    return p.stdout


@pytest.fixture(scope="module")
def indexed(fed, admin_dsn, template_db, tmp_path_factory):
    inn, posts = fed
    name = f"voyager_nyuu_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template_db[0])
    home = tmp_path_factory.mktemp("nyuu-home")
    env = dict(os.environ, VOYAGER_HOME=str(home), VOYAGER_DSN=dsn, VOYAGER_POOLED_DSN=dsn,
               VOYAGER_WORKER_DSN=dsn, VOYAGER_NNTP_HOST=inn.host, VOYAGER_NNTP_PORT=str(inn.reader_port),
               VOYAGER_NNTP_CONNECTIONS="4", VOYAGER_NNTP_TIMEOUT="20")
    for k in ("VOYAGER_CORPUS", "VOYAGER_NNTP_USER", "VOYAGER_NNTP_PASS", "VOYAGER_NNTP_TLS",
              "VOYAGER_NNTP_WANT", "VOYAGER_NNTP_MODES"):
        env.pop(k, None)
    try:
        out = {"plan": voyager(["plan"], env)}
        out["worker"] = voyager(["worker", "--until-idle", "--flush-at-end", "--node", "nyuu"], env)
        out["probe"] = voyager(["probe", "--threads", "2", "--until-idle", "--node", "nyuu"], env)
        with psycopg.connect(dsn, autocommit=True) as conn:
            yield conn, out, env
    finally:
        drop_database(admin_dsn, name)


def test_dump(indexed):
    conn, out, env = indexed
    print(json.dumps(out, indent=1))
    for q in ("SELECT id, name, settled_at, files, segments FROM voyager.releases",
              "SELECT release_key, status, finished, candidates FROM voyager.pending_releases",
              "SELECT kind, message_id, probed_at, release_id FROM voyager.probe_candidates",
              "SELECT message_id, kind, status, error, facts FROM voyager.probe_cache",
              "SELECT * FROM voyager.par2_files"):
        print(q)
        for r in conn.execute(q):
            print("   ", str(r)[:600])
    assert False
