"""The corpus generator: the layout, truth consistent with the corpus,
determinism, the proportions, and each phenomenon's own shape."""
from __future__ import annotations

import hashlib
import json
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest

from sim import phenomena as P
from sim.generate import CATALOG, Context, Options, generate, owner_of
from sim.stats import corpus_stats
from voyager.corpus import Corpus, line_number

COUNTER = re.compile(r"\((\d+)/(\d+)\)")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("corpus") / "c"
    generate(Options(out=out, seed=11, groups=8, lines=150_000, days=2, range_articles=20_000,
                     chunk_articles=5_000))
    return out


def tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    def make(seed, name):
        out = tmp_path / name
        generate(Options(out=out, seed=seed, groups=3, lines=20_000, days=1, range_articles=10_000,
                         chunk_articles=2_000))
        return tree_digest(out)

    assert make(5, "a") == make(5, "b")
    assert make(5, "a2") != make(6, "c")


def test_layout_follows_corpus_md(corpus):
    groups = json.loads((corpus / "groups.json").read_text())
    assert [g["priority"] for g in groups] == list(range(1, len(groups) + 1))
    for g in groups:
        ranges = Corpus(corpus).ranges(g["name"])
        assert ranges[0].start == g["low"] and ranges[-1].end == g["high"]
        for a, b in zip(ranges, ranges[1:]):
            assert b.start == a.end + 1
            assert (b.start - 1) % 20_000 == 0            # the grid tiled from article 1
        for r in ranges:
            info = json.loads((r.path / "range.json").read_text())
            assert info["group"] == g["name"] and info["filtered"] is False
            assert info["chunks"][0]["first"] == r.start and info["chunks"][-1]["last"] == r.end
            for c in r.chunks:
                assert c.path.stat().st_size == c.bytes
                lines = c.overview_lines()
                assert len(lines) == c.lines
                assert all(c.first <= line_number(x) <= c.last for x in lines if line_number(x) is not None)


def test_truth_is_consistent_with_the_corpus(corpus):
    """Every truth segment is a line in each stored group it was posted to,
    with its size, subject and Xref; every well-formed line is in the truth."""
    c = Corpus(corpus)
    priority = {g["name"]: g["priority"] for g in c.groups()}
    by_mid: dict[str, list[tuple[str, list[bytes]]]] = defaultdict(list)
    malformed = 0
    for name in c.group_names():
        for chunk in c.chunks(name):
            for line in chunk.overview_lines():
                f = line.split(b"\t")
                if len(f) < 9 or not f[4].startswith(b"<") or not f[6].isdigit():
                    malformed += 1
                    continue
                by_mid[f[4][1:-1].decode()].append((name, f))
    seen = set()
    kinds = defaultdict(int)
    for up in c.truth():
        kinds[up["kind"]] += 1
        assert up["group"] == owner_of(up["groups"], priority)
        assert up["kind"] in ("release", "album", "pending", "drop")
        assert (up["kind"] == "drop") == ("rule" in up)
        for f in up["files"]:
            for part, mid, nbytes in f["segments"]:
                assert mid not in seen, "a message-id in two uploads"
                seen.add(mid)
                where = by_mid[mid]
                assert sorted(g for g, _ in where) == sorted(g for g in up["groups"] if g in priority)
                for g, fields in where:
                    assert int(fields[6]) == nbytes
                    xref_groups = [x.split(b":")[0].decode() for x in fields[8].split()[2:]]
                    assert xref_groups == up["groups"]
                    subject = fields[1].decode("utf-8", "replace")
                    m = COUNTER.search(subject)
                    if up.get("rule") not in ("obfuscated-subject", "counterless"):
                        assert m and int(m.group(1)) == part
                        if up["kind"] != "album" or "[" not in subject:
                            assert f["name"].split(".")[0][:8] in fields[1].decode("latin-1") \
                                or f["name"][:8] in subject
    assert set(by_mid) == seen, "lines outside the truth"
    assert malformed > 0
    assert all(kinds[k] > 0 for k in ("release", "album", "pending", "drop"))


