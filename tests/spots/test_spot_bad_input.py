"""Bad and hostile spot headers: every one gives a reason, never an
exception, within a bound of memory and time; fuzzing real headers finds
no exception either."""
from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from sim.spots import generate_key, spot_headers
from workers.spots import parse_head, read_spot, verify_spot

REAL = (Path(__file__).resolve().parent.parent / "fixtures" / "spots" / "mkvtoolnix.head").read_bytes()
KEY = generate_key("bad-input")
SPOT = {"title": "A title", "poster": "p", "category": 1, "subcats": ["a9"], "size": 1,
        "created": 1_700_000_000, "description": "d", "nzb": ["n@spot.net"], "image": []}
FACT_KEYS = set(read_spot([]).keys())


def with_xml(xml: str) -> list:
    pairs = [(n, v) for n, v in parse_head(REAL) if n != "X-XML"]
    return pairs + [("X-XML", xml)]


def bounded(call, *args, memory=40 << 20, seconds=2.0):
    tracemalloc.start()
    started = time.perf_counter()
    out = call(*args)
    elapsed = time.perf_counter() - started
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < memory and elapsed < seconds, (peak, elapsed)
    return out


def test_not_spots():
    assert read_spot([])["error"] == "not-a-spot"
    assert read_spot({"From": "someone <a@b.c>", "Subject": "hello"})["error"] == "not-a-spot"
    assert verify_spot({"From": "someone <a@b.c>"})["reason"] == "not-a-spot"
    assert verify_spot([])["verified"] is False
    assert read_spot(None)["error"] == "garbage" and verify_spot(None)["reason"] == "garbage"
    assert read_spot([("From", 12345)])["error"] == "not-a-spot"


def test_huge_xml_refused_within_bounds():
    huge = "<Spotnet><Posting><Title>" + "x" * (20 << 20) + "</Title></Posting></Spotnet>"
    facts = bounded(read_spot, with_xml(huge), memory=80 << 20)
    assert facts["error"] == "xml-too-large" and facts["title"] == "Mkv Tool Nix 8.4.0 NL"
    assert bounded(verify_spot, with_xml(huge), memory=80 << 20)["xml"] is False
    # in many pieces: past the pieces a header may have
    pieces = parse_head(REAL)[:4] + [("X-XML", "<a>" * 10)] * 5000
    assert read_spot(pieces)["error"] == "too-many-lines"
    assert verify_spot(pieces)["reason"] == "too-many-lines"
    # HEAD's raw text of absurd length is cut before anything is read
    raw = REAL + b"X-XML: " + b"y" * (64 << 20) + b"\r\n"
    assert bounded(lambda: read_spot(parse_head(raw)), memory=200 << 20)["error"] is not None


def test_entity_bomb_and_deep_xml():
    bomb = ('<?xml version="1.0"?><!DOCTYPE Spotnet [<!ENTITY a "' + "a" * 100 + '">'
            + "".join(f'<!ENTITY {c} "{("&" + chr(ord(c) - 1) + ";") * 10}">' for c in "bcdefghij")
            + ']><Spotnet><Posting><Title>&j;</Title></Posting></Spotnet>')
    assert bounded(read_spot, with_xml(bomb))["error"] == "xml-entities"
    deep = "<Spotnet><Posting>" + "<x>" * 5000 + "</x>" * 5000 + "</Posting></Spotnet>"
    assert read_spot(with_xml(deep))["error"] == "xml-too-deep"
    many = "<Spotnet><Posting><NZB>" + "<Segment>a@b</Segment>" * 2000 + "</NZB></Posting></Spotnet>"
    facts = read_spot(with_xml(many))
    assert facts["error"] is None and facts["nzb"] == []      # over the cap: no list to fetch
    assert read_spot(with_xml("<Spotnet><Posting>"))["error"] == "xml"
    assert read_spot(with_xml("<Other/>"))["error"] == "xml-not-spot"


def test_client_quirks_mended():
    """A bare & in the title and a control byte, as some clients post."""
    xml = ("<Spotnet><Posting><Key>7</Key><Title>Tom & Jerry\x07 &#233;t&eacute;</Title>"
           "<Description>a &amp; b[br]c</Description><Category>01<Sub>01a09</Sub></Category>"
           "<NZB><Segment>bad id with spaces</Segment></NZB></Posting></Spotnet>")
    facts = read_spot(with_xml(xml))
    assert facts["error"] is None and facts["title"] == "Tom & Jerry été"
    assert facts["description"] == "a & b\nc" and facts["nzb"] == []


def test_broken_signatures_and_keys():
    good = spot_headers(SPOT, KEY, key_id=2, seed=1)
    trusted = {2: KEY.modulus}
    assert verify_spot(good, trusted)["trusted"] is True

    def from_with(signature):
        return [(n, v[:v.rindex(".") + 1] + signature + ">") if n == "From" else (n, v) for n, v in good]

    for signature in ("", "!!!!", "a", "-s-p-s-p", "A" * 5000, "=" * 64, "\udcff" * 10):
        verdict = verify_spot(from_with(signature), trusted)
        assert verdict["verified"] is False and verdict["trusted"] is False, signature
    # broken configured keys are no keys
    for key in ("", "???", "A" * 100_000, ("AQAB", "AQAB")):
        assert verify_spot(good, {2: key})["trusted"] is False
    # a self-signed spot whose carried key is garbage
    own = spot_headers(SPOT, KEY, key_id=7, seed=2)
    broken = [(n, v.replace(v[v.index("<") + 1:v.index(".")], "x" * 80)) if n == "From" else (n, v)
              for n, v in own]
    assert verify_spot(broken)["verified"] is False


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(REAL) - 1), st.integers(0, 255)), min_size=1, max_size=8),
       st.integers(0, len(REAL)))
def test_fuzzed_real_header(edits, cut):
    raw = bytearray(REAL[:cut] if cut > 200 else REAL)
    for at, value in edits:
        if at < len(raw):
            raw[at] = value
    pairs = parse_head(bytes(raw))
    facts = read_spot(pairs)
    assert set(facts) == FACT_KEYS
    verdict = verify_spot(pairs)
    assert verdict["trusted"] is False      # no moderator signed this spot
    assert isinstance(verdict["verified"], bool)
