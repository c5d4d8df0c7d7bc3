"""The merge finders on the real database: releases stored through the batch
store with chunks the codec wrote, facts through the probe store; each finder
proposes the merges a user expects and nothing else."""
from __future__ import annotations

import hashlib
import itertools
import time

import pytest

from ext import codec
from tests.helpers import lease, next_range, plan
from tests.test_probes import claim, facts, result, store as store_probes
from workers.store import Store

NOW = int(time.time()) - 3 * 86400
HOUR = 3600
UP = "up <up@example.com>"
OTHER = "other <other@example.com>"
SLICE = "now() - interval '1 hour', now() + interval '1 hour'"


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


class Uploads:
    """Releases as the window hands them over (names, files, chunk, probe targets),
    stored per group, then probed: the facts go in through store_probes."""

    def __init__(self, conn, groups=("g.a",)):
        self.conn = conn
        self.serial = itertools.count(1)
        plan(conn, [{"name": g, "low": 1, "high": 100_000} for g in groups])
        self.ranges = {}
        for i in range(len(groups)):
            held = lease(conn, "history", f"w{i}")
            self.ranges[held["group_name"]] = (held["token"], next_range(conn, held["token"]))
        self.batches = {g: [] for g in groups}
        self.ids: dict[str, int] = {}
        self.claims: dict[tuple[int, str], dict] = {}

    def add(self, name: str, files: list[tuple[str, int]], *, group="g.a", poster=UP, at=0,
            probe=(), file_total=None, settled=True) -> str:
        """files: (name, bytes); probe: the kinds of probe target, each the first
        article of the file at its index ((kind, index))."""
        n = next(self.serial)
        mids = [f"{n}.{i}@up.test" for i in range(len(files))]
        chunk = codec.encode([(f.encode(), size, [(1, mid.encode(), size)]) for (f, size), mid in zip(files, mids)])
        self.batches[group].append({
            "release_key": hashlib.sha1(f"{n}:{name}".encode()).digest(),
            "identity_key": hashlib.sha1(f"id:{n}:{name}".encode()).digest(),
            "name": name, "source": 1, "poster": poster, "groups": [group],
            "posted_at": NOW + at, "last_posted_at": NOW + at + 60, "first_article": 10 * n,
            "last_article": 10 * n + len(files), "files": len(files), "segments": len(files),
            "bytes": sum(s for _f, s in files), "file_total": file_total, "complete": True,
            "has_par2": any(f.endswith(".par2") for f, _s in files), "finished": settled, "edge": not settled,
            "chunk": chunk, "members": None, "candidates": [(k, mids[i], i) for k, i in probe]})
        return mids[0]

    def store(self) -> dict[str, int]:
        for group, batch in self.batches.items():
            if batch:
                token, rng = self.ranges[group]
                first = rng["next_article"]
                Store(self.conn).store(token, rng["range_id"], first, first + 1, 1,
                                       {"releases": batch, "pending": [], "counts": [], "samples": []})
                rng["next_article"] = first + 1
            self.batches[group] = []
        self.ids = {}
        for rid, name in self.conn.execute("SELECT id, name FROM voyager.releases ORDER BY id"):
            self.ids.setdefault(name, rid)
        return self.ids

    def probe(self, answers: dict[tuple[int, str], dict]) -> None:
        """answers: (release id, kind) -> the facts its article showed."""
        for c in claim(self.conn, "p1"):
            self.claims[c["release_id"], c["kind"]] = c
        out = store_probes(self.conn, [result(self.claims[k], facts=f) for k, f in answers.items()])
        assert out["stale"] == 0, out


def proposals(conn, finder: str, window: str = SLICE) -> set[tuple[int, int, str]]:
    return {(s, m, v) for s, m, v, _set in conn.execute(f"SELECT * FROM voyager.{finder}({window})")}


def par2(set_id: str, files: list[tuple[str, int]]) -> dict:
    """A par2 index's facts: its set and the files it describes (the first 16 KiB's
    MD5 made from the file's name, so a renamed file keeps its original's)."""
    return facts(par2={"set_id": set_id, "creator": "ParPar 0.4", "files": [
        {"file_id": md5("id" + name), "name": name, "size": size, "md5_16k": md5(name), "md5": md5("all" + name)}
        for name, size in files]})


def start(name: str, size: int, yenc_name: str | None = None) -> dict:
    """A file start's facts: its first 16 KiB's MD5 (of the original `name`) and size."""
    return facts(yenc={"name": yenc_name or name, "part": 1, "total": 1, "size": size, "begin": 1, "end": size,
                       "crc_ok": True}, start={"md5_16k": md5(name), "size": size})