def test_proportions_follow_the_seeds(tmp_path):
    """On the big mixed groups as measured on real data (boneless, multimedia)."""
    out = tmp_path / "mixed"
    generate(Options(out=out, seed=4, groups=2, lines=200_000, days=1, range_articles=50_000,
                     chunk_articles=10_000, bodies=False))
    s = corpus_stats(out)
    assert 0.38 <= s["share_without_counter"] <= 0.50
    assert 0.6 <= s["counterless_hex32_share"] <= 0.85
    assert 0.42 <= s["share_filtered"] <= 0.56
    assert 0.01 <= s["share_owned_elsewhere"] <= 0.12
    assert 30 <= s["compressed_bytes_per_line"] <= 70
    assert s["single_file_release_share"] > 0.5
    assert s["flood_share_of_candidates"] > 0.3
    assert s["lines_by_kind"]["malformed"] > 0


def test_bench_mode_writes_one_full_range(tmp_path):
    out = tmp_path / "bench"
    generate(Options(out=out, seed=2, bench=True, groups=1, lines=30_000, range_articles=30_000,
                     chunk_articles=10_000, days=0.01, bodies=False))
    c = Corpus(out)
    (r,) = c.ranges("alt.binaries.boneless")
    assert r.end - r.start + 1 == 30_000 and r.lines == 30_000
    assert {g["name"] for g in c.groups()} == {"alt.binaries.boneless", "alt.binaries.multimedia"}
    assert corpus_stats(out)["share_owned_elsewhere"] > 0


# -- each phenomenon ------------------------------------------------------------

@pytest.fixture
def ctx():
    opts = Options(out=Path("/nonexistent"), groups=6)
    return Context(opts, CATALOG[:12], random.Random(7))


def many(ctx, fn, group, n=40):
    out = []
    for _ in range(n):
        out += fn(ctx, group, 0.0)
    return out


def test_multi_file_uploads_carry_file_and_part_counters(ctx):
    ups = [u for u in many(ctx, P.multi_file, "alt.binaries.teevee") if u.phenomenon == "multi_file"]
    for u in ups:
        n = len(u.files)
        assert n >= 2 and u.kind == "release"
        for f in u.files:
            assert f"/{f.parts})" in f.subject
            assert f.name in f.subject or f.name in f.subject.replace("[PRiVATE]-[WtFnZb]-", "")
        if not u.latin1:
            assert any(f.kind in ("par2", "flac") for f in u.files)
    names = " ".join(f.name for u in ups for f in u.files)
    assert ".par2" in names and re.search(r"\.(part\d+\.rar|r\d\d|7z\.\d{3})", names)


def test_incomplete_uploads_miss_articles_and_fills_come_after_the_window(ctx):
    ups = many(ctx, P.multi_file, "alt.binaries.teevee", n=250)
    incomplete = [u for u in ups if u.phenomenon == "multi_file" and not u.complete]
    assert incomplete
    for u in incomplete:
        assert any(len(f.segments) < f.parts for f in u.files)
    fills = [u for u in ups if u.phenomenon == "fill"]
    reposts = [u for u in ups if u.phenomenon == "repost"]
    assert fills and reposts
    for u in fills + reposts:
        parent = next(p for p in ups if p.phenomenon == "multi_file" and p.name == u.name)
        gap = min(t for f in u.files for t in f.times) - max(t for f in parent.files for t in f.times)
        assert gap > 86400            # past the 24 h window: a release of its own


def test_obfuscated_uploads_are_pending_and_random_named(ctx):
    for u in many(ctx, P.obfuscated, "alt.binaries.boneless", 10):
        assert u.kind == "pending"
        assert all(re.match(r"^[0-9a-f]{32}\.", f.name) for f in u.files)


