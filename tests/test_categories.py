"""Newznab categories: voyager.category_of (the name, the inner name, a spot's
category, the groups, a hash) and voyager.recategorize over stored releases."""
from __future__ import annotations

import hashlib

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

MIXED = ["alt.binaries.boneless"]   # a group that says nothing about its posts


def category_of(conn, name, groups=MIXED, inner=None, spot=None) -> int:
    return conn.execute("SELECT voyager.category_of(%s, %s, %s, %s)", (name, groups, inner, spot)).fetchone()[0]


# (release name, expected category): scene and p2p names of every parent and the subcategories.
NAMES = [
    # TV
    ("The.Last.Frontier.S01E02.1080p.WEB-DL.DD5.1.H.264-NTb", 5010),
    ("The.Last.Frontier.S01E02.720p.HDTV.x264-KILLERS", 5040),
    ("The.Last.Frontier.S01E02.HDTV.x264-LOL", 5030),
    ("The.Last.Frontier.S01E02.XviD-AFG", 5030),
    ("The.Last.Frontier.S03E10.2160p.AMZN.WEB-DL.DDP5.1.HDR.HEVC-NTb", 5045),
    ("The.Last.Frontier.S03E10.1080p.BluRay.x265-RARBG", 5090),
    ("The.Last.Frontier.S02.1080p.BluRay.x264-ROVERS", 5040),
    ("The.Last.Frontier.Season.2.Complete.720p.WEBRip", 5010),
    ("the.last.frontier.2x05.hdtv-lol", 5030),
    ("The.Last.Frontier.S01E02.PROPER.REPACK", 5050),
    ("The.Daily.Show.2024.05.01.720p.WEB.h264-EDITH", 5010),
    ("Cold.Case.S05E03.GERMAN.DL.720p.WEB.x264-WvF", 5020),
    ("Cold.Case.S05E03.FRENCH.720p.HDTV.x264-GRP", 5020),
    ("Cold.Case.S01E01.MULTi.1080p.WEB.H264-GRP", 5020),
    ("NFL.2024.09.08.Chiefs.vs.Ravens.720p.WEB.h264-HONE", 5060),
    ("UFC.300.Pereira.vs.Hill.PPV.1080p.WEB.h264-VERUM", 5060),
    ("Formula1.2024.Round01.Bahrain.Grand.Prix.Race.1080p.WEB.h264-GGEZ", 5060),
    ("Formula.1.2024.Bahrain.Race.1080p.WEB.h264", 5060),
    ("[SubsPlease] Spy x Family - 12 (1080p) [ABCDEF12].mkv", 5070),
    ("[HorribleSubs] One Piece - 1000 [720p].mkv", 5070),
    ("Steel.City.S04E28.Anime.1080p.WEB.x264-GRP", 5070),
    ("Planet.Earth.III.S01E01.DOCU.1080p.WEB.h264-GRP", 5080),
    ("Blue.Planet.2001.Documentary.720p.BluRay.x264-GRP", 5080),
    ("Royal.Royal.Water.S09E16.1080p.WEB.x265-FLUX", 5090),            # the simulator's shape
    # Movies
    ("Iron.Sky.2012.1080p.BluRay.x264-SPARKS", 2040),
    ("Iron.Sky.2012.720p.BluRay.x264-SiNNERS", 2040),
    ("Iron.Sky.2012.2160p.UHD.BluRay.x265.10bit.HDR-TERMiNAL", 2045),
    ("Iron.Sky.2012.1080p.BluRay.x265-RARBG", 2090),
    ("Iron.Sky.2012.1080p.BluRay.REMUX.AVC.DTS-HD.MA.5.1-FGT", 2050),
    ("Iron.Sky.2012.COMPLETE.BLURAY-GRP", 2050),
    ("Iron.Sky.2012.PAL.DVDR-GRP", 2070),
    ("Iron.Sky.2012.NTSC.DVD9-GRP", 2070),
    ("Iron.Sky.2012.1080p.WEB-DL.DD5.1.H264-FGT", 2080),
    ("Iron.Sky.2012.1080p.AMZN.WEBRip.DDP5.1.x264-NTb", 2080),
    ("Iron.Sky.2012.DVDRip.XviD-MAXSPEED", 2030),
    ("Iron.Sky.2012.BDRip.x264-GRP", 2030),
    ("Iron.Sky.2012.HDCAM.x264-GRP", 2020),
    ("Iron.Sky.2012.TS.XviD-GRP", 2020),
    ("Iron.Sky.2012.GERMAN.DL.1080p.BluRay.x264-GRP", 2010),
    ("Iron.Sky.2012.FRENCH.720p.BluRay.x264-GRP", 2010),
    ("Iron.Sky.2012.3D.1080p.BluRay.Half-SBS.x264-GRP", 2060),
    ("The.French.Connection.1971.1080p.BluRay.x264-AMIABLE", 2040),    # a language in the title is no tag
    ("The.Italian.Job.2003.1080p.BluRay.x264", 2040),                  # and no group at the end
    ("Formula.51.2001.DVDRip.XviD", 2030),
    ("City.Blue.Planet.1989.720p.REMUX.H.264-NOGRP", 2050),
    ("Case.Hour.Iron.1971.1080p.UHD.BluRay.x265-NTb", 2045),
    # Audio
    ("Aurora Moonlit Skies - Winter Echo (1999) [FLAC]", 3040),
    ("Cold Harbour - Live at Wembley (2019) [24bit-96kHz FLAC]", 3040),
    ("Nina Hart - Summer Storm (2011) [MP3 320]", 3010),
    ("The Velvet Echo - Golden Hour (2020) [MP3 V0]", 3010),
    ("Cold_Harbour-Deep_Water-WEB-2019-ENRAGED", 3010),
    ("Cold_Harbour-Deep_Water-(CDM)-2001-GRP", 3010),
    ("Cold Harbour - Discography (1990-2020)", 3050),
    ("VA - Summer Hits 2024", 3050),
    ("Stephen King - The Stand (Unabridged) [MP3]", 3030),
    ("Terry Pratchett - Mort - Audiobook - 64kbps", 3030),
    ("Los Relojes - Noche (2018) [MP3 320] Spanish", 3060),
    ("DJ Kestrel-Night Train-720p-x264-2019-iUF", 3020),
    # Books
    ("Jane Austen - Pride and Prejudice (1813).epub", 7020),
    ("Isaac.Asimov.Foundation.RETAIL.EPUB.eBook-GRP", 7020),
    ("Mary Beard - SPQR (2015) [pdf, mobi, azw3]", 7020),
    ("Batman 001 (2016) (Digital) (Zone-Empire).cbr", 7030),
    ("Saga v01 (2012) (digital).cbz", 7030),
    ("Wired UK - May 2024.pdf", 7010),
    ("National Geographic Magazine 2024-05 TruePDF", 7010),
    ("The Economist - May 04 2024", 7010),
    ("Packt.Learning.Python.3rd.Edition.2024.pdf", 7040),
    ("Python for Dummies (2023) epub", 7040),
    ("Stephen King - Es (German Edition).epub", 7060),
    # Console
    ("Crimson.Quest.PAL.XBOX360-COMPLEX", 1050),
    ("Crimson.Quest.XBOX360.DLC-XBLA", 1070),
    ("Crimson.Quest.USA.PS3-ANTiDOTE", 1080),
    ("Crimson.Quest.EUR.PS4-DUPLEX", 1180),
    ("Crimson.Quest.PAL.WII-SUSHi", 1030),
    ("Crimson.Quest.PAL.WiiWare-VC", 1060),
    ("Crimson.Quest.USA.WiiU-LoCAL", 1130),
    ("Crimson_Quest_NDS_EUR", 1010),
    ("Crimson.Quest.3DS-BigBlueBox", 1110),
    ("Crimson.Quest.PSP-PLAYASiA", 1020),
    ("Crimson.Quest.PSVita-VENOM", 1120),
    ("Crimson.Quest.XBOXONE-GRP", 1140),
    ("Crimson.Quest.NSW-VENOM", 1090),
    ("Crimson.Quest.NSP", 1090),
    # PC
    ("Crimson.Quest-CODEX", 4050),
    ("Crimson.Quest.v1.2.3-PLAZA", 4050),
    ("Crimson Quest [FitGirl Repack]", 4050),
    ("Adobe.Photoshop.2024.v25.0.x64-SiGMA", 4010),
    ("VMware.Workstation.2024.v18.1.x64-SiGMA", 4010),
    ("Sublime Text Build 4169", 4010),
    ("Tool v2.4.1", 4010),
    ("Ableton.Live.Suite.v12.0.5.MacOS-TNT", 4030),
    ("Crimson Quest v2.1 MacOSX", 4030),
    ("Some.App.Pro.v4.2.iOS", 4060),
    ("Some App Premium v5.1.2 Android.apk", 4070),
    ("Windows.11.23H2.x64.ISO-GRP", 4020),
    ("Autodesk.3ds.Max.2024.x64", 4010),
    ("Udemy - Complete Python Bootcamp", 4020),
    # XXX
    ("Brazzers.24.05.01.Some.Name.XXX.1080p.MP4-KTR", 6040),
    ("Some.Site.24.05.01.Some.Name.XXX.2160p.MP4-KTR", 6045),
    ("Some.Site.24.05.01.Some.Name.XXX.720p.WEB-DL.x264-GRP", 6090),
    ("Some.Name.XXX.IMAGESET-GRP", 6060),
    ("Some.Site.XXX.SITERIP.PACK-GRP", 6050),
    ("Some.Movie.XXX.DVDRip.XviD-GRP", 6030),
    ("Some.Movie.XXX.DVDR-GRP", 6010),
    ("Some.Clip.XXX.WMV-GRP", 6020),
    ("Some.Clip.SDX264XXX-GRP", 6080),
    ("Some.Clip.XXX-GRP", 6070),
    ("Title 2001 1080p WEB-DL x264-GRP XXX", 6090),
    # Other
    ("0123456789abcdef0123456789abcdef", 8020),
    (hashlib.sha1(b"x").hexdigest(), 8020),
    ("[PRiVATE] " + hashlib.sha1(b"y").hexdigest(), 8020),
    ("aB3kLm9QzX7pW2rTy5Uv", 8020),
    ("bc7b5b3c30bdc309b7a4-XX", 8020),
    ("harbor_flush_house", 8010),
    ("IMG_#.jpg", 8010),
    ("Lining Winter Road 2016", 8010),
    ("Stephen King - River Line (1989)", 8010),              # a book or an album: the groups decide
    ("(Cold_Harbour-Deep_Water-WEB-2019-ENRAGED)", 3010),
    ("", 8010),
]


