"""`voyager worker` against a real news server: Debian's INN 2 (tests/inn.py)
on loopback, a generated corpus of a few thousand binary-style articles posted
into two groups, planned with `voyager plan` from INN's LIST ACTIVE and
indexed through pgbouncer by `voyager worker --until-idle --flush-at-end`
twice, each into a fresh database: once over plain OVER
(VOYAGER_NNTP_MODES=plain), once over RFC 8054 COMPRESS DEFLATE only.

Both catalogs must be the same rows (release keys, segments, files, chunks;
the same pending keys), and they must hold the posted truth (tests/inn.py's
out_dir/truth.jsonl: the corpus's uploads whose every segment INN accepted).
INN numbers the articles itself (from 1 in each group) and writes its own
Xref, so the comparison is by message-id, as bench.replay.score_truth
scores; the owner rule reads INN's Xref with the groups' priority numbers,
which the plan from LIST ACTIVE gives by size and which are the corpus's
(groups.json).

The posted bodies are short fillers, so INN's :bytes is ~1 kB an article, not
the corpus's size: the drop rules that read sizes (stub-archive's leg A,
nonsense-piece, tiny-archive) cannot fire here, and those rules' uploads are
left out of the drop score (what is not dropped otherwise becomes a small
catalog release, owned like any other).

Skipped only when Debian's inn2 cannot be installed here.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest

from ext import codec
from tests.conftest import create_database, drop_database
from tests.inn import InnServer, InnUnavailable, ensure_inn, post_corpus
from workers.nntp import NntpConfig, NntpConnection, NntpDenied, chunk_requests, fetch_overview, list_active
from bench.replay import score_truth

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
# 2 groups, 3,384 articles (3,428 overview lines with the crossposts): 205
# uploads fully posted, 190 releases, 2 albums, a pending release, 12 drops, two
# of them crossposted to both groups (a stub archive, a bare executable)
SEED, GROUPS, LINES = 27, 2, 2200
# small ranges and chunks: a group is two ranges of up to four OVER requests each
RANGE, CHUNK = 1000, 250
MODES = ("plain", "deflate")
SIZE_RULES = {"stub-archive", "nonsense-piece", "tiny-archive"}     # read :bytes


@pytest.fixture(scope="module")
def inn_available():
    try:
        ensure_inn()
    except InnUnavailable as exc:
        pytest.skip(f"Debian's inn2 (INN 2) cannot be installed on this machine: {exc}")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    from sim.generate import Options, generate
    out = tmp_path_factory.mktemp("inn-e2e") / "corpus"
    generate(Options(out=out, seed=SEED, groups=GROUPS, lines=LINES, bodies=False))
    return out


@pytest.fixture(scope="module")
def fed(inn_available, corpus, tmp_path_factory):
    """A running INN with the corpus posted: (server, result, out_dir)."""
    from voyager.corpus import Corpus
    tmp = tmp_path_factory.mktemp("inn")
    with InnServer(tmp, groups=Corpus(corpus).group_names()) as inn:
        res = post_corpus(inn, corpus, out_dir=tmp / "posted")
        yield inn, res, tmp / "posted"


def run(argv: list[str], env: dict, timeout: float = 120) -> str:
    p = subprocess.run([sys.executable, "-m", "voyager.cli", *argv], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, f"voyager {' '.join(argv)} exited {p.returncode}:\n{p.stderr[-3000:]}"
    return p.stdout


def read_catalog(conn) -> dict:
    rows = conn.execute("SELECT r.release_key, r.segments, r.files, c.chunk, g.name, s.groups "
                        "FROM voyager.releases r "
                        "LEFT JOIN voyager.release_chunks c ON c.release_id = r.id "
                        "JOIN voyager.groups g ON g.id = r.group_id "
                        "JOIN voyager.group_sets s ON s.id = r.group_set_id").fetchall()
    # each release's message-ids, with the group that owns it
    owned = [(frozenset(m.decode() for _n, _b, segs in codec.decode(bytes(ch)) for _p, m, _s in segs), g)
             for _k, _s, _f, ch, g, _gs in rows if ch is not None]
    pending = conn.execute("SELECT release_key, segments, candidates FROM voyager.pending_releases").fetchall()
    return {
        "rows": {(bytes(k), s, f, bytes(ch) if ch is not None else None) for k, s, f, ch, _g, _gs in rows},
        # where each release is filed: its owner group and the groups of its Xref
        "placed": {bytes(k): (g, tuple(gs)) for k, _s, _f, _ch, g, gs in rows},
        "dups": conn.execute("SELECT count(*) - count(DISTINCT release_key) FROM voyager.releases").fetchone()[0],
        "owned": owned,
        "pending": {bytes(k) for k, _s, _c in pending},
        "pending_targets": {mid: s for _k, s, cands in pending for _kind, mid, _i in cands},
        "groups": {n: (p, lo, hi) for n, p, lo, hi in conn.execute(
            "SELECT name, priority, low, high FROM voyager.groups")},
        "ranges": conn.execute("SELECT g.name, r.start_article, r.end_article, r.status::text "
                               "FROM voyager.ranges r JOIN voyager.groups g ON g.id = r.group_id "
                               "ORDER BY 1, 2").fetchall(),
    }


def index_with(mode: str | None, inn, admin_dsn, template, pg_server, home: Path) -> dict:
    """A fresh database planned from INN's LIST ACTIVE by `voyager plan` and
    indexed by `voyager worker` (through pgbouncer when the tests run their own
    cluster) restricted to `mode` (None: the default preference): its catalog,
    the worker's stats, timings."""
    name = f"voyager_inn_{mode or 'default'}_{os.getpid()}"
    dsn = create_database(admin_dsn, name, template=template)
    bouncer = None
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            for k, v in (("range_articles", RANGE), ("chunk_articles", CHUNK)):
                conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(v), k))
        pooled = dsn
        cluster = pg_server[1]
        if cluster is not None:
            from tests.pgserver import free_port
            from voyager.cluster import Bouncer
            bouncer = Bouncer(workdir=cluster.datadir.parent / f"bouncer-{name}", port=free_port(),
                              pg_host=cluster.host, pg_port=cluster.port, database=name, user=cluster.user)
            bouncer.start()
            pooled = f"postgresql://{cluster.user}@127.0.0.1:{bouncer.port}/{name}"
        env = dict(os.environ, VOYAGER_HOME=str(home), VOYAGER_DSN=dsn, VOYAGER_POOLED_DSN=pooled,
                   VOYAGER_NNTP_HOST=inn.host, VOYAGER_NNTP_PORT=str(inn.reader_port),
                   VOYAGER_NNTP_CONNECTIONS="4", VOYAGER_NNTP_TIMEOUT="20")
        for k in ("VOYAGER_CORPUS", "VOYAGER_WORKER_DSN", "VOYAGER_NNTP_USER", "VOYAGER_NNTP_PASS",
                  "VOYAGER_NNTP_TLS", "VOYAGER_NNTP_WANT", "VOYAGER_NNTP_MODES"):
            env.pop(k, None)
        if mode:
            env["VOYAGER_NNTP_MODES"] = mode
        t0 = time.monotonic()
        planned = json.loads(run(["plan"], env))
        t1 = time.monotonic()
        out = run(["worker", "--until-idle", "--flush-at-end", "--node", f"inn-{mode or 'default'}"], env)
        t2 = time.monotonic()
        with psycopg.connect(dsn, autocommit=True) as conn:
            got = read_catalog(conn)
        got.update(planned=planned, plan_s=t1 - t0, worker_s=t2 - t1,
                   stats=[json.loads(line) for line in out.splitlines() if line.startswith("{")])
        return got
    finally:
        if bouncer is not None:
            bouncer.stop()
        drop_database(admin_dsn, name)


