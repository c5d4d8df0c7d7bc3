"""The status views against a small state built through the project's own
functions (plan_groups, leases, advance_range, store_batch, store_snapshot,
report_spool): every figure checked by hand."""
from __future__ import annotations

import datetime as dt
import hashlib
import json
import time

import pytest

from tests.helpers import advance, finish_range, lease, next_range, plan, set_setting
from workers.store import Store

HOUR = 3600
NOW = int(time.time())


def key(text: str) -> bytes:
    return hashlib.sha1(text.encode()).digest()


def release(name: str, *, finished: bool, complete: bool, posted_at: int, candidates=()) -> dict:
    return {"release_key": key(name), "identity_key": key("id:" + name), "name": name, "source": 1,
            "poster": "up <up@example.com>", "groups": ["g.a"], "posted_at": posted_at,
            "last_posted_at": posted_at, "first_article": 1001, "last_article": 1010, "files": 2,
            "segments": 10, "bytes": 7_000_000, "file_total": 2, "complete": complete, "has_par2": False,
            "finished": finished, "edge": not finished, "chunk": b"chunk of " + name.encode(),
            "members": None, "candidates": list(candidates)}


def pending(name: str) -> dict:
    return {"release_key": key(name), "identity_key": key("id:" + name), "name": name,
            "poster": "up <up@example.com>", "tool": "ngpost", "posted_at": NOW - HOUR, "last_posted_at": NOW - HOUR,
            "first_article": 1050, "last_article": 1060, "files": 3, "segments": 11, "bytes": 8_000_000,
            "file_total": 3, "complete": True, "finished": True,
            "candidates": [("archive", b"p1@x", 0)]}


def view(conn, name: str) -> list[dict]:
    cur = conn.execute(f"SELECT * FROM voyager.{name}")
    return [dict(zip([c.name for c in cur.description], r)) for r in cur.fetchall()]


@pytest.fixture
def state(conn):
    """g.a (priority 1): 1-1000 done in four batches (one of them two hours ago),
    1001-2000 held by n1's history lane with a store_batch of 100 headers and a
    snapshot at 1101, 2001-3000 marked for capture at 5, 3001-3500 at history
    priority 2500, then the tail planner's 3501-4000 (t1's tail lane stored
    3501-3800: 250 headers) and 4001-4500. g.b (priority 2): ancient 1-500,
    501-1000 raised to 50, 1001-1200, tail 1201-1500."""
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.a", "low": 1, "high": 3500}, {"name": "g.b", "low": 501, "high": 1200}])
    plan(conn, [{"name": "g.a", "low": 1, "high": 4200}, {"name": "g.b", "low": 501, "high": 1500}])
    plan(conn, [{"name": "g.a", "low": 1, "high": 4500}])                       # the open tail range grows

    conn.execute("SELECT setval('voyager.group_lease_turns', 2)")              # next turn: the biggest backlog
    hist = lease(conn, "history", "n1")
    assert hist["group_name"] == "g.a"
    r1 = next_range(conn, hist["token"])
    finish_range(conn, hist["token"], r1, batch=250)
    conn.execute("""UPDATE voyager.range_batches SET stored_at = now() - interval '2 hours'
                     WHERE range_id = %s AND first_article = 1""", (r1["range_id"],))
    r2 = next_range(conn, hist["token"])
    assert (r2["start_article"], r2["end_article"]) == (1001, 2000)
    day = 24 * HOUR
    batch = {"releases": [
                 release("Settled.Release", finished=True, complete=True, posted_at=NOW - day,
                         candidates=[("archive", "a1@x", 0)]),
                 release("Quiet.Provisional", finished=False, complete=True, posted_at=NOW - 7 * HOUR,
                         candidates=[("archive", "b1@x", 0), ("par2", "b2@x", 1)]),
                 release("Open.Provisional", finished=False, complete=False, posted_at=NOW - 600)],
             "pending": [pending("0123456789abcdef0123456789abcdef")], "counts": [], "samples": []}
    out = Store(conn).store(hist["token"], r2["range_id"], 1001, 1101, 100, batch)
    assert out["releases"] == 3
    conn.execute("UPDATE voyager.releases SET first_seen_at = now() - interval '2 hours' WHERE name = 'Settled.Release'")
    conn.execute("SELECT voyager.store_snapshot(%s, 1101, %s)", (hist["token"], b"w" * 1234))

    conn.execute("SELECT setval('voyager.group_lease_turns', 2)")
    tail = lease(conn, "tail", "t1")
    assert tail["group_name"] == "g.a"
    t1 = next_range(conn, tail["token"])
    assert (t1["start_article"], t1["end_article"]) == (3501, 4000)
    advance(conn, tail["token"], t1, 3501, 3801, 250)
    conn.execute("""UPDATE voyager.group_leases SET heartbeat_at = now() - interval '400 seconds',
                                                    expires_at = voyager.lease_expiry() - interval '400 seconds'
                     WHERE token = %s""", (tail["token"],))

    conn.execute("""UPDATE voyager.ranges r SET priority = 50 FROM voyager.groups g
                     WHERE g.id = r.group_id AND g.name = 'g.b' AND r.start_article = 501""")
    conn.execute("""UPDATE voyager.ranges r SET capture = true, priority = 5 FROM voyager.groups g
                     WHERE g.id = r.group_id AND g.name = 'g.a' AND r.start_article = 2001""")
    conn.execute("""UPDATE voyager.ranges r SET priority = 2500 FROM voyager.groups g
                     WHERE g.id = r.group_id AND g.name = 'g.a' AND r.start_article = 3001""")
    return {"conn": conn, "history": hist, "tail": tail}


