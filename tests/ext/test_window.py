"""The window (ext/window.pyx): subjects, the rules' own examples, the
owner rule, determinism whatever the chunks and snapshots, fidelity against a
generated corpus's truth, and bad input."""
from __future__ import annotations

import email.utils
import random
import zlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.replay import fidelity, replay_corpus
from ext import scan
from ext.window import Window, facts_of, is_scrambled, parse_subject_py, segments_of, stem_of
from sim.generate import Options, generate
from voyager.corpus import Corpus

GROUP = "alt.binaries.test.window"
T0 = 1_780_000_000


# -- subjects ----------------------------------------------------------------------

@pytest.mark.parametrize("subject,expect", [
    (b'[01/27] - "Some.Show.S01E02.part01.rar" yEnc (1/137)',
     dict(part=1, parts=137, file=1, files=27, name=b"Some.Show.S01E02.part01.rar", release=b"")),
    (b'Some.Show.S01E02 [03/27] - "Some.Show.S01E02.part03.rar" yEnc (12/137)',
     dict(part=12, parts=137, file=3, files=27, name=b"Some.Show.S01E02.part03.rar", release=b"Some.Show.S01E02")),
    (b'(Some Album) [1/9] - "01 - Track.flac" yEnc (2/40)',
     dict(part=2, parts=40, file=1, files=9, name=b"01 - Track.flac", release=b"Some Album")),
    (b'Some Album - [1/9] - "01 - Track.flac" yEnc (2/40)',
     dict(release=b"Some Album", name=b"01 - Track.flac")),
    (b'"lone.file.mkv" yEnc (7/70)', dict(part=7, parts=70, file=None, files=None, name=b"lone.file.mkv")),
    (b'[01/27] - "Name.part01.rar" - 50.00 MB yEnc (1/137)', dict(name=b"Name.part01.rar", files=27)),
    (b'[PRiVATE]-[WtFnZb]-[The.Release/The.Release.part01.rar]-[1/27] - "" yEnc 52428800 (1/100)',
     dict(name=b"The.Release.part01.rar", release=b"The.Release", file=1, files=27, parts=100)),
    (b"Name - Name.part01.rar yEnc (1/137)", dict(name=b"Name.part01.rar", release=b"Name")),
    # an earlier parser's miss: no quotes, the counter before a name with spaces
    (b"[12/60] Shogun I (1980) Shogun I (1980).avi.012 (1/137)",
     dict(file=12, files=60, name=b"Shogun I (1980) Shogun I (1980).avi.012", parts=137)),
    (b'[12345/68067] - "sunset_beach.jpg" yEnc (1/1)', dict(file=12345, files=68067, name=b"sunset_beach.jpg")),
])
def test_subject_shapes(subject, expect):
    got = parse_subject_py(subject)
    for key, value in expect.items():
        assert got[key] == value, (key, got)


@pytest.mark.parametrize("subject", [b"0123456789abcdef0123456789abcdef", b"[PRiVATE] 8f3a" + b"0" * 36,
                                     b"Name - Name.mkv", b"", b"(1/)", b"x (a/b)"])
def test_counterless_subjects(subject):
    assert parse_subject_py(subject) is None


def test_names_and_their_stems():
    assert stem_of(b"Name.part01.rar") == stem_of(b"Name.vol03+04.par2") == stem_of(b"Name.nfo") == b"Name"
    assert stem_of(b"Name.7z.001") == stem_of(b"Name.r07") == stem_of(b"Name.rar") == b"Name"
    assert stem_of(b"Shogun I (1980) Shogun I (1980).avi.012") == b"Shogun I (1980) Shogun I (1980)"
    assert stem_of(b"Video XXX.cneg3.rar") == b"Video XXX"              # ROT13 of .part3.rar
    assert facts_of(b"Video XXX.cneg1.rar")[1] & 2                      # a volume, not a single archive
    assert is_scrambled(b"WPHhydwNLeUAHxnweaS") and is_scrambled(b"aK3jf9LmQ2xYz7")
    assert not is_scrambled(b"TheLastFrontier") and not is_scrambled(b"0123456789abcdef0123")


# -- a small world of lines ---------------------------------------------------------

