"""`voyager sim stats --corpus DIR`: the proportions a corpus holds, as JSON.

Lines by kind (with a yEnc part counter, 32-hex subjects, [PRiVATE] hashes,
other counterless, malformed), the share crossposted and the share owned by
another indexed group, the share the window filters (counterless or owned
elsewhere), compressed bytes per line, and from truth.jsonl the uploads by
kind and phenomenon, single-file releases and the floods' share of candidates;
for a corpus of one profile (--profile) the uploads by shape.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter

from voyager.corpus import Corpus

COUNTER = re.compile(rb"\((\d+)/(\d+)\)")
HEX32 = re.compile(rb"^[0-9a-f]{32}$")
FLOODS = {"stub-archive", "nonsense-piece", "tiny-archive", "bare-executable"}


def line_kind(fields: list[bytes]) -> str:
    subject = fields[1]
    if COUNTER.search(subject):
        return "counter"
    if HEX32.match(subject):
        return "hex32"
    if subject.startswith(b"[PRiVATE]"):
        return "private"
    return "counterless_other"


def corpus_stats(root) -> dict:
    corpus = Corpus(root)
    priority = corpus.priorities()
    kinds: Counter = Counter()
    lines = crossposted = owned_elsewhere = filtered = compressed = 0
    for name in corpus.group_names():
        for r in corpus.ranges(name):
            for c in r.chunks:
                compressed += c.bytes
                for line in c.overview_lines():
                    lines += 1
                    fields = line.split(b"\t")
                    if (len(fields) < 9 or not fields[0].isdigit() or not fields[4].startswith(b"<")
                            or not fields[6].isdigit()):
                        kinds["malformed"] += 1
                        filtered += 1
                        continue
                    k = line_kind(fields)
                    kinds[k] += 1
                    xref = fields[8].split()[2:]
                    groups_in = [x.split(b":")[0].decode("utf-8", "replace") for x in xref]
                    elsewhere = False
                    if len(groups_in) > 1:
                        crossposted += 1
                        indexed = [g for g in groups_in if g in priority]
                        if indexed and min(indexed, key=priority.__getitem__) != name:
                            owned_elsewhere += 1
                            elsewhere = True
                    if k != "counter" or elsewhere:
                        filtered += 1
    counterless = kinds["hex32"] + kinds["private"] + kinds["counterless_other"]
    out = {
        "lines": lines,
        "lines_by_kind": dict(sorted(kinds.items())),
        "share_without_counter": round(counterless / lines, 4) if lines else 0,
        "counterless_hex32_share": round(kinds["hex32"] / counterless, 4) if counterless else 0,
        "counterless_private_share": round(kinds["private"] / counterless, 4) if counterless else 0,
        "share_crossposted": round(crossposted / lines, 4) if lines else 0,
        "share_owned_elsewhere": round(owned_elsewhere / lines, 4) if lines else 0,
        "share_filtered": round(filtered / lines, 4) if lines else 0,
        "compressed_bytes_per_line": round(compressed / lines, 1) if lines else 0,
    }
    uploads: Counter = Counter()
    phenomena: Counter = Counter()
    single = releases = floods = candidates = 0
    shapes: dict[str, set] = {}
    for rec in corpus.truth():
        for shape in rec.get("shapes") or ():
            shapes.setdefault(shape, set()).add(rec["upload"])     # an upload's pieces count once
        uploads[rec["kind"]] += 1
        phenomena[rec.get("phenomenon", "")] += 1
        if rec["kind"] in ("release", "album"):
            releases += 1
            single += len(rec["files"]) == 1
        if rec["kind"] != "drop" or rec.get("rule") in FLOODS:
            candidates += 1
            floods += rec.get("rule") in FLOODS
    if uploads:
        out["uploads_by_kind"] = dict(sorted(uploads.items()))
        out["uploads_by_phenomenon"] = dict(sorted(phenomena.items()))
        out["single_file_release_share"] = round(single / releases, 4) if releases else 0
        out["flood_share_of_candidates"] = round(floods / candidates, 4) if candidates else 0
    if shapes:
        out["uploads_by_shape"] = {k: len(v) for k, v in sorted(shapes.items())}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager sim stats", description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True)
    a = p.parse_args(argv)
    print(json.dumps(corpus_stats(a.corpus)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
