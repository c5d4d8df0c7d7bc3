"""`voyager web` reading from read replicas (web/routing.py) of the test
cluster, made by the code `voyager db replica add` runs: reads on the
replicas, every write on the primary; a replica's postmaster killed with
SIGKILL under load and started again, no request failing; a replica whose
replay is paused skipped once it is past the maximum lag, and read again
once it has caught up."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections import Counter
from urllib.request import urlopen

import psycopg
import pytest

from bench.api import Client
from tests.conftest import drop_database
from tests.pgserver import free_port
from tests.web.conftest import ServerLog, _clone, dbname_of, make_app, start_server, stop_server
from tests.web.util import Feed, api, call, error_code, feed, sign_in
from voyager import replicas
from web.config import WebConfig
from web.routing import Databases

NFO = "GRP presents Silent Harbor"


@pytest.fixture(scope="module")
def primary(pg_server):
    cluster = pg_server[1]
    if cluster is None:
        pytest.skip("replicas are made of the project's own cluster")
    return cluster


@pytest.fixture(scope="module")
def clone(admin_dsn, web_template):
    """The module's catalog, every statement on it logged (on the primary
    and, the setting replayed, on the replicas), an NFO for getnfo."""
    name, dsn = _clone(admin_dsn, web_template)
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" SET log_statement = \'all\'')
        conn.execute("INSERT INTO voyager.release_nfos (release_id, message_id, text) "
                     "SELECT id, 'n@x', %s FROM voyager.releases WHERE name LIKE 'Silent.Harbor.S01E02%%'", (NFO,))
    yield dsn
    drop_database(admin_dsn, name)


@pytest.fixture(scope="module")
def pair(primary, clone):
    """Two replicas of the test cluster, caught up with the clone."""
    home = primary.datadir.parent / "web-replicas"
    made = [replicas.add(primary, home, name, log=lambda _m: None) for name in ("wr1", "wr2")]
    for rep in made:
        caught_up(clone, rep)
    yield made
    for rep in made:
        replicas.remove(primary, home, rep.name, log=lambda _m: None)


def caught_up(dsn: str, rep, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with psycopg.connect(dsn, autocommit=True) as conn, \
                    psycopg.connect(rep.dsn("postgres"), autocommit=True, connect_timeout=2) as rconn:
                replicas.wait_replayed(conn, rconn, timeout=max(deadline - time.monotonic(), 1))
                return
        except psycopg.OperationalError:            # starting up (crash recovery after a kill)
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def guids(dsn: str) -> dict[str, str]:
    with psycopg.connect(dsn) as conn:
        return dict(conn.execute("SELECT name, encode(release_key, 'hex') FROM voyager.releases"))


def statements(log: ServerLog) -> list[str]:
    return [e for e in log.entries() if e.startswith("LOG:  statement: ") or e.startswith("LOG:  execute ")]


def test_reads_go_to_the_replicas_and_every_write_to_the_primary(primary, clone, pair, keys, monkeypatch):
    """A whole session, API and pages, on an app whose reads go to two real
    hot standbys: no error anywhere (a write reaching a standby would be
    refused: SQLSTATE 25006), the searches, items and NZBs read on the
    replicas, and the counters, grabs, sessions and kept totals on the primary."""
    from web import search as search_mod

    monkeypatch.setattr(search_mod, "PROBE", 1)           # a total past one match is counted
    dbname = dbname_of(clone)
    app = make_app(clone, replicas=tuple(r.dsn(dbname) for r in pair))
    g = guids(clone)
    harbor = g["Silent.Harbor.S01E02.1080p.WEB.h264-GRP"]
    with psycopg.connect(clone, autocommit=True) as conn:
        grabs = conn.execute("SELECT coalesce(sum(grabs), 0) FROM voyager.release_grabs").fetchone()[0]
        (kept,) = conn.execute("SELECT count(*) FROM voyager.search_totals").fetchone()
    logs = {"primary": ServerLog(primary, dbname), **{r.name: ServerLog(r.cluster, dbname) for r in pair}}
    k = keys["alice"]
    answers = [
        feed(api(app, t="search", q="harbor", apikey=k)), feed(api(app, t="search", cat="5000", apikey=k)),
        feed(api(app, t="tvsearch", q="silent harbor", season="1", ep="2", apikey=k)),
        feed(api(app, t="search", q="harbor", minsize="1", apikey=k)),        # a counted total, kept
        feed(api(app, t="details", id=harbor, apikey=k)), feed(api(app, t="getnfo", id=harbor, apikey=k)),
        feed(api(app, t="search", q="harb", apikey=k)),                        # substrings
    ]
    assert answers[0].total == 5 and answers[4].titles == ["Silent.Harbor.S01E02.1080p.WEB.h264-GRP"]
    assert answers[5].items[0]["description"] == NFO
    for _ in range(2):
        nzb = api(app, t="get", id=harbor, apikey=k)
        assert nzb.status == 200 and nzb.headers["content-type"] == "application/x-nzb" and b"<nzb" in nzb.body
    assert error_code(api(app, t="details", id="0" * 40, apikey=k)) == 300
    headers = sign_in(app, "alice", k)                  # a session the replicas have not seen yet, read at once
    for path in ("/", "/search?q=harbor", "/browse", "/browse/category/5000", f"/release/{harbor}", "/account"):
        resp = call(app, path, headers=headers)
        assert resp.status == 200 and "No such" not in resp.text, (path, resp.text[:300])
    resp = call(app, f"/nzb/{harbor}", headers=headers)
    assert resp.status == 200 and b"<nzb" in resp.body

    time.sleep(0.5)                                     # the servers' log lines written out
    on = {name: statements(log) for name, log in logs.items()}
    read = on["wr1"] + on["wr2"]
    assert on["wr1"] and on["wr2"], "both replicas were read from"
    for what in ("search_page", "nzb_source", "release_nfos", "web_sessions", "voyager.categories"):
        assert any(what in s for s in read), what
    for what in ("search_page", "nzb_source", "release_nfos", "release_texts"):
        assert not any(what in s for s in on["primary"]), (what, [s for s in on["primary"] if what in s][:2])
    # the key's checks judged on the replicas, their counts written on the primary in calls of their own
    assert any("api_use" in s for s in read) and not any("api_use" in s for s in on["primary"])
    for what in ("api_tally", "user_use", "sign_in", "INSERT INTO voyager.web_sessions"):
        assert any(what in s for s in on["primary"]), what
        assert not any(what in s for s in read), what
    # a total counted on a replica is this process's alone (the shared ones are unlogged: the primary's)
    assert not any("keep_search_total" in s for s in on["primary"] + read)
    refused = [e for r in pair for e in logs[r.name].entries() if "ERROR" in e or "FATAL" in e]
    assert not refused, refused[:3]
    with psycopg.connect(clone, autocommit=True) as conn:
        assert conn.execute("SELECT requests, downloads FROM voyager.user_days d JOIN voyager.users u ON u.id = d.user_id "
                            "WHERE u.name = 'alice'").fetchone() == (8, 3)
        assert conn.execute("SELECT coalesce(sum(grabs), 0) FROM voyager.release_grabs").fetchone()[0] == grabs + 3
        assert conn.execute("SELECT count(*) FROM voyager.search_totals").fetchone()[0] == kept
        assert conn.execute("SELECT count(*) FROM voyager.web_sessions").fetchone()[0] >= 1


def test_a_web_on_replicas_holds_the_counts_and_keeps_the_quotas(clone, pair, keys):
    """A real `voyager web` reading from two replicas judges each API request
    on a replica and writes the counts on the primary in calls of its own: a
    key's day's quotas hold to the request (the fourth request of three
    refused with 500, the second download of one with 501), a count written
    but not yet replayed still counts, and the primary ends with the
    requests and the download served and the release's grab."""
    dbname = dbname_of(clone)
    g = guids(clone)
    harbor = g["Silent.Harbor.S01E02.1080p.WEB.h264-GRP"]
    with psycopg.connect(clone, autocommit=True) as conn:
        conn.execute("UPDATE voyager.users SET requests_per_day = 3, downloads_per_day = 1 WHERE name = 'tiny'")
        conn.execute("DELETE FROM voyager.user_days WHERE user_id = (SELECT id FROM voyager.users WHERE name = 'tiny')")
        grabs = conn.execute("SELECT coalesce(sum(grabs), 0) FROM voyager.release_grabs").fetchone()[0]
    for rep in pair:
        caught_up(clone, rep)
    logs = [ServerLog(r.cluster, dbname) for r in pair]
    key = keys["tiny"]
    live = start_server(clone, VOYAGER_WEB_REPLICAS=",".join(r.dsn(dbname) for r in pair))
    try:
        def ask(query: str) -> bytes:
            with urlopen(f"http://127.0.0.1:{live.port}/api?{query}&apikey={key}", timeout=30) as r:
                return r.read()

        searches = []
        for i, q in enumerate(("harbor", "moonlight", "harbor", "river")):
            searches.append(ask(f"t=search&q={q}"))
            if i == 1:
                time.sleep(1.0)                       # the first two written: held no more, sent
        gets = [ask(f"t=get&id={harbor}"), ask(f"t=get&id={harbor}")]
    finally:
        stop_server(live.proc)                        # (the counts still held are written as it stops)
    logged = live.proc.stderr.read().decode(errors="replace")
    assert [Feed(b.decode()).limits["apicurrent"] for b in searches[:3]] == ["1", "2", "3"], logged[-2000:]
    assert _code(searches[3]) == 500
    assert b"<nzb" in gets[0] and _code(gets[1]) == 501
    with psycopg.connect(clone, autocommit=True) as conn:
        assert conn.execute("SELECT requests, downloads FROM voyager.user_days d JOIN voyager.users u "
                            "ON u.id = d.user_id WHERE u.name = 'tiny'").fetchone() == (3, 1)
        assert conn.execute("SELECT coalesce(sum(grabs), 0) FROM voyager.release_grabs").fetchone()[0] == grabs + 1
    read = [e for log in logs for e in statements(log)]
    assert sum("api_use" in e for e in read) == 6, read[-10:]
    refused = [e for log in logs for e in log.entries() if "ERROR" in e or "FATAL" in e]
    assert not refused, refused[:3]


