"""`voyager sim generate --hostile`: the same ordinary lines under the same
numbers, the hostile ones planted among them as hostile.jsonl lists them,
every chunk on the chunk grid."""
from __future__ import annotations

import re

from sim import hostile as H
from sim.generate import Options, generate
from voyager.corpus import Corpus

CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def lines_by_number(root) -> dict[int, list[bytes]]:
    out: dict[int, list[bytes]] = {}
    c = Corpus(root)
    for g in c.group_names():
        for chunk in c.chunks(g):
            for line in chunk.overview_lines():
                head = line.split(b"\t", 1)[0]
                out.setdefault((g, int(head) if head.isdigit() else None), []).append(line)
    return out


def test_the_hostile_corpus_is_the_plain_one_with_hostile_lines_planted(tmp_path):
    kw = dict(seed=4, groups=2, lines=20_000, days=2, range_articles=10_000, chunk_articles=2_000, bodies=False)
    generate(Options(out=tmp_path / "plain", **kw))
    generate(Options(out=tmp_path / "hostile", hostile=True, **kw))
    plain, hostile = lines_by_number(tmp_path / "plain"), lines_by_number(tmp_path / "hostile")
    planted = H.read(tmp_path / "hostile")
    control = {(r["group"], r["at"]) for r in planted if r.get("count") == ["mended", "control"]}
    for key, lines in plain.items():
        got = hostile[key][:len(lines)] if key in control else [x for x in hostile[key] if x in lines]
        if key in control:
            assert [CONTROL.sub(b"", x) for x in got] == lines and got != lines
        else:
            assert got == lines, key
    counts = H.expected_counts(planted)
    assert counts[("malformed", "outside")] == 8 and counts[("mended", "control")] == 16
    assert sum(1 for r in planted if "upload" in r) == 10
    for g in Corpus(tmp_path / "hostile").group_names():
        for chunk in Corpus(tmp_path / "hostile").chunks(g):
            assert chunk.last % 2_000 == 0 or chunk.last == max(c.last for c in Corpus(tmp_path / "hostile").chunks(g))
