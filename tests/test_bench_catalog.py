"""The benches that share a generated catalog (judge, phase2's merges, store
--into, scale) leave it as they found it: every table's rows, the releases'
and texts' contents, the search counts, the settings and the jobs; and
`voyager bench scale` prints both sizes' figures, their ratios and the bars.
A small catalog, copied from the tests' template (no sqitch run)."""
from __future__ import annotations

import argparse
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from bench import catalog, judge, phase2, store
from sim.generate import Options, generate
from tests.conftest import drop_database
from voyager.config import Config

ROOT = Path(__file__).resolve().parent.parent
RELEASES = 20_000


@pytest.fixture(scope="module")
def shared(admin_dsn, template_db):
    dsn = catalog.build(admin_dsn, releases=RELEASES, template=template_db[0], log=lambda m: None)
    yield dsn
    drop_database(admin_dsn, catalog.scratch_name(RELEASES))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("scale") / "corpus"
    generate(Options(out=out, seed=21, groups=2, lines=30_000, days=2, range_articles=20_000,
                     chunk_articles=5_000, bodies=False))
    return out


@pytest.fixture
def home(tmp_path, monkeypatch, corpus, admin_dsn, template_db):
    """A VOYAGER_HOME whose store recording of the corpus is made already
    (recorded into a copy of the template: no sqitch run), on the tests' server."""
    monkeypatch.setenv("VOYAGER_HOME", str(tmp_path))
    monkeypatch.setenv("VOYAGER_DSN", admin_dsn)
    from tests.conftest import create_database

    name = f"voyager_record_{os.getpid()}"
    try:
        rec = store.record(str(corpus), create_database(admin_dsn, name, template=template_db[0]))
    finally:
        drop_database(admin_dsn, name)
    path = store.cache_path(str(corpus), Config.from_env())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(rec))
    return tmp_path


def state(dsn: str) -> dict:
    """Every voyager and public table's rows, the checks, and the contents a
    bench plants into or moves (releases, texts, counts, settings, jobs)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        tables = [r[0] for r in conn.execute(
            """SELECT n.nspname || '.' || c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname IN ('voyager', 'public') AND c.relkind IN ('r', 'p') AND NOT c.relispartition""")]
        out = {t: conn.execute(sql.SQL("SELECT count(*) FROM {}.{}").format(*map(sql.Identifier, t.split("."))))
               .fetchone()[0] for t in tables}
        for table, order in (("releases", "id"), ("release_texts", "release_id, kind, text"),
                             ("search_counts", "key"), ("settings", "name"), ("groups", "id"),
                             ("jobs", "name")):
            out[f"{table} rows"] = conn.execute(
                f"SELECT md5(string_agg(x::text, ',' ORDER BY {order})) FROM voyager.{table} x").fetchone()[0]
        out["sizes"] = dict(conn.execute(catalog.SIZES_SQL).fetchall())
        out["check_catalog"] = conn.execute("SELECT coalesce(sum(rows), 0) FROM voyager.check_catalog()").fetchone()[0]
        out["search_counts_off"] = conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0]
    return out


def assert_as_found(before: dict, after: dict, skip=()) -> None:
    """Everything the same, but a table's pages: grown no more than as_found lets pass."""
    assert {k: v for k, v in after.items() if k != "sizes" and k not in skip} == \
        {k: v for k, v in before.items() if k != "sizes" and k not in skip}
    grown = {t: (before["sizes"][t], size) for t, size in after["sizes"].items()
             if size > before["sizes"][t] * (1 + catalog.GROWN) and size - before["sizes"][t] > 2**20}
    assert not grown


def test_another_seed_keeps_the_catalog_built(shared, admin_dsn, template_db):
    """A bench's --seed draws its requests; a catalog of the size asked is
    hours of building at ten million, dropped only when asked to (rebuild)."""
    before = state(shared)
    said: list[str] = []
    assert catalog.build(admin_dsn, releases=RELEASES, seed=5, template=template_db[0], log=said.append) == shared
    assert state(shared) == before
    assert any("built with seed 1, kept" in m for m in said), said
    with psycopg.connect(shared) as conn:
        assert conn.execute("SELECT releases, seed FROM public.bench_catalog").fetchone() == (RELEASES, 1)