class Poster:
    """Writes overview lines like a posting tool, in article order."""

    def __init__(self, group=GROUP, start_article=1):
        self.group = group
        self.n = start_article
        self.lines: list[bytes] = []
        self.serial = 0

    def post(self, subject: str, poster="up <up@example.com>", t=T0, nbytes=716_800, groups=None, msgid=None):
        self.serial += 1
        mid = msgid or f"{self.serial}.{random.Random(self.serial).getrandbits(48):x}@sim.test"
        xref = " ".join(f"{g}:{self.n + i}" for i, g in enumerate(groups or [self.group]))
        date = email.utils.formatdate(t)
        line = f"{self.n}\t{subject}\t{poster}\t{date}\t<{mid}>\t\t{nbytes}\t{nbytes // 128}\tXref: h {xref}"
        self.lines.append(line.encode("utf-8", "surrogateescape"))
        self.n += 1
        return mid

    def upload(self, files: list[tuple[str, int]], shape="counter_first", t=T0, poster="up <up@example.com>",
               nbytes=716_800, groups=None, release="Rel"):
        """files: (name, parts); posted one after another a second apart."""
        n = len(files)
        for i, (name, parts) in enumerate(files, 1):
            for k in range(1, parts + 1):
                if shape == "counter_first":
                    subj = f'[{i:02d}/{n:02d}] - "{name}" yEnc ({k}/{parts})'
                elif shape == "name_first":
                    subj = f'{release} [{i:02d}/{n:02d}] - "{name}" yEnc ({k}/{parts})'
                else:
                    subj = f'"{name}" yEnc ({k}/{parts})'
                self.post(subj, poster=poster, t=t, nbytes=nbytes, groups=groups)
                t += 1
        return t

    def pad(self, count: int, t: float, step: float = 30.0):
        """Traffic that moves the frontier (counterless lines do not: a readable single each)."""
        for j in range(count):
            word = "".join(chr(97 + (j // 26 ** d) % 26) for d in range(4))   # no digits: no album
            self.post(f'"pad{word}.bin" yEnc (1/2)', poster=f"pad <p@x>", t=t + j * step)
        return t + count * step


def run(lines: list[bytes], priorities=None, rules=None, chunk=1000, flush=True):
    w = Window(GROUP, priorities or {GROUP: 5}, rules)
    out = {"releases": [], "pending": [], "samples": [], "counts": {}}

    def take(batch):
        out["releases"] += batch["releases"]
        out["pending"] += batch["pending"]
        out["samples"] += batch["samples"]
        for r, k, a, f, n in batch["counts"]:
            c = out["counts"].setdefault((r, k), [0, 0, 0])
            c[0] += a
            c[1] += f
            c[2] += n

    for i in range(0, len(lines), chunk):
        w.feed(b"\r\n".join(lines[i:i + chunk]) + b"\r\n", -1)
        take(w.take_batch())
    if flush:
        take(w.flush())
    return out, w


def named(out, prefix):
    return [r for r in out["releases"] if r["name"].startswith(prefix)]


def test_a_multi_file_upload_is_one_complete_release_with_its_candidates():
    p = Poster()
    files = [(f"Show.S01E01.part{v:02d}.rar", 5) for v in range(1, 5)] + [("Show.S01E01.par2", 1),
                                                                       ("Show.S01E01.vol00+01.par2", 2)]
    t = p.upload(files)
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    (rel,) = named(out, "Show.S01E01")
    assert rel["files"] == 6 and rel["file_total"] == 6 and rel["complete"] and rel["finished"]
    assert rel["segments"] == 23 and rel["has_par2"] and rel["readable"]
    kinds = {c[0] for c in rel["candidates"]}
    assert kinds == {"archive", "par2"}
    parts = segments_of(rel["file_list"][0]["segs"])
    assert [s[0] for s in parts] == [1, 2, 3, 4, 5]
    from ext import codec
    decoded = codec.decode(rel["chunk"])                # the chunk holds the same files and segments
    assert [(name, [s[:2] for s in segs]) for name, _b, segs in decoded] == \
        [(f["raw_name"], [s[:2] for s in segments_of(f["segs"])]) for f in rel["file_list"]]


def test_a_missing_article_makes_the_release_partial():
    p = Poster()
    t = p.upload([("Gap.part1.rar", 4), ("Gap.part2.rar", 4)])
    p.lines.pop(2)                                     # one article never arrived
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    (rel,) = named(out, "Gap")
    assert not rel["complete"] and rel["segments"] == 7


def test_the_shogun_volumes_are_one_release():
    p = Poster()
    t = T0
    for i in range(1, 13):
        for k in range(1, 4):
            p.post(f"[{i}/12] Shogun I (1980) Shogun I (1980).avi.{i:03d} ({k}/3)", t=t)
            t += 2
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    (rel,) = [r for r in out["releases"] if "Shogun" in r["name"]]
    assert rel["files"] == 12 and rel["complete"]


def test_numbered_single_files_become_an_album():
    p = Poster()
    t = T0
    for i in range(1, 41):
        p.post(f'"1481439079025_{i}.jpg.data" yEnc (1/1)', poster="dump <d@x>", t=t)
        t += 20
    p.pad(6000, t + 3600)
    out, _ = run(p.lines)
    albums = [r for r in out["releases"] if r.get("source") == 6]
    assert len(albums) == 1
    (album,) = albums
    assert album["name"] == "#_#.jpg.data" and album["files"] == 40 and album["file_total"] is None
    assert album["members"][:2] == ["1481439079025_1.jpg.data", "1481439079025_2.jpg.data"]


def test_a_batch_counter_gives_no_file_total():
    p = Poster()
    t = T0
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    for i in range(30):
        stem = "_".join(words[(i + j) % 8] for j in range(3)) + f"_{chr(97 + i % 26)}{chr(97 + i // 26)}"
        p.post(f'[{1000 + i}/68067] - "{stem}.png" yEnc (1/1)', poster="Yenc@power-post.org (Yenc-PP-A&A)", t=t)
        t += 60
    p.pad(8000, t + 3600)
    out, _ = run(p.lines)
    stems = [r for r in out["releases"] if r["poster"].startswith("Yenc@power-post")]
    assert len(stems) == 30
    assert all(r["files"] == 1 for r in stems)
    assert sum(r["file_total"] is None for r in stems) >= 10    # once 20 started, the rest lose the total


def test_stub_archives_are_dropped_by_each_leg():
    p = Poster()
    other = ["alt.binaries.x", "alt.binaries.y", "alt.binaries.z"]
    t = p.upload([("Some.Movie.2023.1080p.WEB-DL.x264-GRP.zip", 8)], shape="quoted", nbytes=256_000,
                 groups=[GROUP, other[0]], poster="pp <pp@power-post.org>")                         # A
    t = p.upload([("Office.2024.x64-GRP.rar", 3)], shape="quoted", t=t + 9000, groups=[GROUP] + other)  # X
    t = p.upload([("Movie.Two.2022.720p.7z", 3)], shape="quoted", t=t + 9000, groups=[GROUP, other[1]],
                 poster="John <john77@gmail.com>")                                                    # W
    # survivors: a ROT13 volume, a karaoke zip in an exempt group, one group only
    t = p.upload([("Video Title XXX.cneg1.rar", 8)], shape="quoted", t=t + 9000, nbytes=256_000,
                 groups=[GROUP, other[2]])
    t = p.upload([("Artist - Song (Karaoke).zip", 8)], shape="quoted", t=t + 9000, nbytes=256_000,
                 groups=[GROUP, "alt.binaries.sounds.karaoke"])
    t = p.upload([("Lonely.Archive.2020.zip", 8)], shape="quoted", t=t + 9000, nbytes=256_000)
    p.pad(4000, t + 3600)
    out, _ = run(p.lines, priorities={GROUP: 1})
    kept = {r["name"] for r in out["releases"]}
    assert {"Video Title XXX", "Artist - Song (Karaoke)", "Lonely.Archive.2020"} <= kept
    assert not kept & {"Some.Movie.2023.1080p.WEB-DL.x264-GRP", "Office.2024.x64-GRP", "Movie.Two.2022.720p"}
    legs = {k for (r, k) in out["counts"] if r == "stub-archive"}
    assert legs == {"A", "X", "W"}


def test_pieces_tiny_archives_executables_and_scrambled_articles_are_counted_not_written():
    p = Poster()
    t = T0
    p.post('"Some.Release.2019.720p-XX.rar" yEnc (1/1)', t=t, nbytes=400_000)
    p.post('"Holiday Snaps 2016.rar" yEnc (1/1)', t=t + 5, nbytes=40_000, poster="b <b@x>")
    p.post('"Some.Movie.2024.1080p.exe" yEnc (1/1)', t=t + 10, nbytes=40_000, poster="c <c@x>")
    p.post('"Some.Ebook.Title.2019.epub.rar" yEnc (1/1)', t=t + 15, nbytes=400_000, poster="d <d@x>")
    for i in range(5):
        rng = random.Random(i)
        p.post(f'"{"".join(rng.choice("aBcDeFgHiJkLmN0123") for _ in range(18))}" yEnc (1/1)',
               poster=f"r{i} <r{i}@x>", t=t + 20 + i)
    # a random run that drew no capital: lower-case letters with digits strewn through them
    p.post('"5kser8kiei8f66" yEnc (1/1)', poster="r5 <r5@x>", t=t + 30)
    p.pad(4000, t + 3600)
    out, _ = run(p.lines)
    rules = {r for (r, _k) in out["counts"]}
    assert {"nonsense-piece", "tiny-archive", "bare-executable", "scrambled"} <= rules
    assert out["counts"][("scrambled", "unknown")][2] == 6
    assert [r["name"] for r in out["releases"] if not r["name"].startswith("pad")] == ["Some.Ebook.Title.2019.epub"]


def test_an_uploads_one_article_random_files_go_pending_beside_its_others():
    """A scrambled flood gives every article a poster of its own and is dropped;
    the one-article files of an upload posted under random names (its par2
    index, before or after the data, its sidecars) share the upload's poster
    and go pending with it, so phase 2 can name and gather them."""
    p = Poster()
    t = T0
    rng = random.Random(7)
    index = "".join(rng.choice("aBcDeFgHiJkLmN0123") for _ in range(24))
    p.post(f'"{index}" yEnc (1/1)', poster="ob <ob@x>", t=t, nbytes=40_000)      # the index posted first
    data = ["".join(rng.choice("qWeRtYuIoP456789") for _ in range(30)) for _j in range(3)]
    t = p.upload([(name, 3) for name in data], shape="bare", t=t + 2, poster="ob <ob@x>")
    nfo = "".join(rng.choice("zXcVbNm0123") for _ in range(20))
    p.post(f'"{nfo}" yEnc (1/1)', poster="ob <ob@x>", t=t + 1, nbytes=5_000)   # a sidecar after them
    for i in range(5):
        rng = random.Random(i)
        p.post(f'"{"".join(rng.choice("aBcDeFgHiJkLmN0123") for _ in range(18))}" yEnc (1/1)',
               poster=f"r{i} <r{i}@x>", t=t + 20 + i)
    p.pad(4000, t + 3600)
    out, _ = run(p.lines)
    assert out["counts"][("scrambled", "unknown")][2] == 5
    pending = sorted(r["name"] for r in out["pending"])
    assert pending == sorted([index, nfo] + data)
    assert all(r["poster"] == "ob <ob@x>" for r in out["pending"])
    assert not [r for r in out["releases"] if not r["name"].startswith("pad")]


def test_random_named_uploads_are_pending_with_probe_targets():
    p = Poster()
    stem = "0123456789abcdef0123456789abcdef"
    t = p.upload([(f"{stem}.7z.001", 3), (f"{stem}.7z.002", 3), (f"{stem}.par2", 1)])
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    (pend,) = out["pending"]
    assert pend["name"] == stem and not pend["readable"] and pend["files"] == 3
    assert {c[0] for c in pend["candidates"]} == {"archive", "par2", "7z-tail"}
    assert not [r for r in out["releases"] if r["name"] == stem]


def test_an_unsplit_7z_has_its_last_article_read_for_the_listing():
    p = Poster()
    stem, one = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
    parts = [p.post(f'[1/2] - "{stem}.7z" yEnc ({k}/3)', t=T0 + k) for k in (1, 2, 3)]
    p.post(f'[2/2] - "{stem}.par2" yEnc (1/1)', t=T0 + 4)
    t = p.upload([(f"{one}.7z", 1), (f"{one}.par2", 1)], t=T0 + 9000, poster="other <o@example.com>")
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    pend = {r["name"]: r for r in out["pending"]}
    # 7-Zip writes the listing at the archive's end: the last of the three articles
    cands = {c[0]: c[1] for c in pend[stem]["candidates"]}
    assert cands["archive"] == parts[0].encode() and cands["7z-tail"] == parts[-1].encode()
    # one article holds it all: its first article is read, once
    assert {c[0] for c in pend[one]["candidates"]} == {"archive", "par2"}


def test_a_window_keeping_a_pending_key_writes_it_as_a_release_with_its_chunk():
    p = Poster()
    one, two = "0123456789abcdef0123456789abcdef", "fedcba9876543210fedcba9876543210"
    t = p.upload([(f"{one}.7z.001", 3), (f"{one}.7z.002", 3), (f"{one}.par2", 1)])
    t = p.upload([(f"{two}.7z.001", 2), (f"{two}.par2", 1)], t=t + 9000, poster="other <o@example.com>")
    t = p.upload([("Film.2024.part1.rar", 3)], t=t + 9000)
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    pend = {r["name"]: r for r in out["pending"]}
    # the namer's read of the same lines: only the kept key, as a release with every segment
    w = Window(GROUP, {GROUP: 5})
    w.keep_only([pend[one]["release_key"]])
    w.feed(b"\r\n".join(p.lines) + b"\r\n", -1)
    batch = w.flush()
    (rel,) = batch["releases"]
    assert batch["pending"] == []
    assert rel["release_key"] == pend[one]["release_key"] and rel["files"] == 3
    assert rel["segments"] == pend[one]["segments"] == 7 and rel["chunk"]
    assert sorted(f["name"] for f in rel["file_list"]) == [f"{one}.7z.001", f"{one}.7z.002", f"{one}.par2"]


def test_the_owner_rule_skips_crossposts_a_lower_number_owns():
    p = Poster()
    t = p.upload([("Cross.part1.rar", 3)], groups=[GROUP, "alt.binaries.owner"])
    t = p.upload([("Mine.part1.rar", 3)], t=t + 9000, groups=[GROUP, "alt.binaries.later"])
    p.pad(3000, t + 3600)
    out, _ = run(p.lines, priorities={GROUP: 5, "alt.binaries.owner": 2, "alt.binaries.later": 9})
    names = {r["name"] for r in out["releases"]}
    assert "Mine" in names and "Cross" not in names
    assert out["counts"][("crosspost", "alt.binaries.owner")][0] == 3


def test_a_lease_end_writes_provisionally_and_the_carried_window_finishes_it():
    p = Poster()
    t = p.upload([("Open.part1.rar", 4), ("Open.part2.rar", 4)])
    w = Window(GROUP, {GROUP: 1})
    w.feed(b"\r\n".join(p.lines) + b"\r\n", p.n - 1)
    w.take_batch()
    prov = [r for b in w.lease_end_batches() for r in b["releases"]]
    (r1,) = [r for r in prov if r["name"] == "Open"]
    assert not r1["finished"] and r1["edge"]
    w2 = Window.restore(w.snapshot())                  # the next holder carries on
    q = Poster(start_article=p.n)
    q.pad(8000, t + 3600)                              # ~66 h of traffic: the frontier passes the window
    w2.feed(b"\r\n".join(q.lines) + b"\r\n", q.n - 1)
    (r2,) = [r for r in w2.take_batch()["releases"] if r["name"] == "Open"]
    assert r2["finished"] and r2["release_key"] == r1["release_key"] and r2["complete"]


# -- determinism ------------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_lines(tmp_path_factory):
    out = tmp_path_factory.mktemp("det") / "c"
    generate(Options(out=out, seed=5, groups=2, lines=40_000, days=2, range_articles=20_000,
                     chunk_articles=4_000, bodies=False))
    c = Corpus(out)
    g = c.group_names()[0]
    lines = [x for ch in c.chunks(g) for x in ch.overview_lines()]
    return g, {x["name"]: x["priority"] for x in c.groups()}, lines


def outcome(batches) -> list[tuple]:
    out = []
    for b in batches:
        for r in b["releases"] + b["pending"]:
            out.append((r["release_key"], r["finished"], r["files"], r["segments"], r["complete"],
                        tuple(f["segs"] for f in r["file_list"])))
        out += [("count",) + tuple(c) for c in b["counts"]]
    return out


def replay(group, priorities, lines, cuts, snapshot_at=()):
    """Feed lines in chunks ending at `cuts`; snapshot and restore after the chunks in snapshot_at."""
    w = Window(group, priorities)
    batches = []
    start = 0
    for i, end in enumerate(list(cuts) + [len(lines)]):
        if end <= start:
            continue
        w.feed(b"\r\n".join(lines[start:end]) + b"\r\n", -1)
        batches.append(w.take_batch())
        if i in snapshot_at:
            w = Window.restore(w.snapshot())
        start = end
    batches.append(w.flush())
    finished = [r for b in batches for r in b["releases"] + b["pending"]]
    counts: dict = {}
    for b in batches:
        for r, k, a, f, n in b["counts"]:
            c = counts.setdefault((r, k), [0, 0, 0])
            c[0] += a
            c[1] += f
            c[2] += n
    return sorted((r["release_key"], r["files"], r["segments"], r["complete"], r.get("chunk", b""),
                   tuple(f["segs"] for f in r.get("file_list", ()))) for r in finished), counts


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_same_releases_whatever_the_chunks_and_snapshots(corpus_lines, data):
    group, priorities, lines = corpus_lines
    base = replay(group, priorities, lines, [])
    cuts = sorted(data.draw(st.lists(st.integers(1, len(lines) - 1), min_size=1, max_size=25, unique=True)))
    snaps = set(data.draw(st.lists(st.integers(0, len(cuts)), max_size=4)))
    assert replay(group, priorities, lines, cuts, snaps) == base


# -- fidelity and bad input ---------------------------------------------------------

def test_fidelity_on_a_generated_corpus(tmp_path):
    out = tmp_path / "fid"
    generate(Options(out=out, seed=13, groups=8, lines=120_000, days=3, range_articles=50_000,
                     chunk_articles=10_000, bodies=False))
    f = fidelity(out, replay_corpus(out))
    assert f["release"] >= 0.995 and f["album"] >= 0.995
    assert f["pending"] >= 0.995 and f["drop"] >= 0.995


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=30))
def test_fuzzed_lines_never_crash_the_window(chunks):
    w = Window(GROUP, {GROUP: 1})
    for data in chunks:
        w.feed(data, -1)
        w.take_batch()
    w.flush()
    w2 = Window.restore(w.snapshot())
    assert w2.lines == w.lines


def test_long_subjects_bad_bytes_and_broken_chunks():
    p = Poster()
    p.post("x" * 1_000_000 + " (1/2)")                    # a 1 MB subject: skipped as too long
    p.post('"Caf\udce9.Name.part1.rar" yEnc (1/1)')        # a Latin-1 byte in the name
    p.lines.append(b"\xff\xfe\x00garbage\tline")
    out, w = run(p.lines)
    assert out["counts"][("malformed", "long")][0] == 1
    assert out["counts"][("malformed", "fields")][0] == 1
    assert any(r["name"] == "Café.Name" for r in out["releases"])   # read as Latin-1, kept
    good = zlib.compress(b"\r\n".join(p.lines[1:2]) + b"\r\n")
    with pytest.raises(zlib.error):
        scan.inflate(good[:len(good) // 2])


def test_what_the_rules_would_drop_is_not_written_provisionally():
    p = Poster()
    t = p.upload([("Some.Film.2024.1080p.WEB-DL.x264-GRP.zip", 8)], shape="quoted", nbytes=256_000,
                 groups=[GROUP, "alt.binaries.elsewhere"], poster="pp <pp@power-post.org>")
    p.upload([("Real.Show.S01E01.part1.rar", 3)], t=t + 10)
    w = Window(GROUP, {GROUP: 1})
    w.feed(b"\r\n".join(p.lines) + b"\r\n", p.n - 1)
    w.take_batch()
    prov = [r["name"] for b in w.lease_end_batches() for r in b["releases"]]
    assert prov == ["Real.Show.S01E01"]                 # the stub is held back, the upload shown


def test_a_release_written_provisionally_then_dropped_is_retracted():
    """The next lease's rule set drops what an earlier lease wrote provisionally."""
    p = Poster()
    t = p.upload([("Spam.Show.S01E01.part1.rar", 3)], poster="spammer <s@x>")
    w = Window(GROUP, {GROUP: 1})
    w.feed(b"\r\n".join(p.lines) + b"\r\n", p.n - 1)
    w.take_batch()
    (prov,) = [r for b in w.lease_end_batches() for r in b["releases"]]
    assert not prov["finished"]
    w = Window.restore(w.snapshot())
    w.rules = dict(w.rules, dropped_posters=["spammer <s@x>"])
    q = Poster(start_article=p.n)
    q.pad(8000, t + 3600)
    w.feed(b"\r\n".join(q.lines) + b"\r\n", q.n - 1)
    batch = w.take_batch()
    assert prov["release_key"] in batch["retracted"]
    assert not [r for r in batch["releases"] if r["release_key"] == prov["release_key"]]
    assert ("dropped-poster", "spammer <s@x>", 3, 1, 1) in batch["counts"]


def test_the_databases_rule_set_one_is_the_windows_default(conn):
    from ext.window import DEFAULT_RULES

    rules = conn.execute("SELECT (voyager.rule_set(1)).rules").fetchone()[0]
    assert rules == DEFAULT_RULES


def test_placed_files_wait_on_the_spool_and_come_back_whole():
    p = Poster()
    t = p.upload([("Spooled.part1.rar", 6), ("Spooled.part2.rar", 6)])
    p.pad(2500, t + 60)
    w = Window(GROUP, {GROUP: 1})
    w.feed(b"\r\n".join(p.lines) + b"\r\n", p.n - 1)
    w.take_batch()
    (rel,) = [r for r in w.releases.values() if r.rel == b"" and b"Spooled" in r.files[0].name]
    assert all(f.spool_off >= 0 and len(f.segs) == 0 for f in rel.files)   # on disk, not in memory
    assert w.spool.live > 0
    w2 = Window.restore(w.snapshot())                    # the snapshot carries the spool's live part
    out1 = [r for r in w.flush()["releases"] if r["name"] == "Spooled"]
    out2 = [r for r in w2.flush()["releases"] if r["name"] == "Spooled"]
    assert out1 and [r["chunk"] for r in out1] == [r["chunk"] for r in out2]
    assert [len(segments_of(f["segs"])) for f in out1[0]["file_list"]] == [6, 6]


def test_garbage_signatures_samples_and_the_lone_target():
    stem = "fedcba9876543210fedcba9876543210"
    p = Poster()
    t = T0
    # random-named single files of a tool the rule set knows as garbage in this group ...
    for i in range(300):
        p.post(f'"{i:02x}{stem[2:]}.bin" yEnc (1/1)', poster=f"g{i} <g@x>", t=t + i,
               msgid=f"{i}.garbage@ngPost")
    # ... and one from another tool: pending, probed through its lone file
    lone = p.post(f'"{stem}.mkv" yEnc (1/1)', poster="other <o@x>", t=t + 400)
    p.pad(4000, t + 3600)
    rules = {"garbage": [{"tool": "ngpost", "group": GROUP}]}
    out, _ = run(p.lines, rules=rules)
    assert out["counts"][("garbage", "ngpost")][2] == 300
    assert 0 < len([s for s in out["samples"] if s["rule"] == "garbage"]) < 20     # about 1%, by key
    for s in out["samples"]:
        assert s["file_list"] and int.from_bytes(s["release_key"][:2], "big") % 100 < 1
    (pend,) = out["pending"]
    assert pend["candidates"] == [("lone", lone.encode(), 0)]


def test_every_written_release_carries_its_chunk(corpus_lines):
    group, priorities, lines = corpus_lines
    w = Window(group, priorities)
    w.feed(b"\r\n".join(lines) + b"\r\n", -1)
    out = w.take_batch()["releases"] + w.flush()["releases"]
    assert out and all(isinstance(r["chunk"], bytes) and r["chunk"] for r in out)


@pytest.mark.parametrize("stem, random", [
    (b"0123456789abcdef0123", True), (b"a3f09c1e5b7d42e8a3f09c1e5b7d42e8", True),
    (b"EwiXtLafgQdpNYgjudOg", True), (b"NvPNuC9fTSzUhWnG6WYLwj3", True), (b"4nfr3a5ed0nhbr5ng5o", True),
    (b"TheMatrixReloaded", False), (b"TheMatrixReloaded2003", False), (b"avengers2019hdrip", False),
    (b"Inception2010", False), (b"Silent.Harbor.S01E02.1080p", False), (b"harbor_lights_2024", False)])
def test_a_stem_that_names_nothing(stem, random):
    """An obfuscating poster's file names (hex, scrambled letters, digits strewn
    through letters) make a pending upload; a name without separators does not."""
    from ext.window import is_random_stem
    assert is_random_stem(stem) is random
