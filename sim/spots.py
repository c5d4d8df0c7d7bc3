"""Spotnet spots as the simulator posts them: keys of its own, spots signed
as Spotnet's clients sign them, their NZBs encoded as Spotnet encodes them.
The writer's side, kept apart from the readers it is held against
(workers/spots), so a test compares two implementations.

    generate_key(seed, bits=384) -> SpotKey      RSA, primes by Miller-Rabin, seeded
    SpotKey.modulus, SpotKey.sign(message) -> base64
    hashcash_message_id(rng) -> str              a message-id whose SHA-1 begins 0000
    spot_xml(spot) -> str                        the X-XML document of a spot (a dict)
    spot_headers(spot, key, ...) -> [(name, value)]   a spot's HEAD, signed
    dispose_headers(target, key, ...) -> [(name, value)]
    retitled(headers, title)                     a signed spot with its title changed after
    head_text(headers) -> str                    HEAD's text of the pairs
    nzb_bodies(nzb) -> [bytes]                   an NZB as its alt.binaries.ftd article bodies

A spot is a dict: title, poster, tag, category (Spotnet's head category,
from 1), subcats (['a09', 'b04', 'z00']), size, description (text; line
breaks become [br]), website, nzb and image (message-ids), created."""
from __future__ import annotations

import base64
import hashlib
import random
import zlib
from dataclasses import dataclass
from xml.sax.saxutils import escape

EXPONENT = 65537
_SHA1_INFO = bytes.fromhex("3021300906052b0e03021a05000414")
_SMALL_PRIMES = [p for p in range(3, 2000) if all(p % q for q in range(2, int(p ** 0.5) + 1))]
_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
XML_PIECE = 900             # Spotnet cuts its X-XML into pieces of this many characters
ARTICLE_BYTES = (1 << 20) - 1   # and an NZB's deflated bytes into articles of this many