# -- the name pass ------------------------------------------------------------------

TRACKS = [("01 - Intro.flac", 30_000_000), ("02 - The Song.flac", 40_000_000), ("03 - Outro.flac", 20_000_000)]
ALBUM_SET = "a1" * 16


def album(conn, **extra):
    u = Uploads(conn)
    u.add("Some Album", [("Some Album.par2", 40_000), ("Some Album.vol00+01.par2", 900_000)], probe=[("par2", 0)])
    u.add("Some Album 01", [("01_-_Intro.FLAC", 30_000_000)])                  # spelled another way
    u.add("Some Album 02-03", [("02 - The Song.flac", 40_000_000), ("03 - Outro.flac", 20_000_000),
                               ("cover.jpg", 90_000), ("album.nfo", 2000)])  # sidecars set aside
    return u


def test_the_name_pass_joins_an_albums_tracks_to_their_index(conn):
    u = album(conn)
    u.add("Some Album 03", [("03 - Outro.flac", 20_000_000)], poster=OTHER)   # another poster's
    u.add("Some Album 02", [("02 - The Song.flac", 40_000_000)], at=13 * HOUR)  # 13 hours later
    u.add("Some Album 01 bonus", [("01 - Intro.flac", 30_000_000), ("04 - Bonus.flac", 1_000)])  # not all named
    u.add("Some Album covers", [("cover.jpg", 90_000)])                       # nothing the set names
    ids = u.store()
    u.probe({(ids["Some Album"], "par2"): par2(ALBUM_SET, TRACKS + [("Some Album.m3u", 200)])})
    holder = ids["Some Album"]
    assert proposals(conn, "find_name_merges") == {(holder, ids["Some Album 01"], "name"),
                                                   (holder, ids["Some Album 02-03"], "name")}


def test_the_name_pass_leaves_a_provisional_release(conn):
    u = album(conn)
    u.add("Some Album 02 again", [("02 - The Song.flac", 40_000_000)], settled=False)
    ids = u.store()
    u.probe({(ids["Some Album"], "par2"): par2(ALBUM_SET, TRACKS)})
    assert {m for _s, m, _v in proposals(conn, "find_name_merges")} == {ids["Some Album 01"], ids["Some Album 02-03"]}


def test_a_repost_of_the_album_hours_later_is_an_upload_of_its_own(conn):
    u = album(conn)
    u.add("Some Album (repost)", [("Some Album.par2", 40_000)], at=6 * HOUR, probe=[("par2", 0)])
    u.add("Some Album 01-03 (repost)", [(n, b) for n, b in TRACKS], at=6 * HOUR + 60)
    ids = u.store()
    u.probe({(ids["Some Album"], "par2"): par2(ALBUM_SET, TRACKS),
             (ids["Some Album (repost)"], "par2"): par2(ALBUM_SET, TRACKS)})
    first, again = ids["Some Album"], ids["Some Album (repost)"]
    assert proposals(conn, "find_name_merges") == {(first, ids["Some Album 01"], "name"),
                                                   (first, ids["Some Album 02-03"], "name"),
                                                   (again, ids["Some Album 01-03 (repost)"], "name")}


# -- the inner merge ----------------------------------------------------------------

STEM = "Xq7Lp2Rt9Wv4Kz8Mn3Bc6Hd1"
ELSE = "Yw3Fj8Ns2Qx6Vb9Lk4Tg7Pr5"                 # as random, as long: another upload


