"""Posting-date estimates from sampled dates, and capture windows."""
from __future__ import annotations

from datetime import datetime, timezone

import psycopg
import pytest
from psycopg.types.json import Jsonb

from tests.helpers import lease, next_range, plan, set_setting


def utc(*a) -> datetime:
    return datetime(*a, tzinfo=timezone.utc)


@pytest.fixture
def dated(conn):
    set_setting(conn, "range_articles", 1000)
    plan(conn, [{"name": "g.d", "low": 1, "high": 10_000}])
    conn.execute("SELECT voyager.record_group_dates('g.d', %s)", (Jsonb([
        {"article": 1, "posted_at": "2016-01-01T00:00:00Z"},
        {"article": 5001, "posted_at": "2016-01-11T00:00:00Z"},
        {"article": 7001, "posted_at": "2009-03-01T00:00:00Z"},   # a bogus Date: must not pull the curve back
        {"article": 10001, "posted_at": "2016-01-21T00:00:00Z"},
    ]),))
    return conn


def test_every_range_gets_a_monotone_estimate(dated):
    conn = dated
    assert conn.execute("SELECT voyager.estimate_range_dates('g.d')").fetchone()[0] == 10
    est = conn.execute("""SELECT start_article, est_date FROM voyager.ranges ORDER BY start_article""").fetchall()
    assert est[0] == (1, utc(2016, 1, 1))
    assert dict(est)[2001] == utc(2016, 1, 5)           # 2000 of 5000 articles into ten days
    dates = [d for _, d in est]
    assert dates == sorted(dates)
    assert dict(est)[7001] == utc(2016, 1, 11)          # held at the running maximum
    assert conn.execute("SELECT voyager.estimate_range_dates('g.d')").fetchone()[0] == 0   # nothing changed


def test_capture_marks_planned_ranges_of_a_window(dated):
    conn = dated
    conn.execute("SELECT voyager.estimate_range_dates()")
    held = lease(conn, "history")
    rng = next_range(conn, held["token"])             # 1-1000 is leased: keeps its priority
    assert rng["start_article"] == 1
    n = conn.execute("SELECT voyager.mark_capture('2016-01-02', '2016-01-06', 0)").fetchone()[0]
    rows = conn.execute("""SELECT start_article, capture, priority FROM voyager.ranges
                            WHERE capture ORDER BY start_article""").fetchall()
    assert n == len(rows)
    assert [r[0] for r in rows] == [1, 1001, 2001]   # spans Jan 1-3, 3-5, 5-7
    assert rows[0][2] == 100 and all(r[2] == 0 for r in rows[1:])
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute("SELECT voyager.mark_capture('2016-02-01', '2016-01-01')")
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute("SELECT voyager.mark_capture('2016-01-01', '2016-02-01', -1)")


def test_bad_samples_are_refused(conn):
    plan(conn, [{"name": "g.d", "low": 1, "high": 10}])
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute("SELECT voyager.record_group_dates('g.d', %s)", (Jsonb([{"article": 0, "posted_at": "x"}]),))
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="no group"):
        conn.execute("SELECT voyager.record_group_dates('g.none', '[]')")