def test_names_of_every_kind_get_their_category(conn):
    got = {name: category_of(conn, name) for name, _ in NAMES}
    wrong = [(name, want, got[name]) for name, want in NAMES if got[name] != want]
    assert not wrong, "\n".join(f"{n!r}: want {w}, got {g}" for n, w, g in wrong)
    parents = {want // 1000 for _, want in NAMES}
    assert parents == set(range(1, 9))
    assert len(NAMES) >= 60


PLAIN = "Lining Winter Road 2016"            # says nothing by its name
HASH = "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize("groups,want", [
    (["alt.binaries.erotica"], 6070),
    (["alt.binaries.pictures.erotica"], 6060),
    (["a.b.erotica"], 6070),
    (["alt.binaries.sounds.mp3.complete_cd"], 3010),
    (["alt.binaries.sounds.flac"], 3040),
    (["alt.binaries.sounds.lossless"], 3040),
    (["alt.binaries.sounds.karaoke"], 3050),
    (["alt.binaries.mp3.audiobooks"], 3030),
    (["alt.binaries.ebook"], 7020),
    (["alt.binaries.e-book.technical"], 7040),
    (["alt.binaries.e-book.magazines"], 7010),
    (["alt.binaries.comics.dcp"], 7030),
    (["alt.binaries.multimedia.anime.highspeed"], 5070),
    (["alt.binaries.teevee"], 5050),
    (["alt.binaries.tv"], 5050),
    (["alt.binaries.hdtv"], 5040),
    (["alt.binaries.multimedia.documentaries"], 5080),
    (["alt.binaries.multimedia.sports"], 5060),
    (["alt.binaries.hdtv.x264"], 2040),
    (["alt.binaries.x264"], 2040),
    (["alt.binaries.moovee"], 2020),
    (["alt.binaries.dvd"], 2070),
    (["alt.binaries.movies.divx"], 2030),
    (["alt.binaries.games.xbox360"], 1050),
    (["alt.binaries.console.ps3"], 1080),
    (["alt.binaries.games.nintendods"], 1010),
    (["alt.binaries.games"], 4050),
    (["alt.binaries.mac"], 4030),
    (["alt.binaries.cd.image"], 4020),
    (["alt.binaries.warez"], 4010),
    (["alt.binaries.audio.warez"], 4010),
    (["alt.binaries.warez.smartphone"], 4040),
    (["alt.binaries.boneless"], 8010),
    (["alt.binaries.boneless", "alt.binaries.multimedia"], 8010),
    (["alt.binaries.boneless", "alt.binaries.ebook"], 7020),
    (["alt.binaries.erotica", "alt.binaries.teevee"], 6070),       # a crosspost to an erotica group is XXX
    ([], 8010),
    (None, 8010),
])
def test_the_groups_decide_when_the_names_say_nothing(conn, groups, want):
    assert category_of(conn, PLAIN, groups) == want
    assert category_of(conn, HASH, groups) == (8020 if want == 8010 else want)


