"""CPU time of the Newznab API's documents: ms per 100-item page of
web/feeds.rss() and rss_json(), before (tests/feeds_reference.py, the
implementation the rewrite replaced) and now. `warm`: the same page again and
again (names, posters, categories cached, as for a popular page); `cold`: every
cache the code keeps is emptied before each page (rows never seen before).

    .venv/bin/python -m bench.feeds
"""
from __future__ import annotations

import re
import time
from datetime import datetime, timezone

from bench import oracle
from web import feeds
from web.feeds import Categories, Site
from web.names import name_info




def clear_caches(cats) -> None:
    name_info.cache_clear()
    clear = getattr(feeds, "clear_caches", None)
    if clear is not None:
        clear(cats)


def per_call_ms(fn, cats, *, cold: bool, seconds: float = 1.0) -> float:
    best = float("inf")
    for _ in range(5):
        n, spent, start = 0, 0.0, time.perf_counter()
        while time.perf_counter() - start < seconds / 5:
            if cold:
                clear_caches(cats)
            t = time.process_time_ns()
            fn()
            spent += time.process_time_ns() - t
            n += 1
        best = min(best, spent / n / 1e6)
    return best


# -- the pages measured (and the tests' comparisons' inputs) --

def deployed_categories() -> Categories:
    """The category tree deploy/data_categories.sql inserts."""
    from pathlib import Path

    sql = (Path(__file__).resolve().parents[1] / "deploy" / "data_categories.sql").read_text()
    rows = [(int(i), None if p == "NULL" else int(p), n)
            for i, p, n in re.findall(r"\((\d+), (NULL|\d+), '([^']*)'\)", sql)]
    return Categories(names={i: n for i, _p, n in rows}, parents={i: p for i, p, _n in rows})


def realistic_rows(n: int = 100, seed: int = 1) -> list[dict]:
    """A page of rows shaped like web/search.py's ITEM_COLUMNS, newest first."""
    import hashlib
    import random
    from datetime import timedelta

    rnd = random.Random(seed)
    shows = ["Show.Name", "The.Silent.Harbor", "Doctor.Who.2005", "Late.Night.Talk"]
    tv = ["{s}.S{se:02d}E{ep:02d}.1080p.WEB.x264-GRP", "{s}.S{se:02d}E{ep:02d}.720p.HDTV.x264-LOL",
          "{s}.S{se:02d}.2160p.WEB-DL.DDP5.1.H.265-NTb"]
    other = ["Artist - Album (2004) [FLAC]", "Some.Movie.2019.1080p.BluRay.x264-SPARKS",
             "Author - A Book Title (2012) (retail) (epub)", "[01/34] - \"archive.part01.rar\" yEnc"]
    posters = ["John <j@x.com>", "poster@example.com (Poster)", "Yenc@power-post.org (Yenc-PP-GUI)",
               "anon <anon@anon.invalid>", "Bob & Alice <ba@x.org>"]
    groups = ["alt.binaries.teevee", "alt.binaries.multimedia", "alt.binaries.sounds.flac", "alt.binaries.ebook"]
    cats = [5040, 5030, 5045, 2040, 3040, 7020, 8010, 5000]
    now = datetime(2024, 3, 7, 21, 4, 5, tzinfo=timezone.utc)
    rows = []
    for i in range(n):
        if rnd.random() < 0.6:
            name = rnd.choice(tv).format(s=rnd.choice(shows), se=rnd.randint(1, 12), ep=rnd.randint(1, 24))
        else:
            name = rnd.choice(other)
        posted = now - timedelta(seconds=rnd.randint(0, 86400 * 30), microseconds=rnd.randint(0, 999999))
        rows.append({"id": 1000 + i, "release_key": hashlib.sha1(f"{name}{i}".encode()).digest(), "name": name,
                     "posted_at": posted, "last_posted_at": posted + timedelta(minutes=5),
                     "bytes": rnd.randint(10**6, 10**10), "files": rnd.randint(1, 120),
                     "segments": rnd.randint(10, 50000), "file_total": rnd.randint(1, 120),
                     "category": rnd.choice(cats), "complete": True, "has_par2": rnd.random() < 0.8,
                     "group_name": rnd.choice(groups), "poster": rnd.choice(posters), "grabs": rnd.randint(0, 50),
                     "password": rnd.choice([0, 0, 0, 1, 2]), "verdict": None})
    return rows


def main() -> None:
    ref = oracle("feeds_reference")          # the renderer the rewrite replaced, the tests' oracle
    if ref is None:
        raise SystemExit("bench.feeds compares against tests/feeds_reference.py: run it from a checkout with tests/")
    rows = realistic_rows(100)
    cats = deployed_categories()
    site = Site(base="http://indexer.example:8080", title="Voyager", apikey="\x00KEY\x00")
    kw = dict(site=site, cats=cats, total=12345, offset=0, limits_mark="\x00LIMITS\x00")
    cases = [("rss    extended", None, feeds.rss, ref.rss), ("rss    cat+size", frozenset({"category", "size"}),
             feeds.rss, ref.rss),
             ("json   extended", None, feeds.rss_json, ref.rss_json),
             ("json   cat+size", frozenset({"category", "size"}), feeds.rss_json, ref.rss_json)]
    print("ms per 100-item page (CPU)      before    after   speed-up")
    for label, wanted, new, old in cases:
        assert new(rows, wanted=wanted, **kw) == old(rows, wanted=wanted, **kw)
        for cold in (False, True):
            b = per_call_ms(lambda: old(rows, wanted=wanted, **kw), cats, cold=cold)
            a = per_call_ms(lambda: new(rows, wanted=wanted, **kw), cats, cold=cold)
            print(f"{label} {'cold' if cold else 'warm'}          {b:7.3f}  {a:7.3f}   {b / a:5.2f}x")


if __name__ == "__main__":
    main()