def test_bands(state):
    rows = view(state["conn"], "status_bands")
    cols = ("band", "kind", "min_priority", "max_priority", "ranges", "planned", "leased", "done", "failed",
            "articles", "articles_todo", "articles_done", "headers")
    assert [tuple(r[c] for c in cols) for r in rows] == [
        ("tail", "tail", -1, -1, 3, 2, 1, 0, 0, 1300, 1000, 300, 250),
        ("raised", "raised", 50, 50, 1, 1, 0, 0, 0, 500, 500, 0, 0),
        ("capture 5", "capture", 5, 5, 1, 1, 0, 0, 0, 1000, 1000, 0, 0),
        ("history 0-999", "history", 100, 100, 3, 1, 1, 1, 0, 2200, 1100, 1100, 1100),
        ("history 2000-2999", "history", 2500, 2500, 1, 1, 0, 0, 0, 500, 500, 0, 0),
        ("ancient", "ancient", 100, 100, 1, 0, 0, 0, 0, 500, 0, 0, 0),
    ]


def test_tail_backlog_per_group_and_total(state):
    rows = view(state["conn"], "status_tail")
    cols = ("group_name", "ranges", "leased", "articles_todo", "from_article", "to_article", "holder")
    assert [tuple(r[c] for c in cols) for r in rows] == [
        ("g.a", 2, 1, 700, 3801, 4500, "t1"),      # 3801-4000 leased, 4001-4500 planned
        ("g.b", 1, 0, 300, 1201, 1500, None),
        (None, 3, 1, 1000, 1201, 4500, None),      # the total
    ]


def test_tail_backlog_is_a_zero_total_without_tail_ranges(conn):
    plan(conn, [{"name": "g.x", "low": 1, "high": 10}])
    assert [(r["group_name"], r["ranges"], r["articles_todo"]) for r in view(conn, "status_tail")] == [(None, 0, 0)]


def test_throughput_counts_the_last_hour_only(state):
    (row,) = view(state["conn"], "status_throughput")
    # batches: 1-1000 in four (one two hours old), 1001-1101, 3501-3801
    assert row["period"] == dt.timedelta(hours=1)
    assert (row["batches"], row["headers_indexed"], row["articles_covered"]) == (5, 750 + 100 + 250, 750 + 100 + 300)
    assert float(row["headers_per_second"]) == round(1100 / 3600, 1)
    assert row["releases_stored"] == 2          # Settled.Release was first seen two hours ago
    assert row["ranges_done"] == 1