def _b64(n: int, size: int | None = None) -> str:
    raw = n.to_bytes(size or (n.bit_length() + 7) // 8, "big")
    return base64.b64encode(raw).decode()


def special(text: str) -> str:
    """Base64 in Spotnet's header form: `/` as -s, `+` as -p, no padding."""
    return text.replace("/", "-s").replace("+", "-p").rstrip("=")


def _probable_prime(n: int, rng: random.Random, rounds: int = 40) -> bool:
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d, r = d // 2, r + 1
    for _ in range(rounds):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def _prime(bits: int, rng: random.Random) -> int:
    while True:
        n = rng.getrandbits(bits) | (3 << (bits - 2)) | 1     # top two bits: n has all its bits
        if (n - 1) % EXPONENT and _probable_prime(n, rng):
            return n


@dataclass(frozen=True)
class SpotKey:
    n: int
    d: int
    e: int = EXPONENT

    @property
    def modulus(self) -> str:
        return _b64(self.n)

    @property
    def size(self) -> int:
        return (self.n.bit_length() + 7) // 8

    def sign(self, message: bytes) -> str:
        """PKCS#1 v1.5 over SHA-1, base64 (as Spotnet's clients sign)."""
        pad = self.size - 3 - len(_SHA1_INFO) - 20
        block = b"\x00\x01" + b"\xff" * pad + b"\x00" + _SHA1_INFO + hashlib.sha1(message).digest()
        return _b64(pow(int.from_bytes(block, "big"), self.d, self.n), self.size)

    def key_xml(self) -> str:
        return (f"<RSAKeyValue><Modulus>{self.modulus}</Modulus>"
                f"<Exponent>{_b64(self.e)}</Exponent></RSAKeyValue>")


def generate_key(seed, bits: int = 384) -> SpotKey:
    """An RSA key of `bits` bits, the same for the same seed."""
    rng = random.Random(f"spot-key:{seed}")
    while True:
        p, q = _prime(bits // 2, rng), _prime(bits - bits // 2, rng)
        n = p * q
        if p != q and n.bit_length() == bits:
            return SpotKey(n=n, d=pow(EXPONENT, -1, (p - 1) * (q - 1)))


def _word(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_LETTERS) for _ in range(n))


def hashcash_message_id(rng: random.Random, domain: str = "spot.net") -> str:
    """A message-id (without brackets) whose "<id>" hashes to 0000…, as a
    self-signed spot's must: tried until one does (about 65,000 tries)."""
    prefix = _word(rng, 12)
    for i in range(1 << 24):
        mid = f"{prefix}{i:x}@{domain}"
        if hashlib.sha1(f"<{mid}>".encode()).hexdigest().startswith("0000"):
            return mid
    raise RuntimeError("no hashcash found")


def _subcat_code(category: int, code: str) -> str:
    code = code.lower()[-3:] if len(code) > 3 else code.lower()
    return f"{category:02d}{code[0]}{int(code[1:]):02d}"


def spot_xml(spot: dict, key_id: int = 7) -> str:
    """The spot's X-XML document (the elements and order Spotnet posts)."""
    cat = int(spot["category"])
    subs = "".join(f"<Sub>{_subcat_code(cat, c)}</Sub>" for c in spot.get("subcats", ()))
    image = "".join(f"<Segment>{escape(m)}</Segment>" for m in spot.get("image", ()))
    nzb = "".join(f"<Segment>{escape(m)}</Segment>" for m in spot.get("nzb", ()))
    description = escape(spot.get("description", "")).replace("\r\n", "\n").replace("\n", "[br]")
    tag = f"<Tag>{escape(spot['tag'])}</Tag>" if spot.get("tag") else ""
    return (f"<Spotnet><Posting><Key>{key_id}</Key><Created>{int(spot['created'])}</Created>"
            f"<Poster>{escape(spot['poster'])}</Poster>{tag}"
            f"<Title><![CDATA[{spot['title']}]]></Title>"
            f"<Description><![CDATA[{description}]]></Description>"
            f"<Website><![CDATA[{spot.get('website', '')}]]></Website>"
            f"<Image Width='800' Height='600'>{image}</Image>"
            f"<Size>{int(spot['size'])}</Size>"
            f"<Category>{cat:02d}{subs}</Category><NZB>{nzb}</NZB></Posting></Spotnet>")


def _from_fields(spot: dict, key_id: int, rng: random.Random) -> str:
    cat = int(spot["category"])
    subs = "".join(_subcat_code(cat, c)[2:] for c in spot.get("subcats", ()))
    return f"{cat}{key_id}{subs}.{int(spot['size'])}.10.{int(spot['created'])}.{_word(rng, 4)}.{_word(rng, 3)}"


def _wire(text: str) -> bytes:
    """A header's bytes as Spotnet posts them: Latin-1 where it can."""
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:
        return text.encode("utf-8")


def _date(stamp: int) -> str:
    from email.utils import formatdate
    return formatdate(stamp, usegmt=True)


def spot_headers(spot: dict, key: SpotKey, *, key_id: int = 7, user: SpotKey | None = None,
                 message_id: str | None = None, seed=0, group: str = "free.pt") -> list[tuple[str, str]]:
    """A spot's HEAD as (name, value) pairs, signed as Spotnet signs: the
    header (title + From fields + poster) by `key` under `key_id` (7: the
    poster's own key, which the From then carries; else a moderator's key,
    the poster's own `user` key in the From when given), the message-id
    and the X-XML by the poster's key."""
    rng = random.Random(f"spot:{seed}")
    own = key if key_id == 7 else user
    mid = message_id or (hashcash_message_id(rng) if own is not None else f"{_word(rng, 21)}@spot.net")
    fields = _from_fields(spot, key_id, rng)
    title, poster = spot["title"], spot["poster"]
    header_signature = special(key.sign(_wire(f"{title}{fields}{poster}")))
    if own is not None:
        local = f"{special(own.modulus)}.{special(own.sign(f'<{mid}>'.encode()))}"
    else:
        local = _word(rng, 24)
    xml = spot_xml(spot, key_id)
    subject = f"{title} | {spot['tag']}" if spot.get("tag") else title
    pairs = [("From", f"{poster} <{local}@{fields}.{header_signature}>"),
             ("Subject", subject), ("Newsgroups", group), ("Message-ID", f"<{mid}>"),
             ("X-Newsreader", "voyager-sim")]
    pairs += [("X-XML", xml[i:i + XML_PIECE]) for i in range(0, len(xml), XML_PIECE)]
    if own is not None:
        pairs += [("X-XML-Signature", special(own.sign(xml.encode()))),
                  ("X-User-Key", own.key_xml()),
                  ("X-User-Signature", special(own.sign(f"<{mid}>".encode())))]
    pairs += [("Content-Type", "text/plain; charset=ISO-8859-1"), ("Date", _date(int(spot["created"])))]
    return pairs


def dispose_headers(target: str, key: SpotKey, *, personal: bool = False, poster: str = "moderator",
                    created: int = 1_700_000_000, seed=0) -> list[tuple[str, str]]:
    """A `dispose <target>` message: a moderator's (key 2, signed by `key`)
    or, personal, a poster's own (key 2, size 999, hashcash, `key` the
    poster's key, which the From carries)."""
    spot = {"title": f"dispose {target}", "poster": poster, "category": 1, "subcats": ["a01"],
            "size": 999 if personal else 0, "created": created, "description": "", "nzb": [], "image": []}
    rng = random.Random(f"dispose:{seed}")
    fields = _from_fields(spot, 2, rng)
    signature = special(key.sign(_wire(f"{spot['title']}{fields}{poster}")))
    if personal:
        mid = hashcash_message_id(rng)
        local = f"{special(key.modulus)}.{special(key.sign(f'<{mid}>'.encode()))}"
    else:
        mid, local = f"{_word(rng, 21)}@spot.net", _word(rng, 24)
    return [("From", f"{poster} <{local}@{fields}.{signature}>"), ("Subject", spot["title"]),
            ("Newsgroups", "free.pt"), ("Message-ID", f"<{mid}>"), ("Date", _date(created))]


def retitled(headers: list[tuple[str, str]], title: str) -> list[tuple[str, str]]:
    """The same signed header with another title: a forgery its signature refuses."""
    out = []
    for name, value in headers:
        if name.lower() == "subject":
            rest = value.partition("|")[2]
            value = f"{title} | {rest.strip()}" if rest else title
        out.append((name, value))
    return out


def head_text(headers: list[tuple[str, str]]) -> str:
    return "".join(f"{name}: {value}\r\n" for name, value in headers)


def special_zip(data: bytes) -> bytes:
    """Spotnet's escapes for binary in text articles: = NUL CR LF as =D =A =B =C."""
    return data.replace(b"=", b"=D").replace(b"\n", b"=C").replace(b"\r", b"=B").replace(b"\x00", b"=A")


def nzb_bodies(nzb: bytes, *, article_bytes: int = ARTICLE_BYTES) -> list[bytes]:
    """An NZB as the bodies of the articles a spot lists: deflated (raw),
    cut into articles, escaped, in lines of 900 characters."""
    packed = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    data = packed.compress(nzb) + packed.flush()
    bodies = []
    for at in range(0, len(data), article_bytes):
        text = special_zip(data[at:at + article_bytes])
        bodies.append(b"".join(text[i:i + 900] + b"\r\n" for i in range(0, len(text), 900)))
    return bodies