def _code(body: bytes) -> int | None:
    """The Newznab error code of an answer's body, or None."""
    m = re.search(rb'<error code="(\d+)"', body)
    return int(m.group(1)) if m else None


def test_a_replica_that_refuses_connections_costs_no_request(clone, pair):
    """A replica listed but not running (connection refused): skipped from
    the start, the reads on the other one; the start not held up."""
    dbname = dbname_of(clone)
    gone = f"postgresql://voyager@127.0.0.1:{free_port()}/{dbname}"
    app = make_app(clone, replicas=(gone, pair[0].dsn(dbname)))
    started = time.monotonic()
    resp = api(app, t="caps")
    assert resp.status == 200 and time.monotonic() - started < 5


def _pid(rep) -> int:
    return int((rep.cluster.datadir / "postmaster.pid").read_text().split()[0])


def _start_again(rep, timeout: float = 30) -> None:
    """pg_ctl start after a SIGKILL: the old backends leave on noticing their
    postmaster gone; until they have, the shared memory is still in use."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            rep.cluster.start()
            return
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _good(kind: str, status: int, body: bytes) -> bool:
    if status != 200 or b"<error" in body[:300]:
        return False
    if kind == "get":
        return body.startswith(b"<?xml") and b"<nzb" in body[:400] and body.rstrip().endswith(b"</nzb>")
    if kind == "caps":
        return b"<caps" in body[:300]
    return b"<rss" in body[:300] and body.rstrip().endswith(b"</rss>")


def test_a_replica_killed_mid_load_fails_no_request_and_serves_again(primary, clone, pair, keys):
    """8 clients on a real `voyager web` reading from two replicas; one
    replica's postmaster SIGKILLed mid-load, started again a moment later:
    every answer 200 and whole, the replica read from again once back; then,
    caught up, each replica answers exactly as the primary does."""
    dbname = dbname_of(clone)
    victim, other = pair
    g = guids(clone)
    key = keys["root"]                                   # an admin's: no quota in the way
    paths = []
    for guid in list(g.values())[:6]:
        paths += [("search", f"/api?t=search&q=harbor&apikey={key}"), ("get", f"/api?t=get&id={guid}&apikey={key}"),
                  ("search", f"/api?t=search&cat=5000&apikey={key}"), ("details", f"/api?t=details&id={guid}&apikey={key}"),
                  ("search", f"/api?t=tvsearch&q=silent+harbor&season=1&apikey={key}"), ("caps", "/api?t=caps"),
                  ("search", f"/api?t=search&q=harbor&minsize=1&apikey={key}")]
    victim_log = ServerLog(victim.cluster, dbname)
    live = start_server(clone, VOYAGER_WEB_REPLICAS=",".join(r.dsn(dbname) for r in pair))
    failures: list[str] = []
    counts: Counter = Counter()
    timeline: dict[str, float] = {}
    try:
        async def drive():
            stop = asyncio.Event()

            async def client(i: int):
                c, n = Client(live.port), i
                while not stop.is_set():
                    kind, path = paths[n % len(paths)]
                    n += 8
                    try:
                        status, body = await c.get(path)
                    except (OSError, asyncio.IncompleteReadError, ValueError) as e:
                        failures.append(f"{kind}: {e!r}")
                        c.close()
                        c = Client(live.port)
                        continue
                    counts[kind] += 1
                    if not _good(kind, status, body):
                        failures.append(f"{kind}: {status} {body[:300]!r}")
                c.close()

            async def kill_and_restart():
                t0 = time.monotonic()
                await asyncio.sleep(1.5)
                # (the NZBs: every get is read, where searches are answered from the documents kept)
                assert any("nzb_source" in s for s in statements(victim_log)), "the victim was being read from"
                os.kill(_pid(victim), signal.SIGKILL)
                timeline["killed"] = time.monotonic() - t0
                await asyncio.sleep(1.5)
                await asyncio.to_thread(_start_again, victim)
                timeline["restarted"] = time.monotonic() - t0
                victim_log.mark()
                deadline = time.monotonic() + 40
                while not any("nzb_source" in s for s in statements(victim_log)):
                    assert time.monotonic() < deadline, "the restarted replica was never read from again"
                    await asyncio.sleep(0.2)
                timeline["read_again"] = time.monotonic() - t0
                await asyncio.sleep(1.0)
                stop.set()

            await asyncio.gather(kill_and_restart(), *(client(i) for i in range(8)))

        asyncio.run(drive())
    except AssertionError as e:
        stop_server(live.proc)
        tail = victim.cluster.logfile.read_text(errors="replace")[-3000:]
        raise AssertionError(f"{e}; {timeline}; the web's log: {live.proc.stderr.read().decode(errors='replace')[-4000:]}"
                             f"; the victim's log: {tail}")
    finally:
        stop_server(live.proc)
    logged = live.proc.stderr.read().decode(errors="replace")
    assert not failures, (len(failures), failures[:5], timeline)
    assert sum(counts.values()) > 200 and set(counts) == {"search", "get", "details", "caps"}, counts
    assert re.search(r"replica \S+ is down", logged) and re.search(r"replica \S+ is up", logged), logged[-3000:]

    # caught up: a replica's answers are the primary's
    for rep in pair:
        caught_up(clone, rep)
    apps = {"primary": make_app(clone), **{r.name: make_app(clone, replicas=(r.dsn(dbname),)) for r in pair}}
    asks = [dict(t="search", q="harbor"), dict(t="search", cat="5000", limit="3", offset="1"),
            dict(t="tvsearch", q="silent harbor", season="1"), dict(t="search", q="harbor", minsize="1"),
            dict(t="search", q="moonl"), dict(t="movie"), dict(t="details", id=g["Crimson.River.2019.1080p.BluRay.x264-GRP"])]

    def answers(app) -> list:
        return [(f.total, f.offset, f.items) for f in (feed(api(app, apikey=key, **params)) for params in asks)]

    seen = {name: answers(app) for name, app in apps.items()}         # (the NZBs after: a get moves the grabs)
    nzbs = {name: api(app, t="get", id=g["Crimson.River.2019.1080p.BluRay.x264-GRP"], apikey=key).body
            for name, app in apps.items()}
    assert seen["wr1"] == seen["primary"] and seen["wr2"] == seen["primary"]
    assert nzbs["wr1"] == nzbs["primary"] and nzbs["wr2"] == nzbs["primary"] and b"<nzb" in nzbs["primary"]


def test_a_replica_past_the_maximum_lag_is_skipped_until_it_catches_up(clone, pair, ids, keys):
    """Replay paused on a replica: read from while its catalog may be less
    than the maximum lag behind, skipped past it (the reads, on the primary,
    see the write the replica has not replayed), read from again once its
    replay goes on and it has caught up."""
    dbname = dbname_of(clone)
    rep = pair[1]
    hidden = ids["Windows.11.2024.v2.0.x64-GRP"]
    config = WebConfig(dsn=clone, replicas=(rep.dsn(dbname),), replica_max_lag=2.0, replica_check=0.2)

    async def visible(conn) -> tuple[bool, bool]:
        cur = await conn.execute("SELECT pg_is_in_recovery(), NOT EXISTS (SELECT 1 FROM voyager.release_judgements "
                                 "WHERE release_id = %s AND hidden)", (hidden,))
        return await cur.fetchone()

    async def wait_for(db, state: str, timeout: float) -> float:
        started = time.monotonic()
        while db.replicas[0].state != state:
            assert time.monotonic() - started < timeout, (state, db.figures())
            await asyncio.sleep(0.05)
        return time.monotonic() - started

    async def scenario():
        db = Databases(config)
        await db.open()
        try:
            assert db.replicas[0].state == "up" and await db.read(visible) == (True, True)
            with psycopg.connect(rep.dsn("postgres"), autocommit=True) as rconn, \
                    psycopg.connect(clone, autocommit=True) as conn:
                rconn.execute("SELECT pg_wal_replay_pause()")
                try:
                    conn.execute("INSERT INTO voyager.release_judgements (release_id, hidden, verdict) "
                                 "VALUES (%s, true, 'test')", (hidden,))
                    written = time.monotonic()
                    await asyncio.sleep(0.6)
                    # within the maximum lag: still read from, its catalog as it was
                    assert db.replicas[0].state == "up" and await db.read(visible) == (True, True)
                    await wait_for(db, "lagging", 5)
                    assert time.monotonic() - written >= 1.0      # (a look is every 0.2 s, a busy machine's later)
                    assert db.replicas[0].lag > 2.0 and "behind" in db.replicas[0].why
                    assert await db.read(visible) == (False, False)      # the primary's, with the write
                finally:
                    rconn.execute("SELECT pg_wal_replay_resume()")
                    conn.execute("DELETE FROM voyager.release_judgements WHERE release_id = %s", (hidden,))
            await wait_for(db, "up", 10)
            await asyncio.to_thread(caught_up, clone, rep)
            assert await db.read(visible) == (True, True)                # the replica's again
        finally:
            await db.close()

    asyncio.run(scenario())

    # the app started on the paused replica's state: past the lag, every answer the primary's
    with psycopg.connect(rep.dsn("postgres"), autocommit=True) as rconn, \
            psycopg.connect(clone, autocommit=True) as conn:
        caught_up(clone, rep)
        rconn.execute("SELECT pg_wal_replay_pause()")
        try:
            conn.execute("INSERT INTO voyager.release_judgements (release_id, hidden, verdict) VALUES (%s, true, 'test')",
                         (hidden,))
            time.sleep(2.3)
            app = make_app(clone, replicas=(rep.dsn(dbname),), replica_max_lag=2.0)
            found = Feed(api(app, t="search", q="windows", apikey=keys["root"]).text)
            assert found.total == 0
        finally:
            rconn.execute("SELECT pg_wal_replay_resume()")
            conn.execute("DELETE FROM voyager.release_judgements WHERE release_id = %s", (hidden,))


def test_counts_written_but_not_replayed_still_count(clone, pair, keys):
    """The replica's replay paused: the counts this web wrote on the primary
    are not on the replica yet, and a key's quota still holds to the request
    (they count until the replica has replayed them); once it has, they count
    once, from its own table."""
    from web.api import use_request

    dbname = dbname_of(clone)
    rep = pair[0]
    key = keys["tiny"]
    with psycopg.connect(clone, autocommit=True) as conn:
        conn.execute("UPDATE voyager.users SET requests_per_day = 3 WHERE name = 'tiny'")
        conn.execute("DELETE FROM voyager.user_days WHERE user_id = (SELECT id FROM voyager.users WHERE name = 'tiny')")
    caught_up(clone, rep)
    # (no write of its own: the test writes when it wants to)
    config = WebConfig(dsn=clone, replicas=(rep.dsn(dbname),), tally_interval=3600)

    async def scenario():
        db = Databases(config)
        await db.open()
        try:
            first = [(await use_request(db, key))["code"] for _ in range(2)]
            with psycopg.connect(rep.dsn("postgres"), autocommit=True) as rconn:
                rconn.execute("SELECT pg_wal_replay_pause()")
                try:
                    await db.tally.flush(db)
                    assert db.tally.calls == 1 and db.tally.pending() == 0
                    third = await use_request(db, key)
                    fourth = await use_request(db, key)
                finally:
                    rconn.execute("SELECT pg_wal_replay_resume()")
            await asyncio.to_thread(caught_up, clone, rep)
            fifth = await use_request(db, key)
            return first, third, fourth, fifth
        finally:
            await db.close()

    first, third, fourth, fifth = asyncio.run(scenario())
    assert first == [0, 0]
    assert (third["code"], third["requests"]) == (0, 3)      # the two sent, not replayed, counted
    assert fourth["code"] == 500 and fifth["code"] == 500      # then once, replayed
    with psycopg.connect(clone, autocommit=True) as conn:
        assert conn.execute("SELECT requests FROM voyager.user_days d JOIN voyager.users u ON u.id = d.user_id "
                            "WHERE u.name = 'tiny'").fetchone() == (3,)


def test_a_keys_requests_at_once_and_its_writes_apart_count_once_each(clone, pair, keys):
    """Five requests of one key at once on a replica, a quota of three: three
    are allowed (each counts in the others' judgement while under way). Then
    two writes of the counts, the replica having replayed the first and not
    the second: each request it served counts once, the replayed ones from
    its table, the other from the write not seen yet."""
    from web.api import use_request

    dbname = dbname_of(clone)
    rep = pair[0]
    key = keys["tiny"]
    with psycopg.connect(clone, autocommit=True) as conn:
        conn.execute("UPDATE voyager.users SET requests_per_day = 3 WHERE name = 'tiny'")
        conn.execute("DELETE FROM voyager.user_days WHERE user_id = (SELECT id FROM voyager.users WHERE name = 'tiny')")
    caught_up(clone, rep)
    config = WebConfig(dsn=clone, replicas=(rep.dsn(dbname),), tally_interval=3600)

    async def scenario():
        db = Databases(config)
        await db.open()
        try:
            at_once = sorted(u["code"] for u in await asyncio.gather(*(use_request(db, key) for _ in range(5))))
            await db.tally.flush(db)                              # the first write: 3
            await asyncio.to_thread(caught_up, clone, rep)        # replayed
            with psycopg.connect(clone, autocommit=True) as conn:
                conn.execute("UPDATE voyager.users SET requests_per_day = 6 WHERE name = 'tiny'")
            await asyncio.to_thread(caught_up, clone, rep)
            fourth = await use_request(db, key)
            with psycopg.connect(rep.dsn("postgres"), autocommit=True) as rconn:
                rconn.execute("SELECT pg_wal_replay_pause()")
                try:
                    await db.tally.flush(db)                      # the second write: 1, not replayed
                    fifth = await use_request(db, key)            # 3 replayed + 1 sent + itself
                    sixth = await use_request(db, key)
                    seventh = await use_request(db, key)
                finally:
                    rconn.execute("SELECT pg_wal_replay_resume()")
            return at_once, fourth, fifth, sixth, seventh
        finally:
            await db.close()

    at_once, fourth, fifth, sixth, seventh = asyncio.run(scenario())
    assert at_once == [0, 0, 0, 500, 500]
    assert (fourth["code"], fourth["requests"]) == (0, 4)
    assert (fifth["code"], fifth["requests"]) == (0, 5)
    assert (sixth["code"], sixth["requests"]) == (0, 6) and seventh["code"] == 500
    with psycopg.connect(clone, autocommit=True) as conn:
        assert conn.execute("SELECT requests FROM voyager.user_days d JOIN voyager.users u ON u.id = d.user_id "
                            "WHERE u.name = 'tiny'").fetchone() == (6,)
