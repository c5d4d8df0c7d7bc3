"""The prober's readers' CPU per article: yEnc decode and parsing of ~700 KB
articles of every shape the simulator makes, no database, no NNTP.

    python -m bench.probe_read [--repeat N]

prints one JSON line: CPU milliseconds per article by shape (read_article
whole), the yEnc decode alone, and the bar (2 ms an article). `measure()` is
what `voyager bench probe` includes."""
from __future__ import annotations

import argparse
import json
import time

from sim.bodies import encode_part, part_count
from workers.probe import read_article, yenc

RELEASE = "Bench.Release.2024.1080p.WEB.x264-VOY"
BAR_MS = 2.0
MEMBERS = [{"name": f"{RELEASE}.mkv", "bytes": 4_000_000_000}, {"name": f"{RELEASE}.nfo", "bytes": 3000}]


def _spec(kind: str, size: int, **extra) -> dict:
    parts = max(1, -(-size // 716_800))
    spec = {"name": f"{RELEASE}.{kind}", "bytes": size, "kind": kind, "volume": 1, "volumes": 1,
            "release": RELEASE, "password": None, "members": [], "seed": 77,
            "segments": [[p, f"p{p}@bench"] for p in range(1, min(parts, 3) + 1)], "parts": parts}
    spec.update(extra)
    return spec


# (shape, candidate kind, spec, which part: 1 or the last)
SHAPES = [
    ("rar4", "archive", _spec("rar", 100_000_000, volumes=40, name=f"{RELEASE}.part01.rar", members=MEMBERS), 1),
    ("rar5", "archive", _spec("rar5", 100_000_000, volumes=40, name=f"{RELEASE}.part01.rar", members=MEMBERS), 1),
    ("rar5-hp", "archive", _spec("rar5", 100_000_000, volumes=40, name=f"{RELEASE}.part01.rar",
                                 members=MEMBERS, password="pw"), 1),
    ("7z-tail", "7z-tail", _spec("7z", 100_000_000, volume=40, volumes=40, name=f"{RELEASE}.7z.040",
                                 members=MEMBERS), -1),
    ("7z-mhe-tail", "7z-tail", _spec("7z", 100_000_000, volume=40, volumes=40, name=f"{RELEASE}.7z.040",
                                     members=MEMBERS, password="pw"), -1),
    ("zip", "archive", _spec("zip", 100_000_000, members=MEMBERS), 1),
    ("par2vol", "par2", _spec("par2vol", 20_000_000, name=f"{RELEASE}.vol00+40.par2", members=[
        dict(m, kind="mkv") for m in MEMBERS]), 1),
    ("nfo", "nfo", _spec("nfo", 6000), 1),
    ("mkv", "media", _spec("mkv", 4_000_000_000), 1),
    ("mp4", "media", _spec("mp4", 4_000_000_000), 1),
    ("exe", "media", _spec("exe", 4_000_000_000, name=f"{RELEASE}.mkv"), 1),
    ("lone-bin", "lone", _spec("bin", 100_000_000, name="4f1c2a9e0b7d4c3e8f6a5b2c1d0e9f8a"), 1),
]


def _cpu_ms(call, repeat: int) -> float:
    call()      # warm: imports, caches
    began = time.process_time()
    for _ in range(repeat):
        call()
    return (time.process_time() - began) * 1000 / repeat


def measure(repeat: int = 50) -> dict:
    """CPU ms per article by shape, the yEnc decode alone, and the bar."""
    per_shape, sizes, yenc_ms = {}, {}, []
    for shape, kind, spec, part in SHAPES:
        body = encode_part(spec, part_count(spec) if part < 0 else part)
        facts = read_article(kind, spec["name"], body)
        if facts["error"]:
            raise RuntimeError(f"{shape}: {facts['error']}")
        sizes[shape] = len(body)
        per_shape[shape] = round(_cpu_ms(lambda: read_article(kind, spec["name"], body), repeat), 3)
        if len(body) > 500_000:
            yenc_ms.append(_cpu_ms(lambda: yenc.decode(body), repeat))
    big = [ms for shape, ms in per_shape.items() if sizes[shape] > 500_000]
    return {"bench": "probe_read", "repeat": repeat,
            "article_bytes": round(sum(sizes[s] for s in sizes if sizes[s] > 500_000) / max(1, len(big))),
            "cpu_ms_per_article": per_shape,
            "yenc_decode_ms": round(sum(yenc_ms) / max(1, len(yenc_ms)), 3),
            "max_ms": max(big) if big else None, "mean_ms": round(sum(big) / max(1, len(big)), 3),
            "bar_ms": BAR_MS, "within_bar": bool(big) and max(big) <= BAR_MS}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bench.probe_read", description=__doc__.split("\n\n")[0])
    p.add_argument("--repeat", type=int, default=50)
    a = p.parse_args(argv)
    print(json.dumps(measure(a.repeat)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