def test_the_name_comes_first_then_the_inner_name_then_a_spot_then_the_groups(conn):
    tv, movie = "Show.S01E01.720p.HDTV.x264-GRP", "Iron.Sky.2012.1080p.BluRay.x265-RARBG.mkv"
    erotica = ["alt.binaries.erotica"]
    assert category_of(conn, tv, erotica, movie, 7020) == 5040                  # the name
    assert category_of(conn, HASH, erotica, movie, 7020) == 2090                # the inner name
    assert category_of(conn, HASH, erotica, HASH + ".mkv", 7020) == 7020        # the spot
    assert category_of(conn, HASH, erotica, HASH + ".mkv") == 6070              # the groups
    assert category_of(conn, HASH, MIXED, PLAIN) == 8020                        # the release's name is the hash
    assert category_of(conn, PLAIN, MIXED, HASH) == 8010
    assert category_of(conn, None, MIXED, tv) == 5040


def test_a_spot_category_is_one_of_the_tree(conn):
    ids = [r[0] for r in conn.execute("SELECT id FROM voyager.categories ORDER BY id")]
    # every id of the table is taken as it is (the function's own list agrees with the table)
    assert [category_of(conn, PLAIN, MIXED, None, i) for i in ids] == ids
    assert category_of(conn, PLAIN, MIXED, None, 2099) == 2000     # a subcategory we lack: its parent
    assert category_of(conn, PLAIN, MIXED, None, 9000) == 8010     # not a category at all
    assert category_of(conn, PLAIN, MIXED, None, 0) == 8010
    assert category_of(conn, PLAIN, MIXED, None, -5040) == 8010