def test_the_judge_leaves_the_catalog_as_found(shared):
    before = state(shared)
    assert before["check_catalog"] == 0 and before["search_counts_off"] == 0
    got = judge.measure(shared, argparse.Namespace(dirty=500, repeats=1, daily_repeats=2, sample=8_000),
                        lambda m: None)
    # the newest 8,000 releases had facts; the pass walked them, the figure scaled from them
    assert got["sample"] == 8_000 and sum(got["classes"].values()) == 8_000
    assert got["merged"] > 0 and got["verdicts"]["merged"] == got["merged"] and got["verdicts"]["dead"] > 0
    assert got["daily_runs"][-1]["judged"] == 8_000 - got["merged"]
    assert got["daily_s_at_1m"] == pytest.approx(got["daily_s"] * 1_000_000 / 8_000, abs=0.01)
    assert got["search_counts_off"] == 0
    assert_as_found(before, state(shared))


def test_the_merges_bench_leaves_the_catalog_as_found(shared):
    before = state(shared)
    got = phase2.measure(shared, argparse.Namespace(probed=1_000, upload=10, shape="obfuscated"))
    assert got["merged"] == got["merged_within_their_upload"] == got["planted_merges"] == 900
    assert_as_found(before, state(shared))


def test_the_store_into_a_shared_catalog_leaves_it_as_found(shared, home, corpus):
    before = state(shared)
    got = store.measure_into(str(corpus), shared, 2)
    assert got["passes"] == 2 and got["releases_written"] > 0 and got["headers"] > 0
    assert got["postgres_cpu_seconds_per_million_headers"] > 0
    assert_as_found(before, state(shared))


@pytest.mark.parametrize("rounds", [1, 2])
def test_bench_scale_prints_both_sizes_their_ratios_and_the_bars(admin_dsn, template_db, home, corpus, rounds):
    """(with rounds, the API part of both catalogs in paired rounds first)"""
    sizes = (2_000, 3_000)
    for n in sizes:
        catalog.build(admin_dsn, releases=n, template=template_db[0], log=lambda m: None)
    try:
        before = {n: state(catalog.scratch_dsn(admin_dsn, catalog.scratch_name(n))) for n in sizes}
        env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
        env.update(VOYAGER_HOME=str(home), VOYAGER_DSN=admin_dsn)
        out = subprocess.run(
            [sys.executable, "-m", "voyager.cli", "bench", "scale", "--releases", str(sizes[1]), "--compare",
             str(sizes[0]), "--corpus", str(corpus), "--store-repeat", "1", "--kinds", "search_word,category_page",
             "--requests", "40", "--clients", "2", "--dirty", "100", "--repeats", "1", "--daily-repeats", "1",
             "--probed", "200", "--statements", "20", "--rounds", str(rounds)],
            env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-3000:]
        got = json.loads(out.stdout.strip().splitlines()[-1])
        assert json.loads((home / "bench" / "last-scale.json").read_text())["output"] == got
        assert list(got["sizes"]) == ["2000", "3000"]
        for n in sizes:
            one = got["sizes"][str(n)]
            assert one["catalog"]["releases"] == n
            assert one["api"]["kinds"]["search_word"]["errors"] == 0
            assert len(one["api"]["kinds"]["search_word"].get("rounds", [None])) == rounds
            # each kind's statements alone, and each hot relation's bytes a release
            assert {"api_use", "search_word", "category_page"} <= set(one["api"]["statements"])
            assert one["api"]["statements"]["search_word"]["median_ms"] > 0
            assert one["catalog"]["bytes_per_release_by_relation"]["releases"] > 0
            assert one["store"]["releases_written"] > 0 and one["judge"]["sample"] == n
            assert one["merges"]["merged"] == 180
            assert one["peak_database_bytes"] >= one["database_bytes"] > 0
            assert got["holds"][f"left_as_found_{n}"] is True
            after = state(catalog.scratch_dsn(admin_dsn, catalog.scratch_name(n)))
            # the API bench's own users, their days and grabs stay (the API's, not what this checks)
            assert_as_found(before[n], after, skip={"voyager.users", "voyager.user_days", "voyager.release_grabs"})
        r = got["ratios"]
        assert r["hot_bytes_per_release"] > 0 and r["api"]["search_word"]["postgres_cpu_ms"] > 0
        assert r["store_postgres_cpu_seconds_per_million_headers"] > 0
        assert r["judge_daily_s_at_1m"] > 0 and r["merges_db_cpu_s_per_1000_probed"] > 0
        assert {"api_search_word_postgres_cpu", "api_category_page_postgres_cpu", "hot_bytes_per_release",
                "store_cpu_per_million_headers", "judge_2000", "merges_3000"} <= set(got["holds"])
        assert isinstance(got["all_hold"], bool)
    finally:
        for n in sizes:
            drop_database(admin_dsn, catalog.scratch_name(n))
