"""Hostile overview lines (ext/scan.pyx's mend_line, ext/window.pyx): a line
outside the chunk asked for, control bytes, over-long fields, impossible
sizes and empty lines never stop a group; each is counted by its reason, and
the uploads around them come out as without them."""
from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ext import scan
from ext.window import MALFORMED, MENDED, QUIET_TICKS, TICK_ARTICLES, Window, parse_subject_py, segments_of
from tests.ext.test_window import GROUP, T0, Poster

TOKEN = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"


def feed_all(w: Window, lines: list[bytes], first: int, last: int, chunk: int = 500, stray=()) -> dict:
    """Lines in chunks of the grid first..last (as a worker asks for them), each
    in the chunk of its number (the lines at the indexes in stray: in the chunk
    of the line before them); the batches' releases, pending and counts summed."""
    out = {"releases": [], "pending": [], "counts": {}}

    def take(batch):
        out["releases"] += batch["releases"]
        out["pending"] += batch["pending"]
        for r, k, a, _f, _n in batch["counts"]:
            out["counts"][(r, k)] = out["counts"].get((r, k), 0) + a

    by_chunk: dict[int, list[bytes]] = {}
    c = 0
    for i, line in enumerate(lines):
        if i not in stray:
            n = int(line.split(b"\t", 1)[0]) if line[:1].isdigit() else first
            c = max(0, min((n - first) // chunk, (last - first) // chunk))
        by_chunk.setdefault(c, []).append(line)
    for c in range((last - first) // chunk + 1):
        a = first + c * chunk
        text = b"".join(x + b"\r\n" for x in by_chunk.get(c, []))
        w.feed(text, min(a + chunk - 1, last), a)
        take(w.take_batch())
    take(w.flush())
    return out


def outcome(out: dict) -> list[tuple]:
    return sorted((r["name"], r["poster"], r["files"], r["segments"], r["bytes"], r["complete"], tuple(r["groups"]),
                   tuple(sorted(s[1] for f in r["file_list"] for s in segments_of(f["segs"]))))
                  for r in out["releases"])


def ordinary() -> Poster:
    p = Poster()
    t = p.upload([(f"Plain.Show.S01E01.part{v:02d}.rar", 4) for v in range(1, 4)] + [("Plain.Show.S01E01.par2", 1)])
    t = p.upload([("Other.Film.2024.mkv", 6)], shape="quoted", t=t + 60, poster="other <o@example.com>")
    p.pad(3000, t + 3600)
    return p


def test_lines_outside_the_chunk_are_counted_and_skipped_and_the_window_goes_on():
    p = ordinary()
    clean = outcome(feed_all(Window(GROUP, {GROUP: 5}), p.lines, 1, p.n + 999))
    hostile = list(p.lines)
    stray = 'h\t"Stray.Upload.part1.rar" yEnc (1/1)\tst <s@x>\tMon, 01 Jan 2026 00:00:00 +0000\t<{}@x>\t\t99\t1\tXref: h g:1'
    # a provider's bug inside chunks: far ahead (10^15, 10^17), a little ahead, behind
    at = (3, 40, 700, 1500)
    for i, number in zip(at, (10 ** 15, 10 ** 17, 2_600, 1)):
        hostile.insert(i, stray.replace("h", str(number), 1).format(number).encode())
    began = time.process_time()
    out = feed_all(Window(GROUP, {GROUP: 5}), hostile, 1, p.n + 999, stray=set(at))
    assert time.process_time() - began < 30
    assert outcome(out) == clean                  # releases still finish after the jumps
    assert out["counts"][("malformed", "outside")] == 4
    assert not [r for r in out["releases"] if r["name"].startswith("Stray")]


def test_a_jump_in_article_numbers_costs_a_bounded_number_of_ticks():
    """Without bounds a line at 10^15 would tick 5 * 10^11 times: the quiet
    ticks past QUIET_TICKS are counted, not run, and change nothing else."""
    p = Poster()
    t = p.upload([("Before.Jump.part1.rar", 3)])
    p.post('"Far.Away.mkv" yEnc (1/1)', t=t + 10)
    p.lines[-1] = p.lines[-1].replace(b"%d\t" % (p.n - 1), b"%d\t" % 10 ** 15, 1)
    w = Window(GROUP, {GROUP: 5})
    began = time.process_time()
    w.feed(b"\r\n".join(p.lines) + b"\r\n")
    assert time.process_time() - began < 5
    first_tick = (1 // TICK_ARTICLES + 1) * TICK_ARTICLES
    assert w.tick == (10 ** 15 - first_tick) // TICK_ARTICLES + 1 and w.tick > QUIET_TICKS
    names = sorted(r["name"] for r in w.flush()["releases"])
    assert names == ["Before.Jump", "Far.Away"]


def test_control_bytes_are_cleaned_at_input_and_counted():
    p = ordinary()
    clean = outcome(feed_all(Window(GROUP, {GROUP: 5}), p.lines, 1, p.n + 999))
    dirty = list(p.lines)
    hits = 0
    for i, line in enumerate(dirty[:24]):
        f = line.split(b"\t")
        if i % 3 == 0:
            f[1] = f[1][:5] + b"\x00" + f[1][5:8] + b"\x01\x1b" + f[1][8:]     # NUL and others in the subject
        elif i % 3 == 1:
            f[2] = b"\x00" + f[2][:3] + b"\x0b" + f[2][3:] + b"\x00"      # and in the poster
        else:
            continue
        dirty[i] = b"\t".join(f)
        hits += 1
    out = feed_all(Window(GROUP, {GROUP: 5}), dirty, 1, p.n + 999)
    assert outcome(out) == clean
    assert out["counts"][("mended", "control")] == hits
    for r in out["releases"]:
        assert not any(ord(c) < 32 for c in r["name"] + r["poster"])


def test_over_long_fields_are_cut_or_refused_by_field():
    p = Poster()
    long_from = "x" * 2_990 + " <l@x>"
    t = p.upload([("Long.From.part1.rar", 2)], poster=long_from)
    t = p.upload([("Many.Groups.part1.rar", 2)], t=t + 10,
                 groups=[GROUP] + [f"alt.binaries.spam.{g:04d}" for g in range(450)])          # a 12 KB Xref
    t = p.upload([("Owned.Elsewhere.part1.rar", 2)], t=t + 10,
                 groups=[GROUP] + [f"alt.binaries.spam.{g:04d}" for g in range(450)] + ["alt.binaries.owner"])
    t = p.upload([("N" * 11_990 + ".mkv", 2)], shape="quoted", t=t + 10)                 # a 12,000-byte subject
    mid = p.post('"Long.Msgid.mkv" yEnc (1/2)', t=t + 10, msgid="m" * 2_990 + "@x")     # refused: no segment
    p.post('"Long.Msgid.mkv" yEnc (2/2)', t=t + 11)
    p.post('"Big.Bytes.mkv" yEnc (1/1)', t=t + 12, nbytes=1 << 40)
    p.lines += [b"\t" * 8, b"", b"   \t \t", b"123456"]
    p.pad(3000, t + 3600)
    out = feed_all(Window(GROUP, {GROUP: 5, "alt.binaries.owner": 1}), p.lines, 1, p.n + 999)
    by = {r["name"][:20]: r for r in out["releases"]}
    c = out["counts"]
    assert by["Long.From"]["poster"] == "x" * 255 and c[("mended", "long-poster")] == 2
    groups = by["Many.Groups"]["groups"]
    assert GROUP in groups and 1 < len(groups) < 450 and sum(len(g) + 1 for g in groups) <= scan.MAX_XREF
    assert c[("mended", "long-xref")] == 2
    assert "Owned.Elsewhere" not in by and c[("crosspost", "alt.binaries.owner")] == 2
    (long_name,) = [r for r in out["releases"] if r["name"].startswith("NNN")]
    assert len(long_name["file_list"][0]["raw_name"]) == 255 and c[("mended", "long-subject")] == 2
    assert c[("malformed", "long-msgid")] == 1 and not by["Long.Msgid"]["complete"]
    assert mid not in {s[1].decode() for f in by["Long.Msgid"]["file_list"] for s in segments_of(f["segs"])}
    assert by["Big.Bytes"]["bytes"] == 0 and c[("mended", "big-bytes")] == 1
    assert c[("malformed", "empty")] == 3 and c[("malformed", "fields")] == 1


def test_the_scanner_names_each_reason():
    base = b"7\ts (1/1)\tp\t01 Jan 2026 00:00:00 GMT\t<m@x>\t\t10\t1\tXref: h a.b:7"
    assert scan.parse(b"\t" * 8) == "empty" and scan.parse(b"  \t ") == "empty"
    assert scan.parse(b"123") == "fields"
    assert scan.parse(base.replace(b"<m@x>", b"<" + b"m" * 249 + b">")) == "long-msgid"
    assert scan.parse(base.replace(b"<m@x>", b"<m\x00@x>")) == "msgid"
    assert scan.parse(base.replace(b"<m@x>", b"<m x@x>")) == "msgid"
    got = scan.parse(base.replace(b"\ts (1/1)\tp\t", b"\ts\x00 (1/1)\tp\x01q\x02\t"))
    assert got[1] == b"s (1/1)" and got[2] == b"pq"
    assert scan.parse(base.replace(b"\t10\t", b"\t%d\t" % (1 << 32)))[5] == 0
    assert scan.parse(base.replace(b"\t10\t", b"\t%d\t" % ((1 << 32) - 1)))[5] == (1 << 32) - 1
    assert scan.parse(base.replace(b"\tp\t", b"\t" + "é".encode() * 200 + b"\t"))[2] == "é".encode() * 127
    _, bad = scan.scan_chunk(b"\r\n" + base + b"\r\n\r\n" + b"\t\t\t\r\n")
    assert bad == {"empty": 3}
    assert set(MALFORMED) >= {"outside", "empty", "long-msgid"} and "control" in MENDED


def test_a_private_token_upload_is_one_pending_upload():
    got = parse_subject_py(f'[PRiVATE]-[WtFnZb]-[{TOKEN}]-[3/27] - "" yEnc 52428800 (1/100)'.encode())
    assert got["name"] == TOKEN.encode() and got["release"] == b"[PRiVATE]-[WtFnZb]" and got["file"] == 3
    assert got["files"] == 27
    p = Poster()
    t = T0
    for i in range(1, 6):
        token = f"{i:02d}" + TOKEN[2:]
        for k in range(1, 4):
            p.post(f'[PRiVATE]-[WtFnZb]-[{token}]-[{i}/5] - "" yEnc {3 * 716_800} ({k}/3)', t=t)
            t += 1
    for i in range(1, 4):                      # base62 tokens as well
        token = f"{i}aZ9" + "Qx7Lm2Kp" * 3
        for k in (1, 2):
            p.post(f'[PRiVATE]-[Xy12Ab]-[{token}]-[{i}/3] - "" yEnc ({k}/2)', poster="b62 <b@x>", t=t)
    p.pad(3000, t + 3600)
    out = feed_all(Window(GROUP, {GROUP: 5}), p.lines, 1, p.n + 999)
    pend = sorted(out["pending"], key=lambda r: r["files"])
    assert [r["files"] for r in pend] == [3, 5] and not any(r["readable"] for r in pend)
    assert not [r for r in out["releases"] if not r["name"].startswith("pad")]


def test_a_private_token_upload_of_one_part_files_is_one_pending_upload():
    """One-article files under base62 tokens, the release in the [PRiVATE] tag:
    one pending upload, not a scrambled article each."""
    p = Poster()
    t = T0
    for i in range(1, 7):
        token = f"{i}bQ4" + "Zr8TxW3nKv5" * 2
        p.post(f'[PRiVATE]-[Qm4Rt7]-[{token}]-[{i}/6] - "" yEnc (1/1)', poster="p62 <p@x>", t=t + i,
               nbytes=300_000)
    p.pad(3000, t + 3600)
    out = feed_all(Window(GROUP, {GROUP: 5}), p.lines, 1, p.n + 999)
    assert [r["files"] for r in out["pending"]] == [6] and not out["pending"][0]["readable"]
    assert not [r for r in out["releases"] if not r["name"].startswith("pad")]
    assert not [k for k in out.get("counts", {}) if k[0] == "scrambled"]


def test_the_readable_flag_says_whether_the_name_is_one():
    p = Poster()
    hexstem = "0123456789abcdef0123456789abcdef"
    t = p.upload([(f"{hexstem}.part{v}.rar", 2) for v in range(1, 4)] + [("Readable.Sidecar.nfo", 1)],
                 shape="name_first", release=hexstem)
    p.upload([("Named.Upload.part1.rar", 2)], t=t + 60)
    p.pad(3000, t + 3600)
    out = feed_all(Window(GROUP, {GROUP: 5}), p.lines, 1, p.n + 999)
    by = {r["name"]: r for r in out["releases"]}
    assert not by[hexstem]["readable"] and by["Named.Upload"]["readable"]


line_parts = st.tuples(
    st.one_of(st.integers(0, 10 ** 18), st.just(-1)),
    st.binary(max_size=300), st.binary(max_size=80), st.sampled_from([b"Mon, 01 Jan 2026 00:00:00 +0000", b"x"]),
    st.binary(max_size=300), st.one_of(st.integers(0, 1 << 62), st.just(-1)), st.binary(max_size=200))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(line_parts, max_size=40), st.integers(0, 10 ** 15))
def test_arbitrary_fields_never_raise_or_hang(parts, first):
    lines = []
    for number, subject, poster, date, msgid, nbytes, xref in parts:
        line = b"\t".join([b"" if number < 0 else str(number).encode(), subject + b" (1/2)", poster, date,
                           b"<" + msgid + b">", b"", b"x" if nbytes < 0 else str(nbytes).encode(), b"1",
                           b"Xref: h " + xref])
        lines.append(line.replace(b"\n", b" "))
    w = Window(GROUP, {GROUP: 5, b"g": 1})
    began = time.process_time()
    for chunk in (lines[:20], lines[20:]):
        w.feed(b"\r\n".join(chunk) + b"\r\n", first + 100_000, first)
        batch = w.take_batch()
        for r in batch["releases"]:
            assert "\x00" not in r["name"] + r["poster"]
    w.flush()
    w.feed(b"\r\n".join(lines) + b"\r\n")          # no bounds at all
    w.flush()
    assert time.process_time() - began < 20
    assert Window.restore(w.snapshot()).lines == w.lines