def test_category_of_is_immutable_and_parallel_safe(conn):
    row = conn.execute("""SELECT provolatile, proparallel FROM pg_proc
                           WHERE oid = 'voyager.category_of(text, text[], text, integer)'::regprocedure""").fetchone()
    assert row == ("i", "s")


_texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=80)
_words = st.sampled_from(["S01E02", "1080p", "x265", "XXX", "FLAC", "mp3", "epub", "cbr", "PS3", "WiiU", "x64",
                          "CODEX", "GERMAN", "MULTi", "2019", "WEB-DL", "[Group]", " - 12 ", "DVDR", "iOS",
                          "Discography", "TruePDF", "May 2024", "2024.05.01", "0123456789abcdef0123", "-", ".", " "])
_names = st.one_of(_texts, st.lists(_words, max_size=8).map(".".join), st.lists(_words, max_size=8).map(" ".join))
_groups = st.one_of(st.none(), st.lists(st.one_of(
    st.sampled_from(["alt.binaries.erotica", "alt.binaries.sounds.mp3", "alt.binaries.e-book", "alt.binaries.tv",
                     "alt.binaries.games.wii", "alt.binaries.boneless", "a.b.mac", "alt.binaries.cd.image"]),
    _texts), max_size=4))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.one_of(st.none(), _names), groups=_groups, inner=st.one_of(st.none(), _names),
       spot=st.one_of(st.none(), st.integers(-20000, 20000), st.sampled_from([1000, 2045, 2099, 8020, 9000])))