@pytest.fixture(scope="module")
def indexed(fed, admin_dsn, template_db, pg_server, tmp_path_factory):
    inn, _res, _posted = fed
    return {mode: index_with(mode, inn, admin_dsn, template_db[0], pg_server,
                             tmp_path_factory.mktemp(f"home-{mode}"))
            for mode in MODES}


def truth(posted: Path) -> list[dict]:
    return [json.loads(line) for line in (posted / "truth.jsonl").read_text().splitlines() if line.strip()]


def test_posted(fed):
    inn, res, posted = fed
    print(f"\nINN: posted {res.offered} articles in {res.seconds:.2f} s: {json.dumps(res.summary()['truth'])}")
    assert res.accepted >= 3000 and res.truth["full_release"] >= 150 and res.truth["full_album"] >= 2
    assert res.truth["full_pending"] >= 1 and res.truth["full_drop"] >= 10
    # crossposts: INN files them in both groups, each with its own number
    assert sum(res.per_group.values()) - res.accepted >= 40
    both = [u for u in truth(posted) if set(inn.groups) <= set(u["groups"])]
    assert len(both) >= 2, "no upload crossposted to both groups: the owner rule goes untested"


def test_planned_from_list_active(fed, indexed):
    """Every group of INN's LIST ACTIVE, its articles numbered from 1: no
    ancient range, ranges 1 .. high on the grid, all done; INN's own empty
    groups (control, junk: high = low - 1) planned without ranges; the
    priority numbers by size are the corpus's."""
    inn, res, posted = fed
    listed = {g["name"]: g for g in json.loads((posted / "groups.json").read_text())}
    for mode, r in indexed.items():
        assert {"control", "junk"} <= set(r["groups"]), mode
        for name, (prio, low, high) in r["groups"].items():
            ranges = [(s, e, st) for g, s, e, st in r["ranges"] if g == name]
            if name in inn.groups:
                assert (low, high) == (1, res.per_group[name]) == (listed[name]["low"], listed[name]["high"])
                assert prio == listed[name]["priority"], (mode, name, prio, listed)
                assert ranges == [(a, min(a + RANGE - 1, high), "done") for a in range(1, high + 1, RANGE)]
            else:
                assert high == low - 1 and ranges == [], (mode, name, low, high, ranges)


