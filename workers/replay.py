"""`voyager replay --corpus DIR [--fresh]`: a corpus through the database
(the database of VOYAGER_DSN / the local cluster's voyager_replay).

The worker's own history lane (workers/worker.LaneWorker) runs over the
corpus folder (CorpusLane): each group's ranges under a real group lease,
every batch stored with voyager.store_batch, then the catalog measured:
headers stored, the fidelity against the corpus's truth read back from the
stored chunks, hot bytes per catalog release, chunk bytes per segment beside
zstd -19 of the plain listing and the gzipped NZB, and the database's CPU
(backend) seconds per million headers stored. The window alone, offline, is
bench/replay.py (`voyager replay --window-only`).
"""
from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path
from types import SimpleNamespace

import psycopg
import zstandard
from psycopg.types.json import Jsonb

from bench.cpu import backend_cpu
from bench.replay import score_truth
from ext import codec
from voyager.corpus import Corpus
from workers.store import Store
from workers.worker import Fetcher, LaneWorker, Spool


class CorpusLane(LaneWorker):
    """The worker's history lane over a corpus folder, on the caller's
    connection (`voyager worker --until-idle --flush-at-end` with every chunk
    read from the corpus): each group's ranges through one carried window,
    whatever grid they were planned on, the end of each group's data finished
    as it stands. No news server and no keeper: nothing else holds its leases,
    and each stored batch keeps them."""

    flush_releases = 0       # the end of a group's data as one batch (`voyager bench store` replays these calls)
    fail_ranges = False      # a refused batch is the replay's error, raised

    def __init__(self, conn: psycopg.Connection, root: str | Path, node: str = "replay", store: Store | None = None,
                 first: int | None = None, last: int | None = None, progress=None):
        super().__init__("history", node, until_idle=True, flush_at_end=True)
        self.conn, self.store = conn, store or Store(conn)
        self.corpus_dir, self.corpus = Path(root), Corpus(root)
        self.stored_groups = set(self.corpus.group_names())
        self.first, self.last, self.progress = first, last, progress

    def run(self) -> dict:
        self.read_settings()
        self.keeper = SimpleNamespace(lost=False, token=None)
        with tempfile.TemporaryDirectory(prefix="voyager-replay-spool-") as spool:
            self.spool = Spool(Path(spool), 0)          # nothing is fetched
            self.fetcher = Fetcher(None, self.spool, 1)
            try:
                self.loop()
            finally:
                self.fetcher.close()
                if self._storer is not None:
                    self._storer.shutdown()
        return self.stats

    def priorities(self, owners: dict[str, int]) -> dict[str, int]:
        # the corpus's every group owns its crossposts, as its truth was made
        # (a replay of some of its groups indexes only those)
        return self.corpus.priorities()

    def work_group(self, token, gid: int, name: str) -> None:
        if name not in self.stored_groups:     # indexed but not in this corpus: nothing to read
            self.call("SELECT voyager.release_group(%s)", (token,))
            # not leased again; not a removal (set_group_active would recover its crossposts
            # into the other groups): it owns them, as the corpus's truth has it
            self.call("UPDATE voyager.groups SET active = false WHERE name = %s", (name,))
            return
        super().work_group(token, gid, name)

    def in_corpus(self, name: str, start: int, end: int) -> bool:
        # every range of a stored group is read from the corpus: where it has no
        # chunk, nothing was posted (or nothing was asked for)
        return name in self.stored_groups

    def corpus_chunks(self, name: str, resume: int, end: int):
        lo, hi = max(resume, self.first or 1), min(end, self.last or end)
        return self.corpus.chunks(name, lo, hi) if lo <= hi else ()

    def chunks(self, name: str, start: int, end: int, resume: int):
        headers = self.stats["headers"]
        for got in super().chunks(name, start, end, resume):
            yield got
            if self.progress:          # the chunk is fed and its batch on its way
                self.progress(self.stats["headers"] - headers)
                headers = self.stats["headers"]


def replay_into_db(conn: psycopg.Connection, root: str | Path, node: str = "replay",
                   store: Store | None = None, groups: str | None = None, first: int | None = None,
                   last: int | None = None, progress=None) -> dict:
    """The corpus's groups planned and worked by CorpusLane. groups: a wildmat
    of the corpus's groups; first/last: articles, widened to whole corpus
    chunks (ranges wholly outside are set aside as ancient). progress(headers)
    is called after every chunk."""
    conn.execute("SELECT * FROM voyager.plan_groups(%s, %s)", (Jsonb(Corpus(root).groups()), groups))
    if first is not None or last is not None:
        conn.execute("SELECT voyager.set_aside_ranges(%s, %s)", (first or 1, last or 2**62))
    lane = CorpusLane(conn, root, node, store, first, last, progress)
    stats = lane.run()
    return {"headers": stats["headers"], "client_store_cpu_seconds": round(lane.cpu.get("store_async", 0.0), 3)}


def chunk_message_ids(chunk) -> frozenset:
    """The message-ids a release's chunk lists: what truth uploads are matched by."""
    return frozenset(m.decode() for _n, _b, segs in codec.decode(bytes(chunk)) for _p, m, _s in segs)


def catalog_releases(conn: psycopg.Connection) -> list[dict]:
    """Every catalog release as sim.phase2_truth scores it: id, name,
    merged_into, hidden, its message-ids."""
    return [{"id": rid, "name": name, "merged_into": merged, "hidden": hidden,
             "message_ids": chunk_message_ids(chunk)}
            for rid, name, merged, hidden, chunk in conn.execute("""
                SELECT r.id, r.name, r.merged_into,
                       coalesce((SELECT j.hidden FROM voyager.release_judgements j WHERE j.release_id = r.id), false),
                       c.chunk
                  FROM voyager.releases r JOIN voyager.release_chunks c ON c.release_id = r.id""")]


def catalog_fidelity(conn: psycopg.Connection, root: str | Path) -> dict:
    """The fidelity against the corpus's truth (bench/replay.score_truth), read back
    from the catalog's chunks and pending releases."""
    release_sets = {chunk_message_ids(chunk) for (chunk,) in conn.execute("SELECT chunk FROM voyager.release_chunks")}
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
    """The replay's report: releases finished, provisional, edges; complete,
    incomplete; readable; files; segments as a share of headers; bytes per
    header per table (catalog_sizes())."""
    row = conn.execute("""
        SELECT count(*), count(*) FILTER (WHERE settled_at IS NOT NULL), count(*) FILTER (WHERE settled_at IS NULL),
               count(*) FILTER (WHERE edge), count(*) FILTER (WHERE complete), count(*) FILTER (WHERE NOT complete),
               count(*) FILTER (WHERE readable), coalesce(sum(files), 0), coalesce(sum(segments), 0)
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
    """`voyager replay --corpus DIR`: a corpus through the worker's lane (group
    leases, voyager.store_batch) into a replay database; prints the report, the
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
            if next(Corpus(a.corpus).truth(), {}).get("upload"):      # a phase2 corpus: phase 2 scored too
                from sim.phase2_truth import score_phase2
                out["phase2"] = score_phase2(Corpus(a.corpus).truth(), catalog_releases(conn))
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
