"""The window's probe targets of the nfo and media kinds: the smallest .nfo of a
release, and a readable release's main file's first article when no archive
target reads it already (the judge's fake rule needs it sniffed)."""
from __future__ import annotations

from tests.ext.test_window import Poster, named, run


def test_a_release_with_an_nfo_has_it_as_a_target():
    p = Poster()
    t = p.upload([("Film.2024.part1.rar", 4), ("Film.2024.part2.rar", 4), ("Film.2024.par2", 1),
                  ("Film.2024.nfo", 1)])
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    (rel,) = named(out, "Film.2024")
    kinds = {c[0]: c for c in rel["candidates"]}
    assert set(kinds) == {"archive", "par2", "nfo"}         # the archive target reads the main file already
    assert rel["file_list"][kinds["nfo"][2]]["name"] == "Film.2024.nfo"


def test_a_readable_video_has_its_first_article_as_the_media_target():
    p = Poster()
    t = p.upload([("Show.S02E03.1080p.mkv", 6), ("Show.S02E03.1080p.nfo", 1)])
    p.pad(3000, t + 3600)
    out, _ = run(p.lines)
    (rel,) = named(out, "Show.S02E03")
    kinds = {c[0]: c for c in rel["candidates"]}
    assert set(kinds) == {"media", "nfo"}
    main = rel["file_list"][kinds["media"][2]]
    assert main["name"] == "Show.S02E03.1080p.mkv"
    from ext.window import segments_of
    first = min(segments_of(main["segs"]))
    assert first[0] == 1 and kinds["media"][1] == first[1]