def test_plain_and_deflate_give_the_same_catalog(indexed):
    for mode, r in indexed.items():
        print(f"\n{mode}: plan {r['plan_s']:.2f} s, worker {r['worker_s']:.2f} s: {json.dumps(r['stats'])}")
    plain, deflate = indexed["plain"], indexed["deflate"]
    assert plain["dups"] == 0 and deflate["dups"] == 0, "a release key twice"
    assert len(plain["rows"]) >= 150 and plain["rows"] == deflate["rows"]
    assert plain["placed"] == deflate["placed"]
    assert plain["pending"] and plain["pending"] == deflate["pending"]
    # each run read every overview line once, every chunk of every range, in its mode only
    (ps,), (ds,) = plain["stats"], deflate["stats"]
    assert ps["headers"] == ds["headers"] == sum(hi for _p, _lo, hi in plain["groups"].values())
    requests = sum(len(chunk_requests(s, e, CHUNK)) for _g, s, e, _st in plain["ranges"])
    assert requests >= 12
    assert ps["nntp"]["replies"] == {"plain": requests} and ds["nntp"]["replies"] == {"deflate": requests}
    assert ps["nntp"]["overview_bytes"] == ds["nntp"]["overview_bytes"]
    assert ps["nntp"]["wire_bytes"] > ps["nntp"]["overview_bytes"]
    assert ds["nntp"]["wire_bytes"] < ds["nntp"]["overview_bytes"] / 3, ds["nntp"]


def test_the_catalog_holds_the_posted_truth(fed, indexed):
    inn, _res, posted = fed
    ups = truth(posted)
    for mode, r in indexed.items():
        release_sets = {mids for mids, _g in r["owned"]}
        scored = score_truth(posted, release_sets, r["pending_targets"])
        misses = {k: [(u.get("rule"), u.get("name")) for u in v] for k, v in scored["misses"].items() if v}
        assert scored["release"] >= 0.995 and scored["album"] >= 0.995, (mode, scored["counts"], misses)
        assert scored["pending"] == 1.0, (mode, misses)
        # the drops whose rules do not read sizes: none of their articles in a release
        held = set().union(*release_sets)
        drops = [u for u in ups if u["kind"] == "drop" and u["rule"] not in SIZE_RULES]
        assert len(drops) >= 6
        assert not [u["rule"] for u in drops if {s[1] for f in u["files"] for s in f["segments"]} & held], mode
        # an article in one release at most: a crosspost is indexed by one group, its owner
        # (the lowest priority number among the groups of INN's Xref) ...
        assert sum(len(m) for m in release_sets) == len(held), mode
        owner = {mids: g for mids, g in r["owned"]}
        for u in ups:
            mids = frozenset(s[1] for f in u["files"] for s in f["segments"])
            if mids & held:        # a release, or a size rule's drop that could not fire here
                assert owner.get(mids) == u["group"], (mode, u["kind"], u.get("name"), u["groups"],
                                                       owner.get(mids))
        # ... the uploads crossposted to both groups too (drops: the stub archive a
        # catalog release here, its size leg cannot fire; the bare executable dropped)
        both = [u for u in ups if set(inn.groups) <= set(u["groups"])]
        assert any(frozenset(s[1] for f in u["files"] for s in f["segments"]) in owner for u in both), mode
        # a release's groups are the groups of INN's Xref: both of them for those crossposts
        assert all(set(gs) <= set(inn.groups) for _g, gs in r["placed"].values()), mode
        assert sum(1 for _g, gs in r["placed"].values() if len(gs) == 2) >= 1, mode
        assert all(st == "done" for _g, _s, _e, st in r["ranges"]), mode


