"""Spotnet's categories to Newznab's: each head category and type to the
closest number in voyager's category tree."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from workers.spots import newznab_category

TREE = {int(n) for n in re.findall(r"\((\d{4}),", (Path(__file__).resolve().parents[2] /
                                                  "deploy" / "data_categories.sql").read_text())}


@pytest.mark.parametrize("cat, subcats, number", [
    (1, ["01a09", "01z00"], 2040),          # a film, x264 HD
    (1, ["a6", "z0"], 2050),                # Blu-ray
    (1, ["a0", "d7"], 2030),                # DivX, drama: a film by default
    (1, ["a3"], 2070),                      # DVD5
    (1, ["a9", "b4"], 5040),                # a TV source makes a series
    (1, ["a0", "d11"], 5030),               # the television genre too
    (1, ["a9", "z1", "d18"], 5060),         # series, sport
    (1, ["a9", "z1", "d29"], 5070),         # anime
    (1, ["a5", "z2"], 7020),                # an ePub book
    (1, ["a5", "z2", "d31"], 7030),         # a comic
    (1, ["a5", "d44"], 7010),               # a magazine
    (1, ["a9", "d23"], 6040),               # erotica in HD, by its genre
    (1, ["a0", "z3"], 6030),
    (2, ["a0", "z0"], 3010),                # MP3
    (2, ["a8"], 3040),                      # FLAC
    (2, ["a0", "z3"], 3030),                # an audiobook
    (2, [], 3000),
    (3, ["a0"], 4050),                      # a Windows game
    (3, ["a11"], 1030), (3, ["a7"], 1050), (3, ["a12"], 1080), (3, ["a16"], 1110),
    (3, ["a3"], 1090),                      # PlayStation (one): Console/Other
    (4, ["a0", "b1"], 4020), (4, ["a1"], 4030), (4, ["a6"], 4060), (4, ["a7"], 4070),
    (4, ["a2"], 4000),
])
def test_mapping(cat, subcats, number):
    assert newznab_category(cat, subcats) == number


def test_every_number_is_in_the_tree():
    numbers = set()
    for cat in range(1, 5):
        for a, b, d, z in itertools.product([None, *range(20)], [None, 4], [None, 6, 11, 18, 23, 29, 31, 43],
                                            [None, *range(5)]):
            codes = [f"{k}{v}" for k, v in zip("abdz", (a, b, d, z)) if v is not None]
            numbers.add(newznab_category(cat, codes))
    assert numbers <= TREE and len(numbers) > 30


def test_not_a_category():
    assert newznab_category(0, ["a1"]) is None and newznab_category(9, []) is None
    assert newznab_category("x", []) is None and newznab_category(None, None) is None
    assert newznab_category("1", ["garbage", "01q99", "a9"]) == 2040    # what reads, counts
