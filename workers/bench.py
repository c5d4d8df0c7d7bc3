"""`voyager bench window --corpus DIR [--group G]`: the window's speed on a
corpus's ranges, as one JSON line.

headers_per_cpu_second counts every overview line the window read (inflate
included) per CPU-second; inflate_headers_per_cpu_second is the same chunks
inflated alone with libdeflate told each chunk's exact size, in the same run:
the floor no parser goes below. peak_rss_mb is the process's peak.
"""
from __future__ import annotations

import argparse
import gc
import json
import resource
import sys
import time

from ext import scan
from ext.window import Window, release_chunk
from sim.corpus import Corpus


def bench_window(root: str, group: str | None = None) -> dict:
    corpus = Corpus(root)
    group = group or max(corpus.group_names(), key=lambda g: sum(r.lines for r in corpus.ranges(g)))
    priorities = {g["name"]: g.get("priority", i) for i, g in enumerate(corpus.groups(), 1)}
    chunks = list(corpus.chunks(group))
    window = Window(group, priorities)
    releases = pending = 0
    gc.disable()          # as the worker runs it: the window's records hold no cycles
    start = time.process_time()
    for chunk in chunks:
        window.feed(scan.inflate(chunk.read()), chunk.last)
        batch = window.take_batch()
        releases += len(batch["releases"])
        pending += len(batch["pending"])
    provisional = 0
    chunk_bytes = segments = 0
    encode_cpu = 0.0
    for batch in window.lease_end_batches():
        provisional += len(batch["releases"]) + len(batch["pending"])
        # the store encodes each release's chunk: timed apart from the window
        t = time.process_time()
        for rec in batch["releases"]:
            chunk_bytes += len(release_chunk(rec))
            segments += rec["segments"]
        encode_cpu += time.process_time() - t
    cpu = time.process_time() - start - encode_cpu
    gc.enable()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    import deflate

    inflate_cpu = 0.0
    for chunk in chunks:
        data = chunk.read()
        size = len(scan.inflate(data))
        start = time.process_time()
        deflate.zlib_decompress(data, size)
        inflate_cpu += time.process_time() - start
    headers = window.lines
    return {
        "group": group, "headers": headers, "chunks": len(chunks),
        "cpu_seconds": round(cpu, 3),
        "headers_per_cpu_second": round(headers / cpu) if cpu else None,
        "inflate_headers_per_cpu_second": round(headers / inflate_cpu) if inflate_cpu else None,
        "share_of_inflate_rate": round(inflate_cpu / cpu, 3) if cpu else None,
        "peak_rss_mb": round(peak, 1),
        "chunk_encode_cpu_seconds": round(encode_cpu, 3),
        "chunk_bytes_per_segment": round(chunk_bytes / segments, 2) if segments else None,
        "releases_finished": releases, "pending_finished": pending,
        "provisional_at_lease_end": provisional,
        "open_files": window.open_files, "open_releases": window.open_releases,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager bench window", description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True)
    p.add_argument("--group")
    a = p.parse_args(argv)
    print(json.dumps(bench_window(a.corpus, a.group)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