def test_the_inner_merge_joins_lone_releases_sharing_a_random_stem(conn):
    u = Uploads(conn)
    u.add("a9f3c1d8e2b7", [("a9f3c1d8e2b7.bin", 50_000_000)], probe=[("lone", 0)])
    u.add("c4e8a2f6b1d9", [("c4e8a2f6b1d9.bin", 50_000_000)], probe=[("lone", 0)], at=600)
    u.add("f1b5d9c3a7e2", [(f"{STEM}.part03.rar", 50_000_000), (f"{STEM}.part04.rar", 50_000_000),
                           (f"{STEM}.par2", 40_000)], probe=[("archive", 0)], at=1200)
    u.add("e7d2b6f0c4a8", [("e7d2b6f0c4a8.bin", 50_000_000)], probe=[("lone", 0)], at=1800)   # another stem
    u.add("b3a7e1c5d9f4", [("b3a7e1c5d9f4.bin", 50_000_000)], probe=[("lone", 0)], poster=OTHER)
    ids = u.store()
    u.probe({(ids["a9f3c1d8e2b7"], "lone"): start(f"{STEM}.part01.rar", 50_000_000),
             (ids["c4e8a2f6b1d9"], "lone"): start(f"{STEM}.part02.rar", 50_000_000),
             (ids["f1b5d9c3a7e2"], "archive"): start(f"{STEM}.part03.rar", 50_000_000),
             (ids["e7d2b6f0c4a8"], "lone"): start(f"{ELSE}.part01.rar", 50_000_000),
             (ids["b3a7e1c5d9f4"], "lone"): start(f"{STEM}.part05.rar", 50_000_000)})
    most = ids["f1b5d9c3a7e2"]
    assert proposals(conn, "find_inner_merges") == {(most, ids["a9f3c1d8e2b7"], "inner"),
                                                    (most, ids["c4e8a2f6b1d9"], "inner")}


def test_two_random_stems_are_two_uploads(conn):
    u = Uploads(conn)
    u.add("a9f3c1d8e2b7", [("a9f3c1d8e2b7.bin", 50_000_000)], probe=[("lone", 0)])
    u.add("c4e8a2f6b1d9", [("c4e8a2f6b1d9.bin", 50_000_000)], probe=[("lone", 0)], at=600)
    ids = u.store()
    u.probe({(ids["a9f3c1d8e2b7"], "lone"): start(f"{STEM}.part01.rar", 50_000_000),
             (ids["c4e8a2f6b1d9"], "lone"): start(f"{ELSE}.part02.rar", 50_000_000)})
    assert proposals(conn, "find_inner_merges") == set()


def test_the_volumes_of_one_archive_posted_apart_are_one_upload(conn):
    """Each volume under its own random name: the first lists the file, a later one
    names the file it continues; name and size are the same, whatever the names."""
    inside = {"name": "Real.Movie.2021.1080p.mkv", "size": 147_000_000, "encrypted": False}
    u = Uploads(conn)
    for i, key in enumerate(("aa11", "bb22", "cc33", "dd44")):
        u.add(key, [(f"{key}.bin", 50_000_000)], probe=[("lone", 0)], at=60 * i, poster=OTHER if i == 3 else UP)
    ids = u.store()
    u.probe({(ids[k], "lone"): dict(start(f"{k}.bin", 50_000_000),
                                    archive={"format": "rar5", "volume": i + 1, "solid": False,
                                             "encrypted_headers": False, "encrypted_files": False,
                                             "entries": [dict(inside, continued=True) if i else inside]})
             for i, k in enumerate(("aa11", "bb22", "cc33", "dd44"))})
    found = proposals(conn, "find_inner_merges")
    survivor = next(iter(found))[0]
    assert {m for _s, m, _v in found} | {survivor} == {ids["aa11"], ids["bb22"], ids["cc33"]}
    assert {s for s, _m, _v in found} == {survivor}          # another poster's volume stays apart


# -- the sidecar fold ---------------------------------------------------------------

MOVIE = [(f"Some.Movie.2024.1080p.part{i:02}.rar", 50_000_000) for i in range(1, 6)]


def test_a_sidecar_release_folds_into_the_upload_sharing_its_words(conn):
    u = Uploads(conn)
    u.add("Some.Movie.2024.1080p", MOVIE)
    u.add("Other.Film.2023", [("Other.Film.2023.mkv", 900_000_000)], at=200)     # nearer, no shared word
    u.add("Some.Movie.2024.1080p.nfo", [("Some.Movie.2024.1080p.nfo", 3000), ("Some.Movie.2024.1080p.sfv", 400)],
          at=240)
    u.add("Some.Movie.sfv", [("Some.Movie.sfv", 400)], at=300, poster=OTHER)      # another poster's
    ids = u.store()
    assert proposals(conn, "find_sidecar_folds") == {
        (ids["Some.Movie.2024.1080p"], ids["Some.Movie.2024.1080p.nfo"], "sidecar")}


def test_a_sidecar_release_never_folds_into_another_sidecar_release(conn):
    u = Uploads(conn)
    u.add("Some.Movie.2024.nfo", [("Some.Movie.2024.nfo", 3000)])
    u.add("Some.Movie.2024.covers", [("Some.Movie.2024.nfo", 9000), ("Some.Movie.2024.sfv", 400),
                                     ("Some.Movie.2024.nzb", 6000), ("Some.Movie.2024.jpg", 2_000_000)], at=60)
    ids = u.store()
    assert ids and proposals(conn, "find_sidecar_folds") == set()


