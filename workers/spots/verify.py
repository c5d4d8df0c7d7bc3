"""A spot's signature checked as Spotweb checks it (see the package's
docstring for the rules)."""
from __future__ import annotations

from . import header as hdr
from .signing import MODERATOR_KEYS, SELF_SIGNED, check, hashcash, key_of


def _bytes_of(text: str) -> list[bytes]:
    """The bytes a header's text may have been signed as: as it came off
    the wire, and as Latin-1 (Spotnet's charset) when a caller decoded it."""
    out = [text.encode("utf-8", "surrogateescape")]
    try:
        latin = text.encode("latin-1")
    except UnicodeEncodeError:
        latin = None
    if latin is not None and latin != out[0]:
        out.append(latin)
    return out


def _signed(message: str, signature: str, key) -> bool:
    return any(check(m, signature, key) for m in _bytes_of(message))


def _keys(trusted_keys) -> dict[int, tuple[int, int]]:
    keys = {}
    for key_id, value in (MODERATOR_KEYS if trusted_keys is None else trusted_keys).items():
        modulus, exponent = (value, "AQAB") if isinstance(value, str) else value
        parsed = key_of(modulus, exponent)
        if parsed is not None:
            keys[int(key_id)] = parsed
    return keys


def verify_spot(headers, trusted_keys=None) -> dict:
    """{verified, key_id, trusted, reason, xml} of one spot's header; never
    raises. `trusted_keys` maps key ids to moduli (base64, exponent AQAB) or
    (modulus, exponent) pairs; by default Spotnet's moderator keys."""
    out = {"verified": False, "key_id": None, "trusted": False, "reason": None, "xml": None}
    try:
        _verify(out, hdr.pairs_of(headers), _keys(trusted_keys))
    except ValueError as e:     # pairs_of's too-many-lines
        out.update(verified=False, trusted=False, reason=str(e.args[0]) if e.args else "garbage")
    except Exception:
        out.update(verified=False, trusted=False, reason=out["reason"] or "garbage")
    return out


def _verify(out: dict, pairs, keys) -> None:
    from_header = hdr.first(pairs, "from") or ""
    head = hdr.parse_from(from_header)
    if head is None:
        out["reason"] = "not-a-spot"
        return
    key_id = out["key_id"] = head["key_id"]
    mid = (hdr.first(pairs, "message-id") or "").strip().strip("<>")
    title, _tag = hdr.split_subject(hdr.first(pairs, "subject") or "", key_id)
    if not title or not head["poster"]:
        out["reason"] = "no-title"
        return
    if not head["signature"]:
        out["reason"] = "unsigned"
        return
    # the header's signature: title, the From fields before the signature, poster
    message = title + head["signed"] + head["poster"]
    user = key_of(head["user_modulus"]) if head["user_modulus"] else None
    personal = key_id == 2 and head["size"] == 999 and user is not None
    if key_id == SELF_SIGNED or personal:
        # a poster's own key: the message-id's hashcash, the header under the From's key
        if not hashcash(mid):
            out["reason"] = "hashcash"
            return
        if user is None:
            out["reason"] = "no-key"
            return
        header_ok = _signed(message, head["signature"], user)
        if personal and not header_ok:
            out["reason"] = "bad-signature"     # the title names the target: it must be signed
            return
        trusted = False
    else:
        if key_id not in keys:
            out["reason"] = "unknown-key"
            return
        header_ok = _signed(message, head["signature"], keys[key_id])
        if not header_ok:
            out["reason"] = "bad-signature"
            return
        trusted = True
    # the poster's own signature of "<message-id>" (or of the X-XML's
    # signature), when the From carries it: it must hold too
    if head["user_signature"] and user is not None:
        xml_signature = hdr.first(pairs, "x-xml-signature") or ""
        if not (check(f"<{mid}>".encode("utf-8", "surrogateescape"), head["user_signature"], user)
                or (xml_signature and _signed(xml_signature.strip(), head["user_signature"], user))):
            out["reason"] = "bad-user-signature"
            return
    elif key_id == SELF_SIGNED and not header_ok:
        out["reason"] = "bad-signature"
        return
    out["verified"], out["trusted"] = True, trusted
    out["reason"] = None if header_ok else "header-unsigned"
    out["xml"] = _xml_signed(pairs, user)


def _xml_signed(pairs, user) -> bool | None:
    """Whether X-XML-Signature signs the joined X-XML under the key that
    signed the header (the From's), else under X-User-Key; None when there
    is nothing to check."""
    xml = hdr.joined(pairs, "x-xml")
    signature = (hdr.first(pairs, "x-xml-signature") or "").strip()
    if not xml or not signature:
        return None
    if len(xml) > hdr.MAX_XML:
        return False
    if user is None:
        posted = hdr.user_key(hdr.first(pairs, "x-user-key"))
        user = key_of(*posted) if posted else None
    return _signed(xml, signature, user) if user is not None else None
