"""The posting-date curve of a group: sampled (article, time) points kept
monotone, and a time estimated for any article by linear interpolation."""
from __future__ import annotations

from bisect import bisect_right


def monotone(epochs: list[float]) -> list[float]:
    """A running maximum: articles are numbered in posting order, so the curve
    never goes back; a bogus early Date in a sample cannot pull it down."""
    out: list[float] = []
    top = float("-inf")
    for e in epochs:
        top = max(top, e)
        out.append(top)
    return out


def interpolate(articles: list[int], epochs: list[float], points: list[int]) -> list[float | None]:
    """Estimated posting time (epoch seconds) of each article in `points`.

    `articles` ascending with their sampled `epochs`. Before the first sample
    the first time holds, after the last the last one does.
    """
    if not articles:
        return [None] * len(points)
    curve = monotone(epochs)
    out: list[float | None] = []
    last = len(articles) - 1
    for p in points:
        i = bisect_right(articles, p) - 1
        if i < 0:
            out.append(curve[0])
        elif i >= last:
            out.append(curve[last])
        else:
            a0, a1 = articles[i], articles[i + 1]
            e0, e1 = curve[i], curve[i + 1]
            out.append(e0 + (e1 - e0) * (p - a0) / (a1 - a0))
    return out
