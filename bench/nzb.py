"""`voyager bench nzb [--files 100] [--segments 140] [--repeat 50] [--web]`: how long
voyager.nzb() takes for one release of that many files, as one JSON line.

With --web, no database: the web process's NZB of such a release instead, in
CPU microseconds a call (the least of --repeat rounds), the one-pass
ext.codec.nzb beside the oracle's render(decode(chunk)) (tests/nzb_reference.py),
for these random 32-hex message-ids and for `voyager bench api`'s nyuu-shaped ones.
The oracle is the tests': where there is no tests/ folder (an installed copy),
render_bytes_decode_us is null and the bytes are not compared.

The release (random 32-hex message-ids, as obfuscating posters use: the
chunk's worst case) is written into a scratch database on the local cluster
through the catalog's own tables; each call is timed from the client
(loopback, one connection), the first one apart (it imports the server's
Python modules).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

import psycopg

from ext import codec
from voyager.config import Config
from voyager.db import fresh_database


def a_release(files: int, segments: int, seed: int = 7) -> list:
    rnd = random.Random(seed)
    out = []
    for f in range(files):
        segs = [(p, f"{rnd.getrandbits(128):032x}@news.example.com".encode(), 716_800 + rnd.randrange(200))
                for p in range(1, segments + 1)]
        out.append((f"Bench.Release.2026.1080p.WEB-DL.part{f + 1:03d}.rar".encode(), 100_000_000, segs))
    return out


def _cpu_us(fn, repeat: int, calls: int = 20) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - t) / calls)
    return round(best * 1e6, 1)


def web_times(files: int, segments: int, repeat: int) -> dict:
    """The web's NZB bytes of a release, old way and new, in CPU microseconds a call."""
    from bench import catalog, oracle

    ref = oracle("nzb_reference")              # None without tests/: the writer alone
    render = ref.render if ref is not None else None

    meta = ("Bench.Release.2026.1080p.WEB-DL", "Bench <bench@example.com>", 1_770_000_000,
            ["alt.binaries.bench", "alt.binaries.test"], "Movies > HD", None)
    out = {"files": files, "segments": files * segments}
    for shape, chunk in (("hex32", codec.encode(a_release(files, segments))),
                         ("nyuu", catalog._chunk(files, segments, 1000))):
        nzb = codec.nzb([chunk], *meta)
        if render is not None and nzb != render(codec.decode(chunk), *meta).encode():
            raise AssertionError("decode_nzb and render(decode()) differ")
        out[shape] = {
            "chunk_bytes": len(chunk), "nzb_bytes": len(nzb),
            "decode_us": _cpu_us(lambda: codec.decode(chunk), repeat),
            "render_bytes_decode_us": _cpu_us(lambda: render(codec.decode(chunk), *meta).encode(), repeat)
            if render is not None else None,
            "decode_nzb_us": _cpu_us(lambda: codec.nzb([chunk], *meta), repeat),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager bench nzb", description=__doc__.split("\n\n")[0])
    p.add_argument("--files", type=int, default=100)
    p.add_argument("--segments", type=int, default=140, help="segments a file")
    p.add_argument("--repeat", type=int, default=50)
    p.add_argument("--web", action="store_true", help="the web process's NZB bytes, no database")
    a = p.parse_args(argv)
    if a.web:
        print(json.dumps(web_times(a.files, a.segments, a.repeat)))
        return 0
    cfg = Config.from_env()
    dsn = fresh_database(cfg.dsn, "voyager_nzb_scratch")     # (bench api keeps voyager_bench_scratch)
    chunk = codec.encode(a_release(a.files, a.segments))
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("INSERT INTO voyager.groups (name, priority) VALUES ('alt.binaries.bench', 1)")
        conn.execute("INSERT INTO voyager.posters (poster) VALUES ('Bench <bench@example.com>')")
        conn.execute("INSERT INTO voyager.group_sets (groups) VALUES ('{alt.binaries.bench}')")
        rid = conn.execute("""
            INSERT INTO voyager.releases (posted_at, last_posted_at, first_article, last_article, segments, bytes,
                settled_at, group_id, group_set_id, poster_id, files, file_total, category, source, complete,
                has_par2, release_key, identity_key, name)
            SELECT now(), now(), 1, %s, %s, %s, now(), g.id, gs.id, po.id, %s, %s, 2040, 1, true, false,
                   substring(sha256('bench-key') for 20), substring(sha256('bench-identity') for 20), 'Bench.Release.2026.1080p.WEB-DL'
              FROM voyager.groups g, voyager.group_sets gs, voyager.posters po RETURNING id""",
            (a.files * a.segments, a.files * a.segments, a.files * 100_000_000, a.files, a.files)).fetchone()[0]
        conn.execute("INSERT INTO voyager.release_chunks (release_id, month, chunk) "
                     "SELECT id, voyager.chunk_month(posted_at), %s FROM voyager.releases WHERE id = %s",
                     (chunk, rid))
        t = time.perf_counter()
        first_nzb = conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()[0]
        first = time.perf_counter() - t
        times = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            conn.execute("SELECT voyager.nzb(%s)", (rid,)).fetchone()
            times.append(time.perf_counter() - t)
    times.sort()
    ms = lambda x: round(x * 1000, 2)  # noqa: E731
    print(json.dumps({
        "files": a.files, "segments": a.files * a.segments, "chunk_bytes": len(chunk),
        "nzb_bytes": len(first_nzb.encode()), "first_call_ms": ms(first),
        "p50_ms": ms(statistics.median(times)), "p95_ms": ms(times[int(0.95 * (len(times) - 1))]),
        "max_ms": ms(times[-1]), "repeat": len(times),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