@pytest.fixture(scope="module")
def fed_extra(inn_available, corpus, tmp_path_factory):
    """The corpus posted into an INN whose overview carries more fields after
    Xref (extraoverviewadvertised: Newsgroups, Injection-Info)."""
    from voyager.corpus import Corpus
    tmp = tmp_path_factory.mktemp("inn-extra")
    with InnServer(tmp, groups=Corpus(corpus).group_names(),
                   extra_overview=("Newsgroups", "Injection-Info")) as inn:
        post_corpus(inn, corpus, out_dir=tmp / "posted")
        yield inn


def test_fields_after_xref_change_nothing(fed_extra, indexed, admin_dsn, template_db, pg_server, tmp_path):
    """Overview fields after Xref:full (INN's extraoverviewadvertised) are not
    part of the Xref: the same catalog, each release in the same groups. (They
    were: "g:1<TAB>Newsgroups: g" was a crosspost to g, "Newsgroups" and "g",
    every release's group set held those names, and a single archive
    crossposted to two groups counted four, enough for stub-archive's
    many-groups leg.) The worker's default mode preference on INN is COMPRESS
    DEFLATE."""
    with fed_extra.reader() as c:
        c.group(fed_extra.groups[0])
        assert c.over(1, 1)[0].split(b"\t")[9].startswith(b"Newsgroups: ")
    r = index_with(None, fed_extra, admin_dsn, template_db[0], pg_server, tmp_path / "home")
    print(f"\nextra fields, default modes: worker {r['worker_s']:.2f} s: {json.dumps(r['stats'])}")
    assert r["stats"][0]["nntp"]["replies"] == indexed["deflate"]["stats"][0]["nntp"]["replies"]
    assert r["dups"] == 0 and r["rows"] == indexed["plain"]["rows"] and r["pending"] == indexed["plain"]["pending"]
    assert r["placed"] == indexed["plain"]["placed"]


def test_permission_denied_is_final(fed, tmp_path):
    """INN's 502s that say the host may not read are not "too busy for now":
    the client gives up at once instead of backing off for minutes. innd's
    (feeder) port answers a reader's GROUP "502 Permission denied"; nnrpd
    greets a host its readers.conf does not know "502 You have no permission
    to talk"."""
    inn = fed[0]
    patient = dict(retries=8, backoff_base=1.0, timeout=10)
    conn = NntpConnection(NntpConfig(host=inn.host, port=inn.feeder_port, **patient))
    t0 = time.monotonic()
    with pytest.raises(NntpDenied, match="502 Permission denied.*reader port"):
        fetch_overview(conn, inn.groups[0], 1, CHUNK)
    assert conn.connects == 1 and time.monotonic() - t0 < 2
    with InnServer(tmp_path, groups=["alt.binaries.none"]) as other:
        # nnrpd reads readers.conf for each connection
        (other.root / "etc" / "readers.conf").write_text(
            'auth "elsewhere" {\n    hosts: "192.0.2.1"\n    default: "<x>"\n}\n'
            'access "elsewhere" {\n    users: "<x>"\n    newsgroups: "*"\n}\n')
        cfg = NntpConfig(host=other.host, port=other.reader_port, **patient)
        conn = NntpConnection(cfg)
        t0 = time.monotonic()
        with pytest.raises(NntpDenied, match="greeting: 502 You have no permission"):
            fetch_overview(conn, "alt.binaries.none", 1, CHUNK)
        with pytest.raises(NntpDenied):
            list_active(cfg)
        assert conn.connects == 1 and time.monotonic() - t0 < 2