def test_every_answer_is_a_category(conn, name, groups, inner, spot):
    got = category_of(conn, name, groups, inner, spot)
    assert conn.execute("SELECT count(*) FROM voyager.categories WHERE id = %s", (got,)).fetchone()[0] == 1


# Names at the edges of how category_of reads them: many words (looked up four at a
# time, from the 17th on by a query), runs of separators, other characters (the
# regex), a platform phrase, the hash test's word of 16 or more, the last words.
EDGES = [
    ("A.B.C.D.E.F.G.H.I.J.K.L.M.N.O.P.Q.R.XXX", 6070),                   # the 19th word
    ("One.Two.Three.Four.Five.Six.Seven.Eight.Nine.Ten.Eleven.Twelve.Thirteen.Fourteen.Fifteen.Sixteen."
     "Seventeen.2012.1080p.BluRay.x264-GRP", 2040),
    ("Show - S01E02 - 720p HDTV", 5040),
    ("Show__S01E02__720p..HDTV", 5040),
    ("-Iron.Sky.2012.720p.WEB-DL-", 2080),
    ("Iron.Sky.2012.1080p.BluRay.x264\u2013SPARKS", 2040),               # an en dash
    ("\u00dcn\u00efc\u00f6d\u00e9.Title.2012.1080p.BluRay.x265-GRP", 2090),
    ("Lining+Winter+Road+S02E03", 5050),
    ("Cold.Case.(2019).GERMAN.DL.1080p.BluRay", 2010),
    ("Artist-Title-(WEB)-2019-GRP", 3010),
    ("Crimson Quest Xbox One", 1140),
    ("Crimson Quest Wii U", 1130),
    ("Crimson.Quest.3DS.Max.Edition", 8010),
    ("Formula.1.Season.2024.Round.1.1080p", 5060),
    ("A.Tool.Build.4169", 4010),
    ("Magazine.Title.March.2021.PDF", 7010),
    ("0123456789abcdef0123 a b c d e", 8020),
    ("one two three four 0123456789abcdef", 8020),
    ("abcdefghijklmnopqrst1 x", 8020),
    ("aaaaaaaaaaaaaaaaaaaa", 8020),                                       # hex, too
    ("...---___", 8010),
    ("  ", 8010),
]


def test_names_at_the_edges(conn):
    got = {name: category_of(conn, name) for name, _ in EDGES}
    wrong = [(name, want, got[name]) for name, want in EDGES if got[name] != want]
    assert not wrong, "\n".join(f"{n!r}: want {w}, got {g}" for n, w, g in wrong)


@pytest.mark.parametrize("groups,want", [
    (["alt.binaries.sounds..mp3"], 3010),
    (["", "alt.binaries.x", "a.b.y"], 8010),
    ([f"alt.binaries.{c}" for c in "abcdefghi"] + ["alt.binaries.games.nintendo.ds"], 1010),    # the 21st word
    (["alt-binaries-nintendo-ds"], 1010),
    (["alt_binaries_e-book_technical"], 7040),
    (["ALT.BINARIES.TEEVEE"], 5050),
    (["alt.binaries.alt.binaries.moovee"], 2020),
    (["a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.erotica"], 6070),
])
def test_group_names_at_the_edges(conn, groups, want):
    assert category_of(conn, PLAIN, groups) == want


