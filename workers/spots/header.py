"""A spot's header as Spotnet writes it: the HEAD's lines, kept exactly
(X-XML repeats, its pieces joined in order), and the fields Spotnet packs
into the From address:

    From: poster <MODULUS.USERSIG@CAT KEY SUBCATS.SIZE.x.STAMP.x.x.SIGNATURE>

MODULUS.USERSIG is the poster's own key and signature (newer spots; older
ones put a random word there), CAT the head category counted from 1, KEY
the key id (7: self-signed), SUBCATS letters and numbers (a09b04d11z00),
SIGNATURE the header's signature in Spotnet's base64."""
from __future__ import annotations

import re

MAX_HEAD = 256 << 10        # a spot's whole header
MAX_XML = 50 << 10          # Spotweb's bound: a spot with more X-XML is spam
MAX_LINES = 2000
_SUBCAT = re.compile(r"([abcdz])(\d{1,3})")
_KEY = re.compile(r"<Modulus>\s*([^<]{1,2000}?)\s*</Modulus>.*?<Exponent>\s*([^<]{1,100}?)\s*</Exponent>",
                  re.DOTALL)


def text_of(value) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    return str(value)


def parse_head(raw: bytes | str) -> list[tuple[str, str]]:
    """HEAD's text as (name, value) pairs in order, values exactly as
    posted after `Name: ` (a continuation line joined with its break), so
    repeated X-XML lines stay apart and signed bytes stay intact."""
    text = text_of(raw[:MAX_HEAD])
    out: list[tuple[str, str]] = []
    for line in text.replace("\r\n", "\n").split("\n")[:MAX_LINES]:
        if line[:1] in (" ", "\t") and out:
            name, value = out[-1]
            out[-1] = (name, value + line)
        elif ":" in line:
            name, _, value = line.partition(":")
            out.append((name.strip(), value[1:] if value.startswith(" ") else value))
    return out


def pairs_of(headers) -> list[tuple[str, str]]:
    """A header given as a dict (a value may be a list: X-XML's pieces) or
    as (name, value) pairs, as lower-cased pairs in order."""
    items = headers.items() if isinstance(headers, dict) else headers
    out = []
    for name, value in items:
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            out.append((text_of(name).strip().lower(), text_of(v)))
            if len(out) > MAX_LINES:
                raise ValueError("too-many-lines")
    return out


def first(pairs, name: str) -> str | None:
    for n, v in pairs:
        if n == name:
            return v
    return None


def joined(pairs, name: str) -> str:
    return "".join(v for n, v in pairs if n == name)


def parse_from(from_header: str) -> dict | None:
    """The fields of a spot's From header, or None when it is not one."""
    cut = from_header.find("<")
    if cut < 1 or not from_header.rstrip().endswith(">"):
        return None
    address = from_header.rstrip()[cut + 1:-1]
    local, at, header = address.partition("@")
    if not at:
        return None
    fields = header.split(".")
    if len(fields) < 6 or len(fields[0]) < 2 or not fields[0][:2].isdigit():
        return None
    signature = fields[-1]
    own = local.split(".")
    subcats = [f"{m.group(1)}{int(m.group(2))}" for m in _SUBCAT.finditer(fields[0][2:].lower())]
    return {
        "poster": from_header[:cut - 1] if from_header[cut - 1:cut] == " " else from_header[:cut],
        "category": int(fields[0][0]),
        "key_id": int(fields[0][1]),
        "subcats": subcats,
        "size": int(fields[1]) if fields[1].isdigit() else None,
        "stamp": int(fields[3]) if fields[3].isdigit() else None,
        "header": header,
        "signed": header[:len(header) - len(signature) - 1],
        "signature": signature,
        "user_modulus": own[0] if len(own[0]) > 50 else None,
        "user_signature": own[1] if len(own) > 1 and own[1] else None,
    }


def split_subject(subject: str, key_id: int) -> tuple[str, str]:
    """(title, tag) of a spot's subject: `title | tag` (key 1's spots put
    the tag last after more bars)."""
    parts = subject.split("|")
    if key_id != 1:
        return parts[0].strip(), (parts[1].strip() if len(parts) > 1 else "")
    if len(parts) <= 1:
        return subject.strip(), ""
    return "|".join(parts[:-2]).strip(), parts[-1].strip()


def user_key(value: str | None) -> tuple[str, str] | None:
    """(modulus, exponent) of an X-User-Key's <RSAKeyValue>, base64."""
    m = _KEY.search(value or "")
    return (m.group(1), m.group(2)) if m else None
