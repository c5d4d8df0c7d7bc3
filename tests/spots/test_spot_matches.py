"""match_spots over real window releases: a spot's NZB (its files as the
inspector reads them: workers.inspector.nzb_facts) finds its release by
message-id, else by the release identity the window gave it, posted nearest
the spot within 48 hours; a link gives the release the spot's password and,
where its name says nothing, the spot's category."""
from __future__ import annotations

import json
import re

from ext.window import Window
from tests.ext.test_window import GROUP, T0, Poster
from tests.test_merges import store
from workers.inspector import nzb_facts

UP = "up <up@example.com>"
HOUR = 3600


def uploads(conn, names_at: list[tuple[str, int]]) -> list[bytes]:
    """Each (name, time) posted as a two-volume rar set (four articles), read by
    a window of its own (the same upload twice is two releases), stored; the
    overview lines."""
    lines, releases = [], []
    for i, (name, at) in enumerate(names_at):
        p = Poster(start_article=1 + 10_000 * i)
        p.serial = 10_000 * i                   # message-ids of its own
        p.upload([(f"{name}.part{k}.rar", 2) for k in (1, 2)], shape="name_first", release=name, poster=UP, t=at)
        p.pad(3000, at + HOUR)
        w = Window(GROUP, {GROUP: 1})
        w.feed(b"\r\n".join(p.lines) + b"\r\n", -1)
        releases += [r for r in w.take_batch()["releases"] + w.flush()["releases"] if not r["name"].startswith("pad")]
        lines += p.lines
    store(conn, releases)
    return lines


def nzb_of(lines: list[bytes], name: str, first: int = 1, last: int = 1 << 40) -> dict:
    """The NZB a spot of that upload lists (decode_spot_nzb's shape), from the overview lines."""
    files: dict[str, dict] = {}
    for line in lines:
        number, subject, poster, date, mid = line.decode().split("\t")[:5]
        m = re.search(r'"(%s\.part\d\.rar)".*\((\d+)/\d+\)' % re.escape(name), subject)
        if not m or not first <= int(number) <= last:
            continue
        f = files.setdefault(m.group(1), {"subject": subject, "poster": poster, "date": None, "groups": [GROUP],
                                          "segments": []})
        f["segments"].append((int(m.group(2)), 700_000, mid.strip("<>")))
    return {"files": list(files.values()), "error": None, "size": 1}


def spot(conn, mid: str, title: str, posted: int, password=None, newznab=2040) -> None:
    facts = {"password": {"value": password, "source": "spot-title"}} if password else {}
    conn.execute("INSERT INTO voyager.spots (message_id, verified, trusted, title, newznab, posted_at, facts) "
                 "VALUES (%s, true, true, %s, %s, to_timestamp(%s), %s::jsonb)",
                 (mid, title, newznab, posted, json.dumps(facts)))


def inspect(conn, mid: str, nzb: dict, by_message_ids: bool = True) -> dict:
    facts, chunk = nzb_facts(nzb)
    if not by_message_ids:
        facts["message_ids"] = []
    return conn.execute("SELECT voyager.store_spot_nzb(%s, %s::jsonb, %s, to_timestamp(%s))",
                        (mid, json.dumps(facts), chunk, T0 + 5 * HOUR)).fetchone()[0]


def link(conn, mid: str):
    return conn.execute("SELECT release_id, via FROM voyager.spot_matches WHERE spot_id = %s", (mid,)).fetchone()


def test_by_message_id_then_identity_nearest_within_48_hours(conn):
    lines = uploads(conn, [("Night.Shift.2019.1080p.BluRay.x264-GRP", T0),
                           ("Night.Shift.2019.1080p.BluRay.x264-GRP", T0 + 30 * HOUR)])
    first, second = [r for r, in conn.execute("SELECT id FROM voyager.releases ORDER BY posted_at")]
    name = "Night.Shift.2019.1080p.BluRay.x264-GRP"      # two uploads of it, articles 1-4 and 10001-10004

    spot(conn, "a@spot", "Night Shift (2019)", T0 + 29 * HOUR)        # nearer the second, but its ids are the first's
    assert inspect(conn, "a@spot", nzb_of(lines, name, 1, 4))["matched"] == 1
    assert link(conn, "a@spot") == (first, "message-id")

    spot(conn, "b@spot", "Night Shift (2019)", T0 + 26 * HOUR)        # no ids known: the identity, the nearest
    inspect(conn, "b@spot", nzb_of(lines, name, 10_001, 10_004), False)
    assert link(conn, "b@spot") == (second, "identity")

    spot(conn, "c@spot", "Night Shift (2019)", T0 + 79 * HOUR)        # 49 hours after the second: none
    assert inspect(conn, "c@spot", nzb_of(lines, name, 10_001, 10_004), False)["matched"] == 0
    assert link(conn, "c@spot") is None
    assert conn.execute("SELECT next_try_at = to_timestamp(%s) + interval '1 hour' FROM voyager.spot_nzbs "
                        "WHERE spot_id = 'c@spot'", (T0 + 5 * HOUR,)).fetchone()[0]


