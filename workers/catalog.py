"""A corpus through the database: each group's ranges under a real group lease,
every batch stored with voyager.store_batch, then the catalog measured.

    voyager replay --corpus DIR --into-db     (the database of VOYAGER_DSN / the local cluster)

prints one JSON line: headers stored, the fidelity against the corpus's truth
read back from the stored chunks, hot bytes per catalog release, chunk bytes
per segment beside zstd -19 of the plain listing and the gzipped NZB, and the
database's CPU (backend) seconds per million headers stored.
"""
from __future__ import annotations

import gzip
import json
import time
from pathlib import Path

import psycopg
import zstandard
from psycopg.types.json import Jsonb

from ext import codec, scan
from ext.window import Window
from sim.corpus import Corpus
from workers.replay import score_truth
from workers.store import Store

HOT_TABLES = ("releases", "release_texts", "posters", "group_sets", "rule_counts", "rule_samples")


def replay_into_db(conn: psycopg.Connection, root: str | Path, node: str = "replay",
                   store: Store | None = None) -> dict:
    corpus = Corpus(root)
    listing = corpus.groups()
    conn.execute("SELECT * FROM voyager.plan_groups(%s)", (Jsonb(listing),))
    priorities = {g["name"]: g.get("priority", i) for i, g in enumerate(listing, 1)}
    store = store or Store(conn)
    headers = 0
    stored_cpu = 0.0
    stored_groups = set(corpus.group_names())
    while True:
        # groups in the order the lease gives them, as a worker takes them
        held = conn.execute("SELECT token, group_name FROM voyager.lease_group('history', %s)", (node,)).fetchone()
        if held is None:
            break
        token, name = held
        if name not in stored_groups:      # indexed but not in this corpus: nothing to read
            conn.execute("SELECT voyager.release_group(%s)", (token,))
            conn.execute("SELECT voyager.set_group_active(%s, false)", (name,))
            continue
        window = Window(name, priorities)
        rng = None
        while True:
            nxt = conn.execute("SELECT range_id, start_article, end_article, next_article "
                               "FROM voyager.next_range(%s)", (token,)).fetchone()
            if nxt is None:
                break
            rng = nxt
            range_id, start, end, resume = rng
            for chunk in corpus.chunks(name, resume, end):
                window.feed(scan.inflate(chunk.read()), chunk.last)
                batch = window.take_batch()
                first, last = max(chunk.first, resume), min(chunk.last, end)
                t = time.process_time()
                store.store(token, range_id, first, last + 1, chunk.lines, batch)
                stored_cpu += time.process_time() - t
                resume = last + 1
                headers += chunk.lines
            if resume <= end:          # the corpus has no chunk for the rest: nothing was posted there
                store.store(token, range_id, resume, end + 1, 0, window.take_batch())
        if rng is None:
            conn.execute("SELECT voyager.release_group(%s)", (token,))
            continue
        # the end of the data: what is open is as good as settled
        store.store(token, rng[0], rng[2] + 1, rng[2] + 1, 0, window.flush())
        # given back with its window (without one the lane would be planned again)
        conn.execute("SELECT voyager.release_group(%s, %s, %s)", (token, window.snapshot(), rng[2] + 1))
    return {"headers": headers, "client_store_cpu_seconds": round(stored_cpu, 3)}


def catalog_fidelity(conn: psycopg.Connection, root: str | Path) -> dict:
    """CORPUS.md's fidelity, read back from the catalog's chunks and pending releases."""
    release_sets = {frozenset(m.decode() for _n, _b, segs in codec.decode(bytes(chunk)) for _p, m, _s in segs)
                    for (chunk,) in conn.execute("SELECT chunk FROM voyager.release_chunks")}
    pending_targets = {mid: segments
                       for segments, candidates in conn.execute(
                           "SELECT segments, candidates FROM voyager.pending_releases")
                       for _k, mid, _i in candidates}
    scored = score_truth(root, release_sets, pending_targets)
    return {k: scored[k] for k in ("release", "album", "pending", "drop")}


def catalog_sizes(conn: psycopg.Connection, headers: int) -> dict:
    """Hot bytes per release and chunk bytes per segment, beside what zstd -19
    makes of each release's plain listing and what its gzipped NZB takes."""
    conn.execute("VACUUM ANALYZE voyager.releases")
    hot = sum(conn.execute("SELECT pg_total_relation_size(%s::regclass)", (f"voyager.{t}",)).fetchone()[0]
              for t in HOT_TABLES)
    releases, segments = conn.execute("SELECT count(*), coalesce(sum(segments), 0) FROM voyager.releases").fetchone()
    chunk_bytes = zstd_bytes = gzip_bytes = 0
    z = zstandard.ZstdCompressor(level=19)
    for rid, chunk in conn.execute("SELECT release_id, chunk FROM voyager.release_chunks"):
        chunk = bytes(chunk)
        chunk_bytes += len(chunk)
        listing = b"".join(m + b"\t" + str(s).encode() + b"\n"
                           for _n, _b, segs in codec.decode(chunk) for _p, m, s in segs)
        zstd_bytes += len(z.compress(listing))
    for (text,) in conn.execute("SELECT voyager.nzb(id) FROM voyager.releases"):
        gzip_bytes += len(gzip.compress(text.encode(), 9))
    return {
        "releases": releases, "segments": int(segments), "headers": headers,
        "hot_bytes_per_release": round(hot / releases, 1) if releases else None,
        "chunk_bytes_per_segment": round(chunk_bytes / segments, 2) if segments else None,
        "chunk_share_of_zstd19_listing": round(chunk_bytes / zstd_bytes, 3) if zstd_bytes else None,
        "chunk_share_of_gzipped_nzb": round(chunk_bytes / gzip_bytes, 3) if gzip_bytes else None,
        "catalog_bytes_per_header": round((hot + chunk_bytes) / headers, 2) if headers else None,
    }


def main(corpus: str, dsn: str) -> int:
    with psycopg.connect(dsn, autocommit=True) as conn:
        before = _backend_cpu(conn)
        done = replay_into_db(conn, corpus)
        server_cpu = _backend_cpu(conn) - before if before is not None else None
        out = dict(done)
        if server_cpu is not None and done["headers"]:
            out["postgres_cpu_seconds_per_million_headers"] = round(server_cpu / done["headers"] * 1e6, 3)
        if (Path(corpus) / "truth.jsonl").exists():
            out["fidelity"] = catalog_fidelity(conn, corpus)
        out.update(catalog_sizes(conn, done["headers"]))
    print(json.dumps(out, default=float))
    return 0


def _backend_cpu(conn: psycopg.Connection) -> float | None:
    """This connection's backend CPU seconds (utime + stime from /proc; local servers only)."""
    pid = conn.info.backend_pid
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    import os

    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
