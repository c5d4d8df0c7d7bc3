"""Measurements of the release chunk codec on a generated corpus:

    python -m bench.codec CORPUS [ref]

prints one JSON line: bytes per segment (overall and per tool) and encode and
decode segments per CPU-second of ext.codec (or, with `ref`, of the Python
oracle tests/codec_reference.py, from a checkout with tests/)."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

# -- measurement -----------------------------------------------------------------

RELEASE_KINDS = ("release", "album", "pending")


def corpus_chunks(corpus_dir) -> list[tuple[str, list]]:
    """(tool, files) of every release/album/pending upload in a corpus's truth.jsonl."""
    out = []
    with open(Path(corpus_dir) / "truth.jsonl", encoding="utf-8") as fh:
        for line in fh:
            up = json.loads(line)
            if up["kind"] not in RELEASE_KINDS:
                continue
            files = [(f["name"].encode("utf-8", "surrogateescape"), f["bytes"],
                      [(p, m.encode("utf-8", "surrogateescape"), b) for p, m, b in f["segments"]])
                     for f in up["files"]]
            out.append((up.get("tool", "?"), files))
    return out


def bench(corpus_dir, impl=None, repeat: int = 3) -> dict:
    """Bytes per segment (overall and per tool) and encode/decode segments per
    CPU-second of `impl` (ext.codec by default) on a generated corpus."""
    if impl is None:
        from ext import codec as impl
    chunks = corpus_chunks(corpus_dir)
    nseg = sum(len(f[2]) for _t, files in chunks for f in files)
    per_tool: dict[str, list[int]] = {}
    encoded = []
    for tool, files in chunks:
        blob = impl.encode(files)
        if impl.decode(blob) != files:
            raise AssertionError(f"round trip failed ({tool})")
        encoded.append(blob)
        acc = per_tool.setdefault(tool, [0, 0])
        acc[0] += len(blob)
        acc[1] += sum(len(f[2]) for f in files)
    enc_t = dec_t = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _tool, files in chunks:
            impl.encode(files)
        t1 = time.process_time()
        for blob in encoded:
            impl.decode(blob)
        t2 = time.process_time()
        enc_t, dec_t = min(enc_t, t1 - t0), min(dec_t, t2 - t1)
    total = sum(len(b) for b in encoded)
    return {
        "impl": impl.__name__, "chunks": len(chunks), "segments": nseg, "bytes": total,
        "bytes_per_segment": round(total / nseg, 3),
        "per_tool": {t: {"segments": s, "bytes": b, "bytes_per_segment": round(b / s, 3)}
                     for t, (b, s) in sorted(per_tool.items(), key=lambda kv: -kv[1][1])},
        "encode_segments_per_cpu_s": round(nseg / enc_t) if enc_t else None,
        "decode_segments_per_cpu_s": round(nseg / dec_t) if dec_t else None,
    }


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    corpus = argv[0] if argv else "/tmp/codec-corpus"
    impl = None
    if len(argv) > 1 and argv[1] == "ref":
        from bench import oracle

        impl = oracle("codec_reference")
        if impl is None:
            raise SystemExit("ref: the oracle is tests/codec_reference.py, in a checkout with tests/")
    print(json.dumps(bench(corpus, impl, repeat=1 if impl is not None else 3)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
