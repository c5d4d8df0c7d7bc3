"""`voyager capacity`: the ratios come from the catalog a replay built (change
the catalog and they move), the CPU figures from the last benchmark run kept
under VOYAGER_HOME (else measured, and said so), and every projection scales
linearly with the target's headers."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from sim.generate import Options, generate
from tests.workers.test_worker import prepare
from workers.replay import replay_into_db

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("capacity") / "corpus"
    generate(Options(out=out, seed=21, groups=2, lines=30_000, days=2, range_articles=20_000,
                     chunk_articles=5_000, bodies=False))
    return out


def capacity(home: Path, dsn: str, *args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    env.update(VOYAGER_HOME=str(home))
    out = subprocess.run([sys.executable, "-m", "voyager.cli", "capacity", "--dsn", dsn, *args], env=env,
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_ratios_from_the_catalog_and_projections_linear_in_headers(corpus, conn, db_dsn, tmp_path):
    prepare(conn, corpus)
    done = replay_into_db(conn, corpus)
    got = capacity(tmp_path, db_dsn)
    cat = got["measured"]["catalog"]
    releases, segments = conn.execute("SELECT count(*), sum(segments)::bigint FROM voyager.releases").fetchone()
    assert cat["headers"] == done["headers"] > 0
    assert cat["releases"] == releases and cat["segments"] == segments
    assert cat["releases_per_header"] == pytest.approx(releases / done["headers"])
    assert cat["hot_bytes"] > 0 and cat["chunk_bytes"] > 0
    assert cat["hot_bytes_per_header"] == pytest.approx(cat["hot_bytes"] / done["headers"])
    assert cat["chunk_bytes_per_segment"] == pytest.approx(cat["chunk_bytes"] / segments)

    # the default target: 528e9 headers; its disk and releases are the ratios times it
    needs = got["needs"]
    assert got["target"]["headers"] == 528e9 and got["target"]["groups"] == 1000
    assert needs["releases"] == pytest.approx(528e9 * releases / done["headers"])
    assert needs["disk"]["hot_bytes"] == pytest.approx(528e9 * cat["hot_bytes_per_header"])
    assert needs["disk"]["chunk_bytes"] == pytest.approx(528e9 * cat["chunk_bytes"] / done["headers"])
    # the hot set held in shared buffers, a quarter of the database host's memory
    assert needs["settings"]["shared_buffers_gb"] == pytest.approx(needs["disk"]["hot_bytes"] / 2**30)
    assert needs["settings"]["database_memory_gb"] == pytest.approx(4 * needs["disk"]["hot_bytes"] / 2**30)

    # no benchmark has run under that home: the API's database CPU measured on this catalog,
    # the store's not measured (and each says so)
    cpu = got["measured"]["cpu"]
    assert cpu["store_cpu_seconds_per_million_headers"]["value"] is None
    assert "not measured" in cpu["store_cpu_seconds_per_million_headers"]["source"]
    search = cpu["api_cpu_ms_per_request"]["search_word"]
    assert search["source"].startswith("measured") and search["database_ms"] > 0
    assert needs["at_rate"]["database_cores"] is None

    # twice the headers: twice the disk, the releases, the backfill's time; the rate's cores the same
    double = capacity(tmp_path, db_dsn, "--headers", str(2 * 528e9), "--connections", "20")["needs"]
    half = capacity(tmp_path, db_dsn, "--headers", str(528e9 / 2), "--connections", "20")["needs"]
    for path in (("disk", "hot_bytes"), ("disk", "chunk_bytes"), ("releases",), ("backfill", "seconds"),
                 ("tail", "headers_per_second"), ("settings", "shared_buffers_gb")):
        a, b = double, half
        for k in path:
            a, b = a[k], b[k]
        assert a == pytest.approx(4 * b), path
    assert double["backfill"]["headers_per_second"] == 20 * 30_000
    assert double["at_rate"]["nntp_connections"] == pytest.approx(20)

    # change the catalog, the ratios move: twice the headers indexed over the same releases
    conn.execute("UPDATE voyager.range_batches SET headers = 2 * headers")
    moved = capacity(tmp_path, db_dsn)["measured"]["catalog"]
    assert moved["headers"] == 2 * done["headers"]
    assert moved["releases_per_header"] == pytest.approx(cat["releases_per_header"] / 2)
    assert moved["hot_bytes_per_header"] == pytest.approx(moved["hot_bytes"] / (2 * done["headers"]))
    assert moved["hot_bytes_per_header"] < cat["hot_bytes_per_header"]


def test_the_cpu_figures_come_from_the_last_bench_run(corpus, conn, db_dsn, admin_dsn, tmp_path):
    prepare(conn, corpus)
    replay_into_db(conn, corpus)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VOYAGER_")}
    # the benchmark's scratch databases on the tests' server
    env.update(VOYAGER_HOME=str(tmp_path), VOYAGER_DSN=admin_dsn)
    out = subprocess.run([sys.executable, "-m", "voyager.cli", "bench", "store", "--corpus", str(corpus),
                          "--repeat", "1"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    bench = json.loads(out.stdout.strip().splitlines()[-1])
    kept = json.loads((tmp_path / "bench" / "last-store.json").read_text())
    assert kept["output"] == bench

    got = capacity(tmp_path, db_dsn, "--rate", "1000000")
    store = got["measured"]["cpu"]["store_cpu_seconds_per_million_headers"]
    assert store["value"] == bench["postgres_cpu_seconds_per_million_headers"]
    assert store["source"].startswith("voyager bench store")
    # a million headers a second costs the database that many CPU-seconds a second
    assert got["needs"]["at_rate"]["database_cores"] == pytest.approx(store["value"])
    assert got["needs"]["tail"]["database_cores"] == pytest.approx(store["value"] * 528e9 / (7000 * 86400) / 1e6)

    # a run of `bench api --compare`: the larger catalog's cost per request is the one projected
    (tmp_path / "bench" / "last-api.json").write_text(json.dumps({"bench": "api", "recorded_at": "2026-12-05T10:00:00+00:00", "output": {
        "sizes": {"1000000": {"releases": 1000000, "kinds": {"search_word": {"web_cpu_ms": 1.4, "postgres_cpu_ms": 3.2}}},
                  "10000000": {"releases": 10000000, "kinds": {"search_word": {"web_cpu_ms": 1.5, "postgres_cpu_ms": 7.4}}}},
        "ratios": {"search_word": {"postgres_cpu_ms": 2.31}}}}))
    api = capacity(tmp_path, db_dsn)["measured"]["cpu"]["api_cpu_ms_per_request"]["search_word"]
    assert (api["web_ms"], api["database_ms"]) == (1.5, 7.4) and "10000000 releases" in api["source"]


@pytest.mark.parametrize("memory_mb, pool_mb", [(256, 128), (2048, 512), (24 * 1024, 6 * 1024),
                                                (64 * 1024, 16 * 1024), (1024 * 1024, 65536)])
def test_a_new_cluster_s_pool_is_a_quarter_of_memory(monkeypatch, memory_mb, pool_mb):
    """`voyager db up` sizes shared_buffers at a quarter of the machine's
    memory (128 MB at least, 64 GB at most): past 4 GB too, since the hot set
    of ten million releases (5.2 GB) must fit or each search's reads miss."""
    from voyager import cluster

    page = 4096
    monkeypatch.setattr(cluster.os, "sysconf",
                        lambda name: page if name == "SC_PAGE_SIZE" else memory_mb * 2**20 // page)
    assert cluster.shared_buffers_mb() == pool_mb
