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
from voyager.corpus import Corpus
from bench.cpu import backend_cpu
from bench.replay import score_truth
from workers.store import Store

def replay_into_db(conn: psycopg.Connection, root: str | Path, node: str = "replay",
                   store: Store | None = None, groups: str | None = None, first: int | None = None,
                   last: int | None = None, progress=None) -> dict:
    """Each group's ranges in article order through one carried window, under
    real group leases, every batch stored at its resume point. groups: a
    wildmat of the corpus's groups; first/last: articles, widened to whole
    corpus chunks (ranges wholly outside are set aside as ancient).
    progress(headers) is called after every stored chunk."""
    corpus = Corpus(root)
    listing = corpus.groups()
    conn.execute("SELECT * FROM voyager.plan_groups(%s, %s)", (Jsonb(listing), groups))
    if first is not None or last is not None:
        conn.execute("UPDATE voyager.ranges SET status = 'ancient' WHERE status = 'planned' "
                     "AND (end_article < %s OR start_article > %s)", (first or 1, last or 2**62))
    priorities = corpus.priorities()
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
            lo, hi = max(resume, first or 1), min(end, last or end)
            for chunk in (corpus.chunks(name, lo, hi) if lo <= hi else ()):
                if chunk.first > resume:   # nothing posted (or nothing asked for) before the chunk
                    store.store(token, range_id, resume, chunk.first, 0, window.take_batch())
                    resume = chunk.first
                window.feed(scan.inflate(chunk.read()), chunk.last)
                batch = window.take_batch()
                upto = min(chunk.last, end)
                t = time.process_time()
                store.store(token, range_id, resume, upto + 1, chunk.lines, batch)
                stored_cpu += time.process_time() - t
                resume = upto + 1
                headers += chunk.lines
                if progress:
                    progress(chunk.lines)
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
    # the hot tables as voyager.catalog_sizes() counts them; the chunks by their own bytes here
    releases, segments, hot = conn.execute(
        "SELECT releases, segments, hot_bytes FROM voyager.catalog_sizes()").fetchone()
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


def catalog_report(conn: psycopg.Connection, headers: int) -> dict:
    """The seed's replay report: releases finished, provisional, edges; complete,
    incomplete; readable; files; segments as a share of headers; bytes per
    header per table (catalog_sizes())."""
    row = conn.execute("""
        SELECT count(*), count(*) FILTER (WHERE settled_at IS NOT NULL), count(*) FILTER (WHERE settled_at IS NULL),
               count(*) FILTER (WHERE edge), count(*) FILTER (WHERE complete), count(*) FILTER (WHERE NOT complete),
               count(*) FILTER (WHERE name ~ '[ ._-]'), coalesce(sum(files), 0), coalesce(sum(segments), 0)
          FROM voyager.releases""").fetchone()
    pending = conn.execute("SELECT count(*) FROM voyager.pending_releases").fetchone()[0]
    sizes = conn.execute("SELECT tables FROM voyager.catalog_sizes()").fetchone()[0]
    keys = ("releases", "finished", "provisional", "edges", "complete", "incomplete", "readable", "files", "segments")
    out = dict(zip(keys, (int(v) for v in row)))
    out["pending"] = pending
    out["segments_share_of_headers"] = round(out["segments"] / headers, 4) if headers else None
    out["bytes_per_header"] = {t: round(b / headers, 3) for t, b in sizes.items()} if headers else {}
    return out


def main(argv: list[str] | None = None) -> int:
    """`voyager replay --corpus DIR`: a corpus through group leases and
    voyager.store_batch into a replay database; prints the report, the
    fidelity against the corpus's truth, the sizes beside zstd -19 and the
    gzipped NZBs, and the database's CPU per million headers."""
    import argparse

    from voyager import schema
    from voyager.config import Config
    from voyager.db import fresh_database

    p = argparse.ArgumentParser(prog="voyager replay", description=main.__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True)
    p.add_argument("--group", help="only these groups (an RFC 3977 wildmat)")
    p.add_argument("--from", dest="first", type=int, help="first article (widened to its corpus chunk)")
    p.add_argument("--to", dest="last", type=int, help="last article (widened to its corpus chunk)")
    p.add_argument("--dsn", help="the replay database (default: the local cluster's voyager_replay)")
    p.add_argument("--fresh", action="store_true", help="create or empty the database and deploy the schema")
    p.add_argument("--any-database", action="store_true",
                   help="allow a database whose name does not end in _replay or _scratch")
    p.add_argument("--json", action="store_true", help="print the report as one JSON line")
    a = p.parse_args(argv)
    cfg = Config.from_env()
    dsn = a.dsn or psycopg.conninfo.make_conninfo(cfg.dsn, dbname="voyager_replay")
    dbname = psycopg.conninfo.conninfo_to_dict(dsn).get("dbname", "")
    if not a.any_database and not dbname.endswith(("_replay", "_scratch")):
        raise ValueError(f"refusing to replay into {dbname!r}: its name must end in _replay or _scratch "
                         "(or pass --any-database)")
    if a.fresh:
        fresh_database(dsn, dbname)
    else:
        schema.deploy(dsn, log=lambda _: None)   # idempotent: an existing database is brought up to date
    total = sum(r.lines for g in Corpus(a.corpus).group_names() for r in Corpus(a.corpus).ranges(g))
    with psycopg.connect(dsn, autocommit=True) as conn:
        before = backend_cpu(conn)
        with _progress(total, quiet=a.json) as advance:
            done = replay_into_db(conn, a.corpus, groups=a.group, first=a.first, last=a.last, progress=advance)
        server_cpu = backend_cpu(conn) - before if before is not None else None
        out = {"database": dbname, **done}
        if server_cpu is not None and done["headers"]:
            out["postgres_cpu_seconds_per_million_headers"] = round(server_cpu / done["headers"] * 1e6, 3)
        out["report"] = catalog_report(conn, done["headers"])
        if (Path(a.corpus) / "truth.jsonl").exists() and not (a.group or a.first or a.last):
            out["fidelity"] = catalog_fidelity(conn, a.corpus)
        out["sizes"] = catalog_sizes(conn, done["headers"])
    if a.json:
        print(json.dumps(out, default=float))
    else:
        _print_report(out)
    return 0


class _progress:
    """A rich progress bar over the corpus's headers (nothing when quiet)."""

    def __init__(self, total: int, quiet: bool):
        self.total, self.quiet, self.bar = total, quiet, None

    def __enter__(self):
        if self.quiet:
            return lambda n: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                            TimeRemainingColumn(), transient=True)
        self.bar.start()
        task = self.bar.add_task("headers", total=self.total)
        return lambda n: self.bar.advance(task, n)

    def __exit__(self, *exc):
        if self.bar:
            self.bar.stop()


def _print_report(out: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"replay into {out['database']}", show_header=False)
    for k, v in out.items():
        if isinstance(v, dict):
            for k2, v2 in v.items():
                if k2 != "misses":
                    t.add_row(f"{k}.{k2}", json.dumps(v2) if isinstance(v2, (dict, list)) else str(v2))
        elif k != "database":
            t.add_row(k, str(v))
    Console().print(t)