def test_held_groups_with_heartbeat_and_snapshot(state):
    conn = state["conn"]
    rows = {r["lane"]: r for r in view(conn, "status_held")}
    assert set(rows) == {"history", "tail"}
    h, t = rows["history"], rows["tail"]
    assert (h["group_name"], h["holder"], h["start_article"], h["end_article"], h["next_article"]) == \
        ("g.a", "n1", 1001, 2000, 1101)
    assert (h["snapshot_article"], h["snapshot_bytes"], h["stale"]) == (1101, 1234, False)
    assert dt.timedelta(0) <= h["snapshot_age"] < dt.timedelta(minutes=5)
    assert h["since"] == conn.execute("""SELECT leased_at FROM voyager.group_leases WHERE token = %s""",
                                      (state["history"]["token"],)).fetchone()[0]
    assert (t["group_name"], t["holder"], t["next_article"], t["snapshot_bytes"]) == ("g.a", "t1", 3801, None)
    assert t["stale"] is True and dt.timedelta(seconds=399) <= t["heartbeat_age"] < dt.timedelta(seconds=460)
    conn.execute("SELECT voyager.release_group(%s)", (state["tail"]["token"],))
    assert [r["lane"] for r in view(conn, "status_held")] == ["history"]


def test_phase2_backlogs(state):
    (row,) = view(state["conn"], "status_phase2")
    assert row["provisional_releases"] == 2      # Quiet.Provisional, Open.Provisional
    assert row["settle_due"] == 1                # complete and quiet for 7 h > settle_quiet_minutes (6 h)
    assert (row["pending_waiting"], row["pending_releases"]) == (1, 1)
    assert row["pending_oldest"] is not None
    # ready: the settled release's target and the finished pending release's; waiting: the provisional ones'
    assert (row["probe_candidates_ready"], row["probe_candidates_waiting"]) == (2, 2)
    assert row["probe_backlog"] == {"archive": 2}
    state["conn"].execute("SELECT voyager.settle_complete()")
    (row,) = view(state["conn"], "status_phase2")
    assert (row["provisional_releases"], row["settle_due"]) == (1, 0)
    assert (row["probe_candidates_ready"], row["probe_candidates_waiting"]) == (4, 0)
    assert row["probe_backlog"] == {"archive": 3, "par2": 1}


def test_phase2_is_zeros_on_an_empty_catalog(conn):
    (row,) = view(conn, "status_phase2")
    assert {k: v for k, v in row.items() if k != "pending_oldest"} == {
        **dict.fromkeys(["provisional_releases", "settle_due", "pending_waiting", "pending_releases",
                         "probe_candidates_ready", "probe_candidates_waiting", "probes_stuck", "probes_last_hour",
                         "probes_per_second", "signatures_muted", "probe_candidates_muted"], 0),
        **dict.fromkeys(["probe_backlog", "probes_dead", "probes_failed", "pending_by_status"], {})}