# -- the par2 merge -----------------------------------------------------------------

SET = "5e" * 16
VOLUMES = [(f"Real.Show.S02E03.part{i:02}.rar", 50_000_000) for i in range(1, 6)]


def an_upload(u: Uploads, at=0, group="g.a", poster=UP, tag="") -> None:
    """An obfuscated upload: its par2 index, one release of three volumes and two
    lone volumes, every name random; the volumes probed at their starts."""
    u.add(f"{tag}9c1e5a7b3d2f.par2", [(f"{tag}9c1e5a7b3d2f.par2", 40_000), (f"{tag}9c1e5a7b3d2f.vol0+1.par2", 900_000)],
          group=group, poster=poster, at=at, probe=[("par2", 0)])
    u.add(f"{tag}4b8d2f6a0c3e", [(f"{tag}4b8d2f6a0c3e.{i}", 50_000_000) for i in range(3)], group=group,
          poster=poster, at=at + 60, probe=[("archive", 0)])
    u.add(f"{tag}7f3a9e1c5b2d", [(f"{tag}7f3a9e1c5b2d.bin", 50_000_000)], group=group, poster=poster, at=at + 120,
          probe=[("lone", 0)])
    u.add(f"{tag}2d6b0f4a8e1c", [(f"{tag}2d6b0f4a8e1c.bin", 50_000_000)], group=group, poster=poster, at=at + 180,
          probe=[("lone", 0)])


def probe_upload(u: Uploads, tag="") -> dict:
    ids = u.ids
    return {(ids[f"{tag}9c1e5a7b3d2f.par2"], "par2"): par2(SET, VOLUMES),
            (ids[f"{tag}4b8d2f6a0c3e"], "archive"): start(*VOLUMES[0]),
            (ids[f"{tag}7f3a9e1c5b2d"], "lone"): start(*VOLUMES[3]),
            (ids[f"{tag}2d6b0f4a8e1c"], "lone"): start(*VOLUMES[4])}


def upload_merged(ids: dict, tag="") -> set[tuple[int, int, str]]:
    most = ids[f"{tag}4b8d2f6a0c3e"]
    return {(most, ids[f"{tag}{n}"], "par2") for n in ("9c1e5a7b3d2f.par2", "7f3a9e1c5b2d", "2d6b0f4a8e1c")}


def test_renamed_files_join_the_upload_their_par2_set_describes(conn):
    u = Uploads(conn, ("g.a", "g.b"))
    an_upload(u)
    u.add("0a4e8c2f6b1d", [("0a4e8c2f6b1d.bin", 50_000_000)], at=240, probe=[("lone", 0)])      # not in the set
    u.add("6c0a4e8b2f5d", [("6c0a4e8b2f5d.bin", 50_000_000)], at=49 * HOUR, probe=[("lone", 0)])  # 49 hours on
    u.add("8e2c6a0d4b9f", [("8e2c6a0d4b9f.bin", 50_000_000)], group="g.b", at=300, probe=[("lone", 0)])
    ids = u.store()
    u.probe(probe_upload(u) | {(ids["0a4e8c2f6b1d"], "lone"): start("Another.Thing.mkv", 50_000_000),
                               (ids["6c0a4e8b2f5d"], "lone"): start(*VOLUMES[1]),
                               (ids["8e2c6a0d4b9f"], "lone"): start(*VOLUMES[2])})
    got = conn.execute(f"SELECT survivor_id, merged_id, via, encode(set_id, 'hex') "
                       f"FROM voyager.find_par2_merges({SLICE})").fetchall()
    # into the release of three volumes, the most files; the set named
    assert {(s, m, v) for s, m, v, _set in got} == upload_merged(ids)
    assert {x for *_r, x in got} == {SET}


def test_a_repost_a_day_later_is_an_upload_of_its_own(conn):
    u = Uploads(conn)
    an_upload(u)
    an_upload(u, at=24 * HOUR, tag="r")                # the same files, the same set, other articles
    ids = u.store()
    u.probe(probe_upload(u) | probe_upload(u, tag="r"))
    assert conn.execute("SELECT count(*) FROM voyager.par2_sets").fetchone()[0] == 1
    assert proposals(conn, "find_par2_merges") == upload_merged(ids) | upload_merged(ids, tag="r")


