"""Replay a corpus through the window, offline: a group's ranges in article
order through one carried window. Used by `voyager bench window`, the
fidelity check against a generated corpus's truth, and tests."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ext import scan
from ext.window import Window, segments_of
from voyager.corpus import Corpus, truth_message_ids


@dataclass
class Replay:
    releases: list = field(default_factory=list)
    pending: list = field(default_factory=list)
    samples: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    lines: int = 0

    def add(self, batch: dict) -> None:
        self.releases += batch["releases"]
        self.pending += batch["pending"]
        self.samples += batch["samples"]
        for rule, key, articles, files, releases in batch["counts"]:
            c = self.counts.setdefault((rule, key), [0, 0, 0])
            c[0] += articles
            c[1] += files
            c[2] += releases


def replay_group(corpus: Corpus, group: str, rules: dict | None = None, flush: bool = True) -> Replay:
    priorities = corpus.priorities()
    window = Window(group, priorities, rules)
    out = Replay()
    for chunk in corpus.chunks(group):
        window.feed(scan.inflate(chunk.read()), chunk.last, chunk.first)
        out.add(window.take_batch())
    out.lines = window.lines
    if flush:
        out.add(window.flush())
    return out


def replay_corpus(root: str | Path, rules: dict | None = None) -> dict[str, Replay]:
    corpus = Corpus(root)
    return {g: replay_group(corpus, g, rules) for g in corpus.group_names()}


def fidelity(root: str | Path, results: dict[str, Replay] | None = None) -> dict:
    """The fidelity of an offline replay against a generated corpus's truth."""
    results = results or replay_corpus(root)
    release_sets: set[frozenset] = set()
    pending_targets: dict[str, int] = {}
    for r in results.values():
        for rel in r.releases:
            release_sets.add(frozenset(s[1].decode() for f in rel["file_list"] for s in segments_of(f["segs"])))
        for rel in r.pending:
            # a pending release carries no segment list (it waits outside the catalog until it is named), its probe targets do name articles
            for _kind, mid, _file in rel["candidates"]:
                pending_targets[mid.decode()] = rel["segments"]
    return score_truth(root, release_sets, pending_targets)


def score_truth(root: str | Path, release_sets: set[frozenset], pending_targets: dict[str, int]) -> dict:
    """The truth scored against an index: release_sets, the message-ids of each
    catalog release; pending_targets, a pending release's segment count by its
    probe targets' message-ids. The share of each kind where it belongs, the
    counts, and up to 50 misses a kind."""
    in_catalog = set().union(*release_sets) if release_sets else set()
    tally = {k: [0, 0] for k in ("release", "album", "pending", "drop")}
    misses: dict[str, list] = {k: [] for k in tally}
    for up in Corpus(root).truth():
        kind = up["kind"]
        mids = truth_message_ids(up)
        if kind in ("release", "album"):
            ok = mids in release_sets
        elif kind == "pending":
            hits = [pending_targets[m] for m in mids if m in pending_targets]
            ok = bool(hits) and all(h == len(mids) for h in hits)
        else:
            ok = not (mids & in_catalog)
        tally[kind][0] += ok
        tally[kind][1] += 1
        if not ok and len(misses[kind]) < 50:
            misses[kind].append(up)
    out = {k: (round(v[0] / v[1], 4) if v[1] else None) for k, v in tally.items()}
    out["counts"] = {k: v[1] for k, v in tally.items()}
    out["misses"] = misses
    return out


def main(argv: list[str] | None = None) -> int:
    """`voyager replay --window-only --corpus DIR`: every group's ranges through one carried
    window each; prints a JSON line of counts, and the fidelity against the
    corpus's truth when it has one."""
    import argparse
    import json

    p = argparse.ArgumentParser(prog="voyager replay --window-only", description=main.__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True)
    a = p.parse_args(argv)
    results = replay_corpus(a.corpus)
    summary = {
        "groups": len(results),
        "lines": sum(r.lines for r in results.values()),
        "releases": sum(len(r.releases) for r in results.values()),
        "pending": sum(len(r.pending) for r in results.values()),
        "dropped": {f"{rule}:{key}": c[2] for r in results.values() for (rule, key), c in r.counts.items() if c[2]},
    }
    if (Path(a.corpus) / "truth.jsonl").exists():
        f = fidelity(a.corpus, results)
        summary["fidelity"] = {k: f[k] for k in ("release", "album", "pending", "drop")}
    print(json.dumps(summary))
    return 0
