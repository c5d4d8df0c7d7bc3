"""NZBs in the database: a release the window wrote, its chunk through
voyager.nzb_from_chunk (the server's own Python decodes it), read back as XML."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from ext.window import Window, segments_of
from tests.ext.test_window import GROUP, Poster

NS = {"n": "http://www.newzbin.com/DTD/2003/nzb"}


def a_release():
    p = Poster()
    files = [("Café.Show.S01E01.part01.rar", 4), ("Café.Show.S01E01.part02.rar", 3), ("Café.Show.S01E01.par2", 1)]
    t = p.upload(files, shape="name_first", release="Café.Show.S01E01", poster="Up <up@example.com>",
                 groups=[GROUP, "alt.binaries.other"])
    p.pad(3000, t + 3600)
    w = Window(GROUP, {GROUP: 1})
    w.feed(b"\r\n".join(p.lines) + b"\r\n", -1)
    out = w.take_batch()["releases"] + w.flush()["releases"]
    (rel,) = [r for r in out if r["name"] == "Café.Show.S01E01"]
    return rel


def test_the_nzb_of_a_chunk(conn):
    rel = a_release()
    text = conn.execute(
        "SELECT voyager.nzb_from_chunk(%s, %s, %s, %s, %s, %s, %s)",
        (rel["chunk"], rel["name"], rel["poster"], rel["posted_at"], rel["groups"], "5040", "s3cret & more"),
    ).fetchone()[0]
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE nzb PUBLIC "-//newzBin//DTD NZB 1.1//EN"')
    root = ET.fromstring(text.split("\n", 2)[2])
    meta = {m.get("type"): m.text for m in root.findall("n:head/n:meta", NS)}
    assert meta == {"title": "Café.Show.S01E01", "category": "5040", "password": "s3cret & more"}
    files = root.findall("n:file", NS)
    assert [f.get("subject") for f in files] == [
        '"Café.Show.S01E01.part01.rar" yEnc (1/4)', '"Café.Show.S01E01.part02.rar" yEnc (1/3)',
        '"Café.Show.S01E01.par2" yEnc (1/1)']
    # an outside, spec-strict parser reads it to the same files and segments
    import nzb as nzb_pkg

    parsed = nzb_pkg.Nzb.from_str(text)           # (it orders the files its own way)
    assert {f.name: [(s.number, s.message_id, s.size) for s in f.segments] for f in parsed.files} == \
        {r["name"]: [(p, m.decode(), b) for p, m, b in segments_of(r["segs"])] for r in rel["file_list"]}
    assert parsed.meta.passwords == ("s3cret & more",) and parsed.meta.category == "5040"
    assert parsed.meta.title == "Café.Show.S01E01"
    for f, rec in zip(files, rel["file_list"]):
        assert f.get("poster") == "Up <up@example.com>" and f.get("date") == str(rel["posted_at"])
        assert [g.text for g in f.findall("n:groups/n:group", NS)] == rel["groups"]
        got = [(int(s.get("number")), s.text, int(s.get("bytes"))) for s in f.findall("n:segments/n:segment", NS)]
        assert got == [(p, m.decode(), b) for p, m, b in segments_of(rec["segs"])]


def test_a_corrupt_chunk_is_a_clear_error(conn):
    import psycopg
    import pytest

    rel = a_release()
    with pytest.raises(psycopg.Error, match="release chunk"):
        conn.execute("SELECT voyager.nzb_from_chunk(%s, 't', 'p', 0, '{}')", (rel["chunk"][:-3],))
