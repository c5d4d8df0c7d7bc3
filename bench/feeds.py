"""CPU time of the Newznab API's documents: ms per 100-item page of
web/feeds.rss() and rss_json(), before (bench/feeds_reference.py, the
implementation the rewrite replaced) and now. `warm`: the same page again and
again (names, posters, categories cached, as for a popular page); `cold`: every
cache the code keeps is emptied before each page (rows never seen before).

    .venv/bin/python -m bench.feeds
"""
from __future__ import annotations

import time

from bench import feeds_reference as ref
from web import feeds
from web.feeds import Site
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


def main() -> None:
    rows = ref.realistic_rows(100)
    cats = ref.deployed_categories()
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