def test_a_link_gives_the_password_and_a_category_the_name_lacks(conn):
    lines = uploads(conn, [("holiday_stuff_mixed", T0), ("Ocean.Drive.2021.2160p.WEB-DL.x265-GRP", T0 + HOUR)])
    ids = dict(conn.execute("SELECT name, id FROM voyager.releases").fetchall())
    plain, film = ids["holiday_stuff_mixed"], ids["Ocean.Drive.2021.2160p.WEB-DL.x265-GRP"]
    own = dict(conn.execute("SELECT id, category FROM voyager.releases").fetchall())
    spot(conn, "p@spot", "Holiday {{s3cret}}", T0, password="s3cret", newznab=2040)
    spot(conn, "f@spot", "Ocean Drive", T0 + HOUR, newznab=5040)
    inspect(conn, "p@spot", nzb_of(lines, "holiday_stuff_mixed"))
    inspect(conn, "f@spot", nzb_of(lines, "Ocean.Drive.2021.2160p.WEB-DL.x265-GRP"))
    assert conn.execute("SELECT status, password, source FROM voyager.release_passwords WHERE release_id = %s",
                        (plain,)).fetchone() == (1, "s3cret", "spot-title")
    cats = dict(conn.execute("SELECT id, category FROM voyager.releases").fetchall())
    assert cats[plain] == 2040                     # its name said nothing: the spot's
    assert cats[film] == own[film] != 5040         # its name says a film: its own stays
    assert conn.execute("SELECT count(*) FROM voyager.judge_queue WHERE release_id = %s", (plain,)).fetchone()[0]
    conn.execute("SELECT voyager.take_back_spots(ARRAY['p@spot'])")
    assert conn.execute("SELECT count(*) FROM voyager.release_passwords WHERE release_id = %s",
                        (plain,)).fetchone()[0] == 0
    assert conn.execute("SELECT category FROM voyager.releases WHERE id = %s", (plain,)).fetchone()[0] == own[plain]


def test_a_spots_title_finds_its_release_until_the_spot_is_disposed(conn):
    """A release linked to a spot is found by words only the spot's title has
    (its kind-8 text), the search totals exact; a dispose takes that back."""
    from web.search import Query, search_sql

    def found(*words: str) -> int:
        return conn.execute(*search_sql(Query(words=words), 10, 0)).fetchone()[0]

    lines = uploads(conn, [("holiday_stuff_mixed", T0), ("Ocean.Drive.2021.2160p.WEB-DL.x265-GRP", T0 + HOUR)])
    ids = dict(conn.execute("SELECT name, id FROM voyager.releases").fetchall())
    conn.execute("SELECT voyager.fold_search_counts()")
    assert found("lighthouse") == 0
    spot(conn, "l@spot", "The Lighthouse Keepers (2020) 1080p", T0)
    spot(conn, "o@spot", "Ocean Drive Lighthouse Cut", T0 + HOUR)
    inspect(conn, "l@spot", nzb_of(lines, "holiday_stuff_mixed"))
    inspect(conn, "o@spot", nzb_of(lines, "Ocean.Drive.2021.2160p.WEB-DL.x265-GRP"))
    texts = dict(conn.execute("SELECT release_id, text FROM voyager.release_texts WHERE kind = 8").fetchall())
    assert texts == {ids["holiday_stuff_mixed"]: "The Lighthouse Keepers (2020) 1080p",
                     ids["Ocean.Drive.2021.2160p.WEB-DL.x265-GRP"]: "Ocean Drive Lighthouse Cut"}
    assert found("lighthouse") == 2 and found("lighthouse", "keepers") == 1
    conn.execute("SELECT voyager.fold_search_counts()")
    assert conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0] == 0

    conn.execute("SELECT voyager.take_back_spots(ARRAY['l@spot'])")
    assert found("lighthouse") == 1 and found("keepers") == 0
    conn.execute("SELECT voyager.fold_search_counts()")
    assert conn.execute("SELECT count(*) FROM voyager.check_search_counts()").fetchone()[0] == 0


def test_the_inspectors_identity_of_a_file_is_the_windows():
    """A spot's NZB file names the release identity the window gave it, with
    a file counter or without one (an album's tracks, a lone file): else a
    spot of such an upload finds nothing and stands alone beside it."""
    from workers.inspector import file_identity

    for shape in ("counter_first", "name_first", "quoted_only"):
        p = Poster()
        p.upload([("Quiet.Lake.2021.1080p.mkv", 2)], shape=shape, release="Quiet.Lake.2021.1080p", poster=UP)
        p.pad(3000, T0 + HOUR)
        w = Window(GROUP, {GROUP: 1})
        w.feed(b"\r\n".join(p.lines) + b"\r\n", -1)
        rel = next(r for r in w.take_batch()["releases"] + w.flush()["releases"] if r["name"].startswith("Quiet"))
        _number, subject, poster = p.lines[0].decode().split("\t")[:3]
        assert file_identity(subject, poster)[1] == rel["identity_key"], shape