_tags = st.sampled_from(["S01E02", "1x05", "E12", "Season", "2", "1080p", "720p", "x264", "x265", "WEB", "DL", "BluRay",
                         "HDTV", "XXX", "FLAC", "MP3", "EPUB", "PDF", "cbr", "PS3", "Wii", "U", "Xbox", "One", "x64",
                         "CODEX", "GERMAN", "MULTi", "2019", "2024", "05", "01", "May", "VA", "v1", "2", "Build", "4169",
                         "Formula", "1", "e", "Book", "anime", "docu", "0123456789abcdef01", "Iron", "Sky", "Road"])
_seps = st.sampled_from([".", " ", "_", "-", " - ", "..", "(", ")", "[", "] ", "+", ", ", "\u2013", "~", "&"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(_tags, min_size=1, max_size=20), seps=st.lists(_seps, min_size=20, max_size=20))
def test_any_separators_read_as_one(conn, words, seps):
    """Runs of characters other than letters and digits are one separator, whichever
    they are: a dotted name (three replace()) and the same words between any others
    (the regex) get one category."""
    dotted = ".".join(words)
    mixed = "".join(w + seps[i] for i, w in enumerate(words))
    assert category_of(conn, mixed) == category_of(conn, dotted)


def test_the_word_sets_are_bits_of_their_maps(conn):
    rows = conn.execute("SELECT map, bit_index, label, words FROM voyager.category_sets()").fetchall()
    assert {r[0] for r in rows} == {"name", "console", "group"}
    for m in ("name", "console", "group"):
        bits = [r[1] for r in rows if r[0] == m]
        labels = [r[2] for r in rows if r[0] == m]
        assert sorted(bits) == list(range(len(bits))) and len(bits) <= 64, m
        assert len(set(labels)) == len(labels), m
    for _, _, label, words in rows:
        assert words.split() and all(w.isalnum() and w == w.lower() for w in words.split()), label
    # a set's mask: the OR of its words' masks in the map holds its bit
    assert conn.execute("""SELECT bool_and((voyager.category_map(s.map) ->> w)::bigint & (1::bigint << s.bit_index) <> 0)
                             FROM voyager.category_sets() s, unnest(string_to_array(s.words, ' ')) w""").fetchone()[0]
    assert conn.execute("SELECT voyager.category_bits('web streamer')").fetchone()[0] == \
        conn.execute("SELECT voyager.category_bits('web') | voyager.category_bits('streamer')").fetchone()[0]
    with pytest.raises(psycopg.errors.RaiseException, match="not all of 'web nosuchset' are sets of the name map"):
        conn.execute("SELECT voyager.category_bits('web nosuchset')")
    with pytest.raises(psycopg.errors.RaiseException, match="sets of the group map"):
        conn.execute("SELECT voyager.category_bits('web', 'group')")


# -- recategorize ------------------------------------------------------------------

def _release(conn, i: int, name: str, category, group_set_id: int, group_id: int, poster_id: int) -> int:
    key = hashlib.sha1(f"release {i}".encode()).digest()
    return conn.execute(
        """INSERT INTO voyager.releases (first_article, last_article, segments, bytes, group_id, group_set_id,
                                         poster_id, files, category, source, complete, has_par2, release_key,
                                         identity_key, name)
           VALUES (%s, %s, 10, 1000, %s, %s, %s, 1, %s, 1, true, false, %s, %s, %s) RETURNING id""",
        (i, i, group_id, group_set_id, poster_id, category, key, key, name)).fetchone()[0]


def _catalog(conn) -> dict[int, tuple]:
    """25 releases, some with the right category, some wrong, some none: {id: (category, the right one)}."""
    group_id = conn.execute("INSERT INTO voyager.groups (priority, name) VALUES (1, 'alt.binaries.teevee') "
                            "RETURNING id").fetchone()[0]
    poster_id = conn.execute("INSERT INTO voyager.posters (poster) VALUES ('a@b.c') RETURNING id").fetchone()[0]
    tv = conn.execute("INSERT INTO voyager.group_sets (groups) VALUES ('{alt.binaries.teevee}') "
                      "RETURNING id").fetchone()[0]
    mixed = conn.execute("INSERT INTO voyager.group_sets (groups) VALUES ('{alt.binaries.boneless,alt.binaries.ebook}') "
                         "RETURNING id").fetchone()[0]
    plan = [(f"Show.S01E{e:02d}.720p.HDTV.x264-GRP", 5040, tv, 5040) for e in range(1, 11)]
    plan += [(f"Show.S02E{e:02d}.2160p.WEB.x265-GRP", 5040, tv, 5045) for e in range(1, 6)]
    plan += [(f"Iron.Sky.{y}.1080p.BluRay.x264-GRP", None, tv, 2040) for y in range(2000, 2005)]
    plan += [(PLAIN, 8010, tv, 5050), (PLAIN, 8010, mixed, 7020), (HASH, 5050, tv, 5050), (HASH, None, mixed, 7020),
             ("inner.named", 8010, tv, 2090)]    # by the longest file name inside
    rows = {}
    for i, (name, cat, gs, want) in enumerate(plan):
        rows[_release(conn, i + 1, name, cat, gs, group_id, poster_id)] = (cat, want)
    inner = max(rows)
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES "
                 "(%s, 2, E'x.nfo\\nIron.Sky.2012.1080p.BluRay.x265-RARBG.mkv\\nsample.mkv'), (%s, 1, 'inner.named')",
                 (inner, inner))
    return rows


