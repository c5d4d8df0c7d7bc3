"""The simulator's signed spots against the readers: a key of its own
trusted only when configured, forgeries refused, self-signed spots held to
their hashcash, disposes recognised, and the facts read back as written."""
from __future__ import annotations

import pytest

from sim.spots import dispose_headers, generate_key, head_text, retitled, spot_headers
from workers.spots import MODERATOR_KEYS, parse_head, read_spot, verify_spot

MODERATOR = generate_key("moderator")
POSTER = generate_key("poster")
ROGUE = generate_key("rogue")
TRUSTED = {2: MODERATOR.modulus}

SPOT = {"title": "Some.Show.S01E02.1080p.WEB.h264-GRP", "poster": "Spotter", "tag": "NL subs",
        "category": 1, "subcats": ["a09", "b04", "c01", "d11", "z01"], "size": 2_345_678_901,
        "description": "Aflevering twee.\nWachtwoord: geheim123\n[b]Veel plezier[/b]\n" + "Inhoud. " * 120,
        "website": "https://www.imdb.com/title/tt0000001/", "created": 1_700_000_000,
        "nzb": ["nzbA1@spot.net", "nzbA2@spot.net"], "image": ["img1@spot.net"]}


@pytest.fixture(scope="module")
def moderated():
    return spot_headers(SPOT, MODERATOR, key_id=2, seed=1)


@pytest.fixture(scope="module")
def self_signed():
    return spot_headers(SPOT, POSTER, key_id=7, seed=2)


def test_keys_are_384_bit_and_seeded():
    assert MODERATOR.n.bit_length() == 384 and MODERATOR.e == 65537
    assert generate_key("moderator") == MODERATOR and POSTER != MODERATOR
    assert (MODERATOR.d * MODERATOR.e) % 2 == 1


def test_moderated_spot_trusted_only_with_its_key(moderated):
    assert verify_spot(moderated, TRUSTED) == {"verified": True, "key_id": 2, "trusted": True,
                                               "reason": None, "xml": None}
    # Spotnet's real keys (the default) do not sign the simulator's spots
    default = verify_spot(moderated)
    assert default["verified"] is False and default["trusted"] is False
    assert default["reason"] == "bad-signature"
    # a key id nobody configured
    assert verify_spot(moderated, {3: MODERATOR.modulus})["reason"] == "unknown-key"
    # the real keys and the simulator's side by side: trusted
    assert verify_spot(moderated, {**MODERATOR_KEYS, **TRUSTED})["trusted"] is True


def test_forgeries_refused(moderated):
    # the title changed after signing
    forged = retitled(moderated, "Some.Other.Show.S01E02.1080p.WEB.h264-GRP")
    assert verify_spot(forged, TRUSTED) == {"verified": False, "key_id": 2, "trusted": False,
                                            "reason": "bad-signature", "xml": None}
    # signed by a key that claims to be the moderator's
    rogue = spot_headers(SPOT, ROGUE, key_id=2, seed=3)
    assert verify_spot(rogue, TRUSTED)["verified"] is False
    # the moderator's spot with a poster's own key and signature in its From:
    # both must hold
    with_user = spot_headers(SPOT, MODERATOR, key_id=2, user=POSTER, seed=4)
    assert verify_spot(with_user, TRUSTED)["trusted"] is True
    swapped = [(n, v.replace(v[v.index("<") + 1:v.index(".")], _special(ROGUE.modulus)))
               if n == "From" else (n, v) for n, v in with_user]
    assert verify_spot(swapped, TRUSTED)["reason"] == "bad-user-signature"


def _special(text: str) -> str:
    return text.replace("/", "-s").replace("+", "-p").rstrip("=")


def test_self_signed_spot_and_its_hashcash(self_signed):
    verdict = verify_spot(self_signed, TRUSTED)
    assert verdict == {"verified": True, "key_id": 7, "trusted": False, "reason": None, "xml": True}
    mid = read_spot(self_signed)["message_id"]
    # the same spot under a message-id without the proof of work
    lazy = spot_headers(SPOT, POSTER, key_id=7, message_id="plainid123@spot.net", seed=5)
    assert verify_spot(lazy)["reason"] == "hashcash"
    assert verify_spot(lazy)["verified"] is False
    # another poster's key cannot take the spot over
    stolen = [(n, v.replace(_special(POSTER.modulus), _special(ROGUE.modulus))) for n, v in self_signed]
    assert verify_spot(stolen)["verified"] is False
    assert mid.endswith("@spot.net")


