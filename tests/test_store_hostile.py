"""The batch store and hostile input: the window's readable flag is kept on the
release, and lines with NUL, control bytes and over-long fields store (one
NUL used to make store_batch refuse the batch, and the group never moved)."""
from __future__ import annotations

from ext.window import Window
from tests.ext.test_window import GROUP, Poster
from tests.test_store import lines_of, setup_range
from workers.store import Store


def test_the_readable_flag_and_cleaned_lines_are_stored(conn):
    p = Poster()
    hexstem = "0123456789abcdef0123456789abcdef"
    t = p.upload([(f"{hexstem}.part{v}.rar", 2) for v in range(1, 4)] + [("Readable.Sidecar.nfo", 1)],
                 shape="name_first", release=hexstem)
    t = p.upload([("Nul\x00Named.Upload.part1.rar", 2)], t=t + 60, poster="nul\x00 \x01<n@x>")
    p.upload([("Long.From.part1.rar", 2)], t=t + 60, poster="f" * 3_000 + " <f@x>")
    p.post('"Many.Groups.mkv" yEnc (1/1)', t=t + 70, groups=[GROUP] + [f"alt.binaries.spam.{g}" for g in range(400)])
    p.pad(8000, t + 3600)
    token, rng = setup_range(conn, len(p.lines))
    w = Window(GROUP, {GROUP: 1})
    w.feed(lines_of(p), len(p.lines), 1)
    done = Store(conn).store(token, rng["range_id"], 1, len(p.lines) + 1, len(p.lines), w.take_batch())
    assert done["status"] == "done"
    rows = dict(conn.execute("SELECT name, readable FROM voyager.releases WHERE name NOT LIKE 'pad%'").fetchall())
    assert rows == {hexstem: False, "NulNamed.Upload": True, "Long.From": True, "Many.Groups": True}
    posters = {x for (x,) in conn.execute("SELECT poster FROM voyager.posters")}
    assert "nul <n@x>" in posters and "f" * 255 in posters
    counts = dict(((r, k), a) for r, k, a in conn.execute("SELECT rule, key, articles FROM voyager.rule_counts"))
    assert counts[("mended", "control")] == 2 and counts[("mended", "long-poster")] == 2
    assert counts[("mended", "long-xref")] == 1