def _state(conn) -> dict[int, tuple]:
    return {r[0]: (r[1], r[2]) for r in conn.execute("SELECT id, category, xmin::text FROM voyager.releases")}


def test_recategorize_changes_only_the_wrong_rows_and_a_second_run_nothing(conn):
    rows = _catalog(conn)
    wrong = {i for i, (cat, want) in rows.items() if cat != want}
    assert len(wrong) == 14
    before = _state(conn)

    looked, changed = conn.execute("CALL voyager.recategorize(7)").fetchone()
    assert (looked, changed) == (25, 14)
    after = _state(conn)
    assert {i: cat for i, (cat, _) in after.items()} == {i: want for i, (_, want) in rows.items()}
    # the rows that were right are not written again: the same row version
    assert all(after[i][1] == before[i][1] for i in rows if i not in wrong)
    assert all(after[i][1] != before[i][1] for i in wrong)

    assert conn.execute("CALL voyager.recategorize()").fetchone() == (25, 0)
    assert _state(conn) == after


def test_recategorize_in_batches_from_an_id(conn):
    ids = sorted(_catalog(conn))
    conn.execute("UPDATE voyager.releases SET category = NULL")
    first = conn.execute("SELECT * FROM voyager.recategorize_batch(0, 10)").fetchone()
    assert first == (10, 10, ids[9] + 1)
    assert conn.execute("SELECT * FROM voyager.recategorize_batch(%s, 10)", (first[2],)).fetchone() == (10, 10, ids[19] + 1)
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE category IS NULL").fetchone()[0] == 5
    # the procedure from an id on: only the rest
    assert conn.execute("CALL voyager.recategorize(3, %s)", (ids[20],)).fetchone() == (5, 5)
    assert conn.execute("SELECT count(*) FROM voyager.releases WHERE category IS NULL").fetchone()[0] == 0
    assert conn.execute("SELECT * FROM voyager.recategorize_batch(%s, 10)", (ids[-1] + 1,)).fetchone() == (0, 0, ids[-1] + 1)
    with pytest.raises(psycopg.errors.RaiseException, match="batch must be at least 1"):
        conn.execute("CALL voyager.recategorize(0)")


def test_recategorize_reads_a_media_title_before_an_nfo_before_the_files(conn):
    rows = _catalog(conn)
    inner = max(rows)
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 3, 'Some.Show.S01E01.720p.HDTV')",
                 (inner,))
    conn.execute("CALL voyager.recategorize()")
    assert conn.execute("SELECT category FROM voyager.releases WHERE id = %s", (inner,)).fetchone()[0] == 5040
    conn.execute("INSERT INTO voyager.release_texts (release_id, kind, text) VALUES (%s, 5, 'Some Album [FLAC]')", (inner,))
    assert conn.execute("CALL voyager.recategorize()").fetchone() == (25, 1)
    assert conn.execute("SELECT category FROM voyager.releases WHERE id = %s", (inner,)).fetchone()[0] == 3040