def test_facts_read_back(self_signed):
    facts = read_spot(parse_head(head_text(self_signed).encode("latin-1")))
    assert facts["error"] is None
    assert facts["title"] == SPOT["title"] and facts["tag"] == "NL subs" and facts["poster"] == "Spotter"
    assert facts["category"] == 1
    assert facts["subcats"] == ["01a09", "01b04", "01c01", "01d11", "01z01"]
    assert facts["newznab"] == 5040             # a series in HD
    assert facts["size"] == SPOT["size"] and facts["created"] == SPOT["created"]
    assert facts["date"] == SPOT["created"]
    assert facts["nzb"] == SPOT["nzb"] and facts["image"] == SPOT["image"]
    assert facts["website"] == SPOT["website"]
    assert facts["description"] == "Aflevering twee.\nWachtwoord: geheim123\nVeel plezier\n" + \
        ("Inhoud. " * 120).strip()
    assert facts["password"] == {"value": "geheim123", "source": "spot-text"}
    assert facts["key_id"] == 7 and facts["spotter_id"]
    # the X-XML in pieces: the document is long enough to be cut
    assert sum(1 for n, _ in self_signed if n == "X-XML") >= 2
    # the overview's fields alone (no X-XML) give the same title and category
    overview = [(n, v) for n, v in self_signed if n in ("From", "Subject", "Message-ID", "Date")]
    light = read_spot(overview)
    assert (light["title"], light["category"], light["subcats"], light["size"], light["newznab"]) == \
        (facts["title"], 1, facts["subcats"], SPOT["size"], 5040)
    assert verify_spot(overview)["verified"] is True     # the header's signature needs no X-XML


def test_password_in_title():
    spot = {**SPOT, "title": "Locked.Release.2023.720p {{s3cr3t!}}", "description": "pw: other"}
    facts = read_spot(spot_headers(spot, MODERATOR, key_id=2, seed=6))
    assert facts["password"] == {"value": "s3cr3t!", "source": "spot-title"}
    for text, value in (("password: abc-def", "abc-def"),
                        ("bla[br]pw: x1y2[br]meer", "x1y2"), ("[br]Wachtwoord : 12 34[br]", "12 34"),
                        ("password: none", None), ("geen wachtwoord", None)):
        spot = {**SPOT, "title": "Plain title here", "description": text}
        got = read_spot(spot_headers(spot, MODERATOR, key_id=2, seed=7))["password"]
        assert got == ({"value": value, "source": "spot-text"} if value else None), text


def test_moderator_dispose():
    target = "abcdefghijklmnopqrstu@spot.net"
    headers = dispose_headers(target, MODERATOR, seed=8)
    facts = read_spot(headers)
    assert (facts["command"], facts["target"], facts["personal"]) == ("dispose", target, False)
    assert verify_spot(headers, TRUSTED)["trusted"] is True
    assert verify_spot(headers)["verified"] is False      # not Spotnet's moderator
    for word in ("delete", "REMOVE", "Dispose"):
        renamed = [(n, v.replace("dispose", word, 1)) for n, v in headers]
        assert read_spot(renamed)["command"] == "dispose"
    assert read_spot(retitled(headers, "dispose"))["command"] is None       # no target
    # the same words from a self-signed spot are a spot's title, not a command
    spot = {**SPOT, "title": f"dispose {target}"}
    assert read_spot(spot_headers(spot, POSTER, key_id=7, seed=9))["command"] is None


def test_personal_dispose():
    target = "zyxwvutsrqponmlkjihgf@spot.net"
    headers = dispose_headers(target, POSTER, personal=True, seed=10)
    facts = read_spot(headers)
    assert (facts["command"], facts["target"], facts["personal"]) == ("dispose", target, True)
    own = read_spot(spot_headers(SPOT, POSTER, key_id=7, seed=11))
    assert facts["spotter_id"] == own["spotter_id"]     # the spotter may match it to the spot's poster
    verdict = verify_spot(headers)
    assert verdict["verified"] is True and verdict["trusted"] is False
    # its title (the target) changed: the header signature refuses it
    assert verify_spot(retitled(headers, "dispose someoneelse12345678@spot.net"))["reason"] == \
        "bad-signature"
    # a dispose carrying one poster's key, signed by another's
    rogue = dispose_headers(target, ROGUE, personal=True, seed=12)
    carried = [(n, v.replace(_special(ROGUE.modulus), _special(POSTER.modulus))) for n, v in rogue]
    assert verify_spot(carried)["verified"] is False


def test_titles_beyond_ascii():
    for title in ("Große Show – Staffel 1", "Café Müller", "Ничего 2024 €"):
        headers = spot_headers({**SPOT, "title": title}, MODERATOR, key_id=2, seed=13)
        assert read_spot(headers)["title"] == title
        assert verify_spot(headers, TRUSTED)["trusted"] is True, title
        # as HEAD's bytes (Latin-1 where the title fits it), the same
        raw = head_text(headers)
        try:
            wire = raw.encode("latin-1")
        except UnicodeEncodeError:
            wire = raw.encode("utf-8")
        assert verify_spot(parse_head(wire), TRUSTED)["trusted"] is True, title


def test_xml_pieces_joined_in_order(self_signed):
    pieces = [v for n, v in self_signed if n == "X-XML"]
    others = [(n, v) for n, v in self_signed if n != "X-XML"]
    as_dict = {n: v for n, v in others} | {"X-XML": pieces}
    assert read_spot(as_dict)["description"] == read_spot(self_signed)["description"]
    assert verify_spot(as_dict)["xml"] is True
    shuffled = others + [("X-XML", v) for v in reversed(pieces)]
    assert read_spot(shuffled)["error"] == "xml"
    assert verify_spot(shuffled)["xml"] is False
    # only the first piece, as a reader keeping one header of a name would
    assert read_spot(others + [("X-XML", pieces[0])])["error"] == "xml"