@pytest.mark.parametrize("sharing", [20, 21])
def test_a_file_more_than_20_uploads_share_merges_nothing(conn, sharing):
    u = Uploads(conn)
    u.add("9c1e5a7b3d2f.par2", [("9c1e5a7b3d2f.par2", 40_000)], probe=[("par2", 0)])
    for i in range(sharing):                           # the same sample in each upload
        u.add(f"sample{i:02}", [(f"{i:02}.bin", 5_000_000)], at=60 * i, probe=[("lone", 0)])
    ids = u.store()
    u.probe({(ids["9c1e5a7b3d2f.par2"], "par2"): par2(SET, VOLUMES + [("sample.mkv", 5_000_000)])}
            | {(ids[f"sample{i:02}"], "lone"): start("sample.mkv", 5_000_000) for i in range(sharing)})
    holder = ids["9c1e5a7b3d2f.par2"]
    assert proposals(conn, "find_par2_merges") == (
        {(holder, ids[f"sample{i:02}"], "par2") for i in range(sharing)} if sharing <= 20 else set())


def test_a_late_probe_finds_its_set_in_a_later_slice(conn):
    u = Uploads(conn)
    an_upload(u)
    ids = u.store()
    answers = probe_upload(u)
    late = (ids["2d6b0f4a8e1c"], "lone")
    u.probe({k: f for k, f in answers.items() if k != late})
    conn.execute("UPDATE voyager.probe_cache SET probed_at = probed_at - interval '1 day'")
    conn.execute("UPDATE voyager.par2_sets SET found_at = found_at - interval '1 day'")
    conn.execute("UPDATE voyager.releases SET first_seen_at = first_seen_at - interval '1 day'")
    assert proposals(conn, "find_par2_merges") == set()   # this slice: nothing probed, found or first seen
    u.probe({late: answers[late]})
    assert proposals(conn, "find_par2_merges") == upload_merged(ids)


def test_an_advert_many_par2_sets_describe_merges_nothing(conn):
    """An advert inside many uploads, renamed at random in one of them: more than
    20 sets describe its start, so no set's upload takes it, not even its own."""
    u = Uploads(conn)
    advert = ("Visit-Deals.jpg", 87_311)
    for i in range(21):
        u.add(f"{i:02}1e5a7b3d2f.par2", [(f"{i:02}1e5a7b3d2f.par2", 40_000)], at=60 * i,
              poster=f"p{i} <p{i}@example.com>", probe=[("par2", 0)])
    u.add("5e0c9a3f7d1b", [("5e0c9a3f7d1b", 87_311)], at=30, poster="p0 <p0@example.com>", probe=[("lone", 0)])
    ids = u.store()
    u.probe({(ids[f"{i:02}1e5a7b3d2f.par2"], "par2"): par2(f"{i:02}" * 16, [(f"Show.{i}.mkv", 9_000_000), advert])
             for i in range(21)} | {(ids["5e0c9a3f7d1b"], "lone"): start(*advert)})
    assert conn.execute("SELECT voyager.common_start(decode(%s, 'hex'), %s)", (md5(advert[0]), advert[1])).fetchone()[0]
    assert proposals(conn, "find_par2_merges") == set()


def test_a_file_two_sets_describe_joins_its_own_posters_upload(conn):
    """The same small file in two uploads' sets (an advert not yet common): it goes
    to the upload of its own poster, not to the bigger or the nearer other one."""
    u = Uploads(conn)
    advert = ("Visit-Deals.jpg", 87_311)
    u.add("Other.Show.S01E01", [("Other.Show.S01E01.par2", 40_000)] + [(f"o.{i}.rar", 9_000_000) for i in range(9)],
          at=0, poster=OTHER, probe=[("par2", 0)])
    u.add("3a7e1c9b5d0f.par2", [("3a7e1c9b5d0f.par2", 40_000)], at=3 * HOUR, probe=[("par2", 0)])
    u.add("8d2b6f0a4c1e", [("8d2b6f0a4c1e", 87_311)], at=60, probe=[("lone", 0)])
    ids = u.store()
    u.probe({(ids["Other.Show.S01E01"], "par2"): par2("0e" * 16, [("Other.Show.S01E01.mkv", 81_000_000), advert]),
             (ids["3a7e1c9b5d0f.par2"], "par2"): par2("0f" * 16, [("Mine.S02E03.mkv", 50_000_000), advert]),
             (ids["8d2b6f0a4c1e"], "lone"): start(*advert)})
    assert proposals(conn, "find_par2_merges") == {(ids["3a7e1c9b5d0f.par2"], ids["8d2b6f0a4c1e"], "par2")}