def test_counterless_subjects_have_no_part_counter(ctx):
    ups = many(ctx, P.counterless, "alt.binaries.boneless", 60)
    assert {u.rule for u in ups} >= {"obfuscated-subject"}
    subjects = [subj for u in ups for f in u.files for subj in (f.subjects or [f.subject])]
    for subj in subjects:
        assert not COUNTER.search(subj)
    assert any(re.fullmatch(r"[0-9a-f]{32}", s) for s in subjects)
    assert any(s.startswith("[PRiVATE] ") for s in subjects)


def test_scrambled_uploads_have_a_subject_and_poster_per_article(ctx):
    (u,) = P.scrambled(ctx, "alt.binaries.storage", 0.0)
    assert u.rule == "scrambled"
    (f,) = u.files
    n = len(f.segments)
    assert len(set(f.article_names)) == len(set(f.subjects)) == len(set(f.posters)) == n
    assert all(seg[0] == 1 for seg in f.segments)


def test_albums_are_numbered_single_files_of_one_poster(ctx):
    for u in many(ctx, P.album, "alt.binaries.pictures.erotica", 10):
        if u.kind != "album":
            continue
        assert all(f.parts == 1 for f in u.files) and len(u.files) >= 2
        templates = {re.sub(r"\d+", "#", f.name) for f in u.files}
        assert len(templates) == 1
        span = max(f.times[0] for f in u.files) - min(f.times[0] for f in u.files)
        assert span < 86400


def test_the_shogun_volumes_are_one_album(ctx):
    (u,) = P.shogun(ctx, "alt.binaries.ath", 0.0)
    assert u.kind == "album"
    assert all(re.search(r"\.avi\.\d{3}$", f.name) and f.subject.startswith("[") for f in u.files)


def test_batch_counters_share_one_huge_total(ctx):
    ups = P.batch_counter(ctx, "alt.binaries.pictures.erotica", 0.0)
    totals = {re.match(r"\[\d+/(\d+)\]", u.files[0].subject).group(1) for u in ups}
    assert len(totals) == 1 and int(totals.pop()) >= 100
    assert len(ups) >= 20 and len({u.poster for u in ups}) == 1
    assert all(len(u.files) == 1 and u.kind == "release" for u in ups)


def test_stub_archives_trip_a_leg_of_the_rule(ctx):
    for u in many(ctx, P.stub_archive, "alt.binaries.moovee", 60):
        (f,) = u.files
        assert u.rule == "stub-archive" and f.name.endswith((".zip", ".rar", ".7z"))
        assert f.size < 100_000_000 and len(u.groups) >= 2
        assert not any(P.is_exempt_group(g) for g in u.groups)
        small = max(s[2] for s in f.segments) <= 262_144 and f.size >= 1_000_000
        assert small or len(u.groups) >= 4 or any(w in u.poster for w in ("gmail", "hotmail", "yahoo", "outlook", "gmx", "web.de"))


def test_pieces_tiny_archives_and_executables(ctx):
    for u in many(ctx, P.nonsense_piece, "alt.binaries.boneless", 20):
        (f,) = u.files
        assert f.parts == 1 and 100_000 <= f.size <= 1_000_000 and " " not in f.name
    for u in many(ctx, P.tiny_archive, "alt.binaries.boneless", 20):
        (f,) = u.files
        assert f.parts == 1 and 2_000 <= f.size <= 100_000
    for u in many(ctx, P.bare_executable, "alt.binaries.boneless", 5):
        assert u.files[0].name.endswith(".exe") and u.rule == "bare-executable"


def test_what_must_survive_the_floods(ctx):
    for u in many(ctx, P.rot13_volumes, "alt.binaries.erotica", 20):
        assert u.kind == "release"
        assert all(re.search(r"\.cneg\d+\.rar$", f.name) for f in u.files)
    for u in many(ctx, P.exempt_single, "alt.binaries.sounds.karaoke", 10):
        assert u.kind == "release" and len(u.files) == 1
        assert P.is_exempt_group(u.groups[0])