def test_catalog_against_its_cap(state):
    conn = state["conn"]
    set_setting(conn, "catalog_max_gb", 2)
    (row,) = view(conn, "status_catalog")
    size = lambda names: conn.execute(  # noqa: E731
        "SELECT sum(pg_total_relation_size(format('voyager.%%I', n)::regclass))::bigint FROM unnest(%s::text[]) n",
        (names,)).fetchone()[0]
    hot = size(["releases", "release_texts", "posters", "group_sets", "rule_counts", "rule_samples", "search_counts",
                "search_count_deltas"])
    pend = size(["pending_releases", "probe_candidates"])
    chunks = conn.execute("""SELECT sum(pg_total_relation_size(relid))::bigint
                               FROM pg_partition_tree('voyager.release_chunks') WHERE isleaf""").fetchone()[0]
    cap = 2 * 1024 ** 3
    assert (row["hot_bytes"], row["pending_bytes"], row["chunk_bytes"], row["elsewhere_bytes"]) == (hot, pend, chunks, 0)
    assert row["used_bytes"] == hot + pend + chunks and row["cap_bytes"] == cap
    assert row["room_bytes"] == cap - row["used_bytes"]
    assert float(row["used_pct"]) == round(100 * row["used_bytes"] / cap, 2)
    assert (row["releases"], row["pending_releases"], row["headers"]) == (3, 1, 1000 + 100 + 250)
    assert float(row["bytes_per_header"]) == round(row["used_bytes"] / 1350, 2)
    assert row["room_headers"] == int((cap - row["used_bytes"]) // (row["used_bytes"] / 1350))
    assert row["snapshot_bytes"] == size(["snapshots"])


def test_estimated_rows_counts_small_tables_and_estimates_big_ones(state):
    conn = state["conn"]
    assert conn.execute("SELECT voyager.estimated_rows('voyager.releases')").fetchone()[0] == 3
    conn.execute("ANALYZE voyager.releases")
    # with no exact count allowed: the planner's estimate, right after ANALYZE exact too
    assert conn.execute("SELECT voyager.estimated_rows('voyager.releases', 0)").fetchone()[0] == 3
    conn.execute("ANALYZE voyager.release_chunks")
    assert conn.execute("SELECT voyager.estimated_rows('voyager.release_chunks', 0)").fetchone()[0] == 3


def test_spool_reports(conn, tmp_path):
    from voyager.status import report_spool

    conn.execute("SELECT voyager.report_spool('n1', 1000, 3, 4000)")
    conn.execute("SELECT voyager.report_spool('n2', 10, 1)")
    conn.execute("UPDATE voyager.spool_reports SET reported_at = now() - interval '1 hour' WHERE node = 'n2'")
    conn.execute("SELECT voyager.report_spool('n1', 2000, 5)")          # replaces; the cap stays
    rows = {r["node"]: r for r in view(conn, "status_spool")}
    assert (rows["n1"]["bytes"], rows["n1"]["files"], rows["n1"]["cap_bytes"], float(rows["n1"]["used_pct"]),
            rows["n1"]["stale"]) == (2000, 5, 4000, 50.0, False)
    assert (rows["n2"]["bytes"], rows["n2"]["used_pct"], rows["n2"]["stale"]) == (10, None, True)
    assert rows["n2"]["age"] >= dt.timedelta(minutes=59)
    # the helper a worker calls: the spool's chunk files (not the temporary ones)
    (tmp_path / "g.a").mkdir()
    (tmp_path / "g.a" / "1-100.ov").write_bytes(b"x" * 300)
    (tmp_path / "g.a" / "101-200.ov").write_bytes(b"x" * 200)
    (tmp_path / "g.a" / "201-300.ov.123.456.tmp").write_bytes(b"x" * 999)
    assert report_spool(conn, "n3", tmp_path, 1 << 20) == (500, 2)
    assert conn.execute("SELECT bytes, files, cap_bytes FROM voyager.status_spool WHERE node = 'n3'").fetchone() == \
        (500, 2, 1 << 20)


def test_voyager_status_json_has_every_view(state, db_dsn, monkeypatch, capsys):
    from voyager.cli import main

    monkeypatch.setenv("VOYAGER_DSN", db_dsn)
    assert main(["status", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"catalog", "throughput", "bands", "failed", "recoveries", "tail", "held", "spool", "phase2", "merges",
                         "judge", "search", "jobs", "groups", "replicas"}
    assert data["failed"] == [] and data["recoveries"] == []
    assert data["catalog"]["releases"] == 3 and data["throughput"]["period"] == 3600
    assert data["tail"][-1] == {"group_name": None, "ranges": 3, "leased": 1, "articles_todo": 1000,
                                "from_article": 1201, "to_article": 4500, "holder": None}
    assert [b["band"] for b in data["bands"]][0] == "tail"
    assert {j["name"] for j in data["jobs"]} == {"tail_plan", "settle", "chunk_partitions", "search_counts", "sample_dates", "recategorize",
                                             "prune_snapshots", "merges", "pending_ladder", "par2_lists", "judge", "judge_daily",
                                             "spots_read", "spots_inspect", "spot_matches"}
    assert main(["status"]) == 0
    text = capsys.readouterr().out
    for title in ("Catalog", "The last hour", "Ranges by band", "Tail backlog", "Held groups", "Phase-2 backlogs",
                  "Jobs (voyager tick)", "(all groups)", "history 2000-2999", "capture 5"):
        assert title in text
