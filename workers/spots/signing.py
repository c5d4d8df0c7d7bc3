"""Spotnet's signatures, checked as Spotweb checks them: RSA PKCS#1 v1.5
over SHA-1 with 384-bit keys (exponent AQAB), done here as plain modular
exponentiation because crypto libraries refuse keys this small, and the
hashcash a self-signed spot's message-id carries."""
from __future__ import annotations

import base64
import binascii
import hashlib
import re
import zlib

# Spotnet's moderator keys (key id -> modulus, base64); the exponent is AQAB
MODERATOR_KEYS = {
    2: "ys8WSlqonQMWT8ubG0tAA2Q07P36E+CJmb875wSR1XH7IFhEi0CCwlUzNqBFhC+P",
    3: "uiyChPV23eguLAJNttC/o0nAsxXgdjtvUvidV2JL+hjNzc4Tc/PPo2JdYvsqUsat",
    4: "1k6RNDVD6yBYWR6kHmwzmSud7JkNV4SMigBrs+jFgOK5Ldzwl17mKXJhl+su/GR9",
}
EXPONENT = "AQAB"
SELF_SIGNED = 7             # the key id of a spot signed by its poster's own key
MAX_KEY_BITS = 4096         # a key beyond this is no Spotnet key, and costs real time
# SHA-1's DigestInfo, the bytes PKCS#1 v1.5 puts before the hash
_SHA1_INFO = bytes.fromhex("3021300906052b0e03021a05000414")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


def unspecial(text: str) -> str:
    """Spotnet's base64 as plain base64: `-s` is `/`, `-p` is `+`, and the
    padding Spotnet leaves off put back."""
    text = text.strip().replace("-s", "/").replace("-p", "+")
    return text + "=" * (-len(text) % 4)


def b64_int(text: str) -> int | None:
    """The big-endian number a (Spotnet) base64 string holds, or None."""
    plain = unspecial(text or "")
    if len(plain) > MAX_KEY_BITS // 3 or not _BASE64.fullmatch(plain):
        return None
    try:
        raw = base64.b64decode(plain, validate=True)
    except (binascii.Error, ValueError):
        return None
    return int.from_bytes(raw, "big") if raw else None


def key_of(modulus: str, exponent: str = EXPONENT) -> tuple[int, int] | None:
    n, e = b64_int(modulus), b64_int(exponent)
    if n is None or e is None or n < 3 or n.bit_length() > MAX_KEY_BITS or e < 3:
        return None
    return n, e


def check(message: bytes, signature: str, key: tuple[int, int] | None) -> bool:
    """Whether `signature` (Spotnet base64) signs `message` under `key`
    (n, e): PKCS#1 v1.5 with SHA-1, the whole block compared."""
    if key is None:
        return False
    n, e = key
    s = b64_int(signature)
    if s is None or s >= n:
        return False
    size = (n.bit_length() + 7) // 8
    pad = size - 3 - len(_SHA1_INFO) - 20
    if pad < 8:
        return False
    block = pow(s, e, n).to_bytes(size, "big")
    return block == b"\x00\x01" + b"\xff" * pad + b"\x00" + _SHA1_INFO + hashlib.sha1(message).digest()


def hashcash(message_id: str) -> bool:
    """A self-signed spot's proof of work: the SHA-1 of its message-id, in
    angle brackets, begins with four hex zeros."""
    mid = message_id.strip().strip("<>")
    return hashlib.sha1(f"<{mid}>".encode("utf-8", "surrogateescape")).hexdigest().startswith("0000")


def spotter_id(modulus: str) -> str | None:
    """Spotnet's short name for a poster's key: the CRC32 of the modulus's
    bytes, little-endian, in base64 without its `/+=`."""
    try:
        raw = base64.b64decode(unspecial(modulus), validate=True)
    except (binascii.Error, ValueError):
        return None
    crc = zlib.crc32(raw).to_bytes(4, "little")
    return base64.b64encode(crc).decode().translate({ord(c): None for c in "/+="})
