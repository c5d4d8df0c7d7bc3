"""`voyager bench window --corpus DIR [--group G] [--repeat N]`: the window's
speed on a corpus's ranges, as one JSON line.

headers_per_cpu_second counts every overview line the window read (inflate
included) per CPU-second, over the range as a worker holding the group reads
it (a batch taken after every chunk); the lease end, when everything still
open is written provisionally, is timed apart (lease_end_cpu_seconds) and
with it (headers_per_cpu_second_with_lease_end): a worker holds a group over
many ranges and ends a lease rarely. inflate_headers_per_cpu_second is the
same chunks inflated alone with libdeflate told each chunk's exact size, in
the same run: the floor no parser goes below. Each pass runs --repeat times
(a fresh window each) and the least CPU of each counts, so that the ratio is
not the noise of a busy machine. peak_rss_mb is the process's peak, lease end
included. Release chunks are encoded by the window (ext.codec).
"""
from __future__ import annotations

import argparse
import gc
import json
import resource
import sys
import time

from ext import scan
from ext.window import Window
from voyager.corpus import Corpus


def window_pass(chunks, group: str, priorities: dict, end: str = "lease") -> dict:
    """One pass; end: "lease" (what is open written provisionally, as a lease
    ends) or "flush" (the end of the data: everything finished, as a replay
    or a worker with --flush-at-end ends)."""
    window = Window(group, priorities)
    releases = pending = 0
    gc.disable()          # as the worker runs it: the window's records hold no cycles
    start = time.process_time()
    for chunk in chunks:
        window.feed(scan.inflate(chunk.read()), chunk.last, chunk.first)
        batch = window.take_batch()
        releases += len(batch["releases"])
        pending += len(batch["pending"])
    range_cpu = time.process_time() - start
    provisional = chunk_bytes = segments = 0
    for batch in (window.lease_end_batches() if end == "lease" else [window.flush()]):
        provisional += len(batch["releases"]) + len(batch["pending"])
        for rec in batch["releases"]:
            chunk_bytes += len(rec["chunk"])
            segments += rec["segments"]
    cpu = time.process_time() - start
    gc.enable()
    return {"range_cpu": range_cpu, "cpu": cpu, "headers": window.lines, "releases": releases,
            "pending": pending, "provisional": provisional, "chunk_bytes": chunk_bytes, "segments": segments,
            "open_files": window.open_files, "open_releases": window.open_releases}


def inflate_pass(chunks) -> float:
    import deflate

    cpu = 0.0
    for chunk in chunks:
        data = chunk.read()
        size = len(scan.inflate(data))
        start = time.process_time()
        deflate.zlib_decompress(data, size)
        cpu += time.process_time() - start
    return cpu


def bench_window(root: str, group: str | None = None, repeat: int = 3) -> dict:
    corpus = Corpus(root)
    group = group or max(corpus.group_names(), key=lambda g: sum(r.lines for r in corpus.ranges(g)))
    priorities = corpus.priorities()
    chunks = list(corpus.chunks(group))
    runs = [window_pass(chunks, group, priorities) for _ in range(max(1, repeat))]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    inflate_cpu = min(inflate_pass(chunks) for _ in range(max(1, repeat)))
    best = min(runs, key=lambda r: r["range_cpu"])
    range_cpu = best["range_cpu"]
    cpu = min(r["cpu"] for r in runs)
    headers = best["headers"]
    return {
        "group": group, "headers": headers, "chunks": len(chunks), "repeat": len(runs),
        # the range as a held lease reads it: inflate, scan, window, a batch per chunk
        "cpu_seconds": round(range_cpu, 3),
        "headers_per_cpu_second": round(headers / range_cpu) if range_cpu else None,
        "inflate_headers_per_cpu_second": round(headers / inflate_cpu) if inflate_cpu else None,
        "share_of_inflate_rate": round(inflate_cpu / range_cpu, 3) if range_cpu else None,
        # a lease ending right after the range: everything still open written provisionally
        "lease_end_cpu_seconds": round(cpu - range_cpu, 3),
        "headers_per_cpu_second_with_lease_end": round(headers / cpu) if cpu else None,
        "peak_rss_mb": round(peak, 1),
        "chunk_bytes_per_segment": round(best["chunk_bytes"] / best["segments"], 2) if best["segments"] else None,
        "releases_finished": best["releases"], "pending_finished": best["pending"],
        "provisional_at_lease_end": best["provisional"],
        "open_files": best["open_files"], "open_releases": best["open_releases"],
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager bench window", description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True)
    p.add_argument("--group")
    p.add_argument("--repeat", type=int, default=3, help="passes of each kind; the least CPU counts")
    a = p.parse_args(argv)
    print(json.dumps(bench_window(a.corpus, a.group, a.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
