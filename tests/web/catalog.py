"""A small catalog for the web's tests, put in the way the workers do it: overview
lines through the window and voyager.store_batch (workers/store.py), real
chunks, then categories set directly (voyager.category_of is still to come)."""
from __future__ import annotations

from ext.window import Window
from tests.ext.test_window import GROUP, T0, Poster
from tests.helpers import lease, next_range, plan, set_setting
from workers.store import Store

TEEVEE = "alt.binaries.teevee"

# (release name, files [(name, parts)], category or None, crossposted to a.b.teevee)
RELEASES = [
    ("Silent.Harbor.S01E02.1080p.WEB.h264-GRP",
     [("Silent.Harbor.S01E02.1080p.WEB.h264-GRP.part01.rar", 3), ("Silent.Harbor.S01E02.1080p.WEB.h264-GRP.part02.rar", 2),
      ("Silent.Harbor.S01E02.1080p.WEB.h264-GRP.par2", 1), ("Silent.Harbor.S01E02.1080p.WEB.h264-GRP.nfo", 1)], 5040, True),
    ("Silent.Harbor.S01E03.720p.HDTV.x264-GRP",
     [("Silent.Harbor.S01E03.720p.HDTV.x264-GRP.part1.rar", 2), ("Silent.Harbor.S01E03.720p.HDTV.x264-GRP.part2.rar", 2)],
     5030, True),
    ("Silent.Harbor.S02E01.1080p.WEB.h264-GRP",
     [("Silent.Harbor.S02E01.1080p.WEB.h264-GRP.mkv", 4)], 5040, False),
    ("Silent.Harbor.3x07.720p.HDTV-GRP", [("Silent.Harbor.3x07.720p.HDTV-GRP.mkv", 2)], 5030, False),
    ("Silent.Harbor.S00E05.Special.1080p.WEB-GRP", [("Silent.Harbor.S00E05.Special.1080p.WEB-GRP.mkv", 2)], 5040, False),
    ("The.Daily.Show.2024.03.07.Guest.720p.WEB.h264-GRP",
     [("The.Daily.Show.2024.03.07.Guest.720p.WEB.h264-GRP.mkv", 3)], 5040, True),
    ("Crimson.River.2019.1080p.BluRay.x264-GRP",
     [("Crimson.River.2019.1080p.BluRay.x264-GRP.part01.rar", 4), ("Crimson.River.2019.1080p.BluRay.x264-GRP.part02.rar", 4),
      ("Crimson.River.2019.1080p.BluRay.x264-GRP.vol00+01.par2", 2)], 2040, False),
    ("Aurora.Moonlit.Skies-Golden.Hour-2021-FLAC",
     [("01-aurora_moonlit_skies-golden_hour.flac", 2), ("02-aurora_moonlit_skies-night_train.flac", 2)], 3040, False),
    ("Jane.Austen-Paper.Moon.1999.EPUB", [("Jane.Austen-Paper.Moon.1999.epub", 1)], 7020, False),
    ("Windows.11.2024.v2.0.x64-GRP", [("Windows.11.2024.v2.0.x64-GRP.iso", 5)], 4010, False),
    ('Evil<script>alert(1)</script>&"Quotes"\'Apos', [("evil<b>.bin", 2)], None, False),
    ("Café.Crème.Ünïcode.S01E01.1080p-GRP", [("Café.Crème.Ünïcode.S01E01.1080p-GRP.mkv", 2)], 5040, False),
    ("Broken.Upload.S05E05.1080p-GRP",
     [("Broken.Upload.S05E05.1080p-GRP.part1.rar", 3), ("Broken.Upload.S05E05.1080p-GRP.part2.rar", 3)], 5040, False),
]
INCOMPLETE = "Broken.Upload.S05E05.1080p-GRP"
POSTERS = {"Crimson.River.2019.1080p.BluRay.x264-GRP": "MovieMan <movies@example.com>"}


def lines() -> list[bytes]:
    p = Poster()
    t = T0
    for name, files, _cat, cross in RELEASES:
        groups = [GROUP, TEEVEE] if cross else None
        if name == INCOMPLETE:
            # the second file misses its middle part: an incomplete release
            for i, (fname, parts) in enumerate(files, 1):
                for k in range(1, parts + 1):
                    if not (i == 2 and k == 2):
                        p.post(f'{name} [{i:02d}/{len(files):02d}] - "{fname}" yEnc ({k}/{parts})', t=t)
                        t += 1
            t += 60
            continue
        t = p.upload(files, shape="name_first", release=name, t=t, groups=groups,
                     poster=POSTERS.get(name, "up <up@example.com>")) + 60
    p.pad(8000, t + 3600)
    return p.lines


def seed(conn) -> dict[str, int]:
    """The releases stored (name -> id), their categories set."""
    all_lines = lines()
    set_setting(conn, "range_articles", 1_000_000)
    plan(conn, [{"name": GROUP, "low": 1, "high": len(all_lines)}])
    held = lease(conn, "history", "web-tests")
    rng = next_range(conn, held["token"])
    w = Window(GROUP, {GROUP: 1})
    w.feed(b"\r\n".join(all_lines) + b"\r\n", len(all_lines))
    Store(conn).store(held["token"], rng["range_id"], 1, len(all_lines) + 1, len(all_lines), w.take_batch())
    # the traffic that moved the frontier is no part of the test catalog
    conn.execute("DELETE FROM voyager.release_chunks c USING voyager.releases r "
                  "WHERE r.id = c.release_id AND r.name LIKE 'pad%%'")
    conn.execute("DELETE FROM voyager.release_texts t USING voyager.releases r "
                 "WHERE r.id = t.release_id AND r.name LIKE 'pad%%'")
    conn.execute("DELETE FROM voyager.releases WHERE name LIKE 'pad%%'")
    ids = dict(conn.execute("SELECT name, id FROM voyager.releases").fetchall())
    assert len(ids) == len(RELEASES), sorted(ids)
    for name, _files, cat, _cross in RELEASES:
        assert name in ids, f"{name} did not become a release: {sorted(ids)}"
        if cat is not None:
            conn.execute("UPDATE voyager.releases SET category = %s WHERE id = %s", (cat, ids[name]))
    return {n: ids[n] for n, *_ in RELEASES}


FAKE = "Silent.Harbor.S01E02.1080p.WEB.h264-GRP"       # an episode's name
FAKE_PROGRAM = "Silent.Harbor.S01E02.1080p.exe"


def judge_fake(conn, release_id: int, program: str = FAKE_PROGRAM) -> dict:
    """The prober's facts of a fake (an archive listing only a program, as
    store_probes leaves them), then the judge over the release
    (voyager.judge_releases): its verdict."""
    from tests.test_judge import archive, probe

    probe(conn, release_id, "archive", facts=archive(program))
    out = conn.execute("SELECT voyager.judge_releases(ARRAY[%s]::bigint[], now())", (release_id,)).fetchone()[0]
    assert out["hidden"] == 1, out
    return out
