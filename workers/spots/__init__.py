"""The spotter's readers: a Spotnet spot's header and its NZB to facts,
with no database and no NNTP (the spotter job wires them to both).

    read_spot(headers) -> dict
        headers: the spot's HEAD as (name, value) pairs in order (X-XML's
        pieces each a pair; parse_head(raw) makes them from HEAD's bytes) or
        a dict (X-XML's value a list of its pieces). The facts: message_id,
        title, poster, tag, category (Spotnet's head category, from 1),
        subcats (Spotnet's codes: '01a09'), newznab (newznab_category's),
        description (text: [br] and UBB undone, entities decoded), website,
        size, nzb (message-ids of the NZB's articles), image (message-ids,
        or a URL), created (the spot's own stamp), date (the Date header),
        key_id, spotter_id (Spotnet's short id of the poster's key),
        password ({value, source: 'spot-title' | 'spot-text'}), command
        ('dispose' for a key-2 `delete|dispose|remove <message-id>`), target
        (its message-id), personal (a poster's own dispose: the spotter may
        honour it only for the same spotter_id within 5 days), error.
        Read from the From/Subject fields alone when there is no X-XML
        (an overview line), the X-XML's values taking precedence.

    verify_spot(headers, trusted_keys=None) -> {verified, key_id, trusted, reason, xml}
        The signature as Spotweb checks it. The header's signature is over
        title + the From's fields before the signature + poster. Keys 2-4
        (and any key id in trusted_keys): that signature under the key of
        that id, verified and trusted. Key 7, self-signed: SHA-1 of
        "<message-id>" must start with 0000 (hashcash), and the header is
        signed by the key the From carries; verified, never trusted. A
        personal dispose (key 2, size 999, the From carrying the poster's
        key) is checked as key 7 is. When the From carries the poster's
        own signature, it must sign "<message-id>" (or the X-XML-Signature).
        `reason` says why not (unknown-key, bad-signature, hashcash,
        bad-user-signature, no-title, unsigned, not-a-spot), or
        'header-unsigned' for a key-7 spot whose poster signature holds but
        whose header signature does not (Spotweb accepts those: a client
        posts them). `xml` whether X-XML-Signature signs the joined X-XML
        under X-User-Key (None: nothing to check). trusted_keys maps key id
        -> modulus (base64, exponent AQAB) or (modulus, exponent); by
        default MODERATOR_KEYS, Spotnet's keys 2, 3 and 4.

    decode_spot_nzb(bodies, cap=MAX_NZB, max_segments=MAX_SEGMENTS) -> dict
        The NZB a spot posted to alt.binaries.ftd, from its articles' bodies
        (unstuffed, in the spot's order): {files: [{subject, poster, date,
        groups, segments: [(number, bytes, message_id)]}], size, error}.

    newznab_category(cat, subcats) -> int | None
    parse_head(raw) -> [(name, value)]

None of them raises on bad input: a reason in `error` (or `reason`), and
hostile input (a huge X-XML, broken base64, a deflate bomb, an XML entity
bomb) is refused within a bound of memory and time.
"""
from __future__ import annotations

from .categories import newznab_category
from .header import parse_head
from .nzb import MAX_NZB, MAX_SEGMENTS, decode_spot_nzb
from .reader import read_spot
from .signing import MODERATOR_KEYS, SELF_SIGNED
from .verify import verify_spot

__all__ = ["MAX_NZB", "MAX_SEGMENTS", "MODERATOR_KEYS", "SELF_SIGNED", "decode_spot_nzb",
           "newznab_category", "parse_head", "read_spot", "verify_spot"]
