"""A spot's header to its facts (see the package's docstring)."""
from __future__ import annotations

import email.utils
import html
import re

from workers.probe import nfo

from . import header as hdr
from . import markup
from . import categories
from .signing import spotter_id
from .xmlsafe import XmlRefused, tree

MAX_SEGMENTS = 1000         # the NZB's and image's message-ids a spot may list
TITLE_MAX = 512
COMMANDS = ("delete", "dispose", "remove")
PERSONAL_DISPOSE_SIZE = 999     # a poster's own dispose says size 999
_MID = re.compile(r"^[^<>\s]{1,250}@[^<>\s]{1,250}$")
# elements some clients post with a bare & or < in them, wrapped as CDATA
_FRAGILE = ("Title", "Description", "Image", "Tag", "Website")
_CONTROL = re.compile(r"[\x00-\x1f]")


def _empty() -> dict:
    return {"error": None, "message_id": None, "title": None, "poster": None, "tag": None,
            "category": None, "subcats": [], "newznab": None, "description": None,
            "website": None, "size": None, "nzb": [], "image": None, "created": None,
            "date": None, "key_id": None, "spotter_id": None, "password": None,
            "command": None, "target": None, "personal": False}


def read_spot(headers) -> dict:
    """The facts of one spot's header; never raises on bad input."""
    facts = _empty()
    try:
        _read(facts, hdr.pairs_of(headers))
    except ValueError as e:
        facts["error"] = facts["error"] or (e.args[0] if e.args and isinstance(e.args[0], str)
                                            and len(e.args[0]) < 40 else "garbage")
    except Exception:       # memory, recursion, a reader's bug: none may stop the spotter
        facts["error"] = facts["error"] or "garbage"
    return facts


def _read(facts: dict, pairs) -> None:
    mid = (hdr.first(pairs, "message-id") or "").strip().strip("<>")
    facts["message_id"] = mid or None
    facts["date"] = _date(hdr.first(pairs, "date"))
    subject = hdr.first(pairs, "subject") or ""
    from_header = hdr.first(pairs, "from") or ""
    head = hdr.parse_from(from_header)
    if head is not None:
        facts["key_id"] = head["key_id"]
        facts["category"] = head["category"]
        facts["subcats"] = [categories.code(head["category"], c) for c in head["subcats"]]
        facts["size"] = head["size"]
        facts["created"] = head["stamp"]
        facts["poster"] = head["poster"]
        facts["title"], facts["tag"] = (s[:TITLE_MAX] for s in hdr.split_subject(subject, head["key_id"]))
        if head["user_modulus"]:
            facts["spotter_id"] = spotter_id(head["user_modulus"])
    key = hdr.user_key(hdr.first(pairs, "x-user-key"))
    if key and facts["spotter_id"] is None:
        facts["spotter_id"] = spotter_id(key[0])
    xml = hdr.joined(pairs, "x-xml")
    if xml:
        _read_xml(facts, xml)
    elif head is None:
        facts["error"] = "not-a-spot"
    if head is not None:
        _command(facts, head, hdr.split_subject(subject, head["key_id"])[0])
    if facts["category"] is not None:
        facts["newznab"] = categories.newznab_category(facts["category"], facts["subcats"])
    facts["password"] = _password(facts["title"], facts["description"])


def _date(value: str | None) -> int | None:
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_tz(value.strip())
    except Exception:
        return None
    return email.utils.mktime_tz(parsed) if parsed else None


def _fix(xml: str) -> str:
    """The X-XML as Spotweb mends it before parsing: control bytes dropped,
    the free-text elements made CDATA when a client forgot to."""
    xml = _CONTROL.sub("", xml)
    for name in _FRAGILE:
        opening, closing = f"<{name}>", f"</{name}>"
        at = xml.find(opening)
        if at < 0 or xml.find(closing) < 0 or xml.startswith("<![CDATA[", at + len(opening)):
            continue
        xml = xml.replace(opening, opening + "<![CDATA[").replace(closing, "]]>" + closing)
    return xml


def _segments(element) -> list[str]:
    if element is None:
        return []
    mids = [s.text.strip() for s in element.findall("Segment")][:MAX_SEGMENTS + 1]
    if len(mids) > MAX_SEGMENTS or not all(_MID.match(m) for m in mids):
        return []       # one bad message-id and the list is not to be fetched (as Spotweb)
    return mids


def _read_xml(facts: dict, xml: str) -> None:
    if len(xml) > hdr.MAX_XML:
        facts["error"] = "xml-too-large"
        return
    try:
        root = tree(_fix(xml), max_elements=4 * MAX_SEGMENTS + 200)
    except XmlRefused as e:
        facts["error"] = e.reason
        return
    posting = root.find("Posting") if root.tag == "Spotnet" else None
    if posting is None:
        facts["error"] = "xml-not-spot"
        return
    key = posting.findtext("Key").strip()
    if key.isdigit():
        facts["key_id"] = facts["key_id"] if facts["key_id"] is not None else int(key)
    title = markup.text(posting.findtext("Title"))
    if title:
        facts["title"] = title[:TITLE_MAX]
    for name, field in (("Poster", "poster"), ("Tag", "tag")):
        value = html.unescape(posting.findtext(name)).strip()
        if value:
            facts[field] = value[:TITLE_MAX]
    facts["description"] = markup.text(posting.findtext("Description")) or None
    facts["website"] = posting.findtext("Website").strip()[:2000] or None
    size = posting.findtext("Size").strip()
    if size.isdigit():
        facts["size"] = int(size)
    created = posting.findtext("Created").strip()
    if created.isdigit():
        facts["created"] = int(created)
    category = posting.find("Category")
    if category is not None and category.text.strip().isdigit():
        cat = int(category.text.strip())
        if key == "1":
            cat += 1        # key 1's spots count head categories from 0
        subs = category.findall("Sub") or category.findall("SubCat")
        codes = [categories.code(cat, sub.text) for sub in subs]
        facts["category"], facts["subcats"] = cat, [c for c in codes if c]
    facts["nzb"] = _segments(posting.find("NZB"))
    image = posting.find("Image")
    if image is not None:
        facts["image"] = _segments(image) if image.children else (image.text.strip()[:2000] or None)


def _command(facts: dict, head: dict, title: str) -> None:
    """A moderator's (or a poster's own) order to take a spot away: key 2,
    a subject `delete|dispose|remove <message-id>`."""
    if head["key_id"] != 2:
        return
    words = title.split()
    if len(words) >= 2 and words[0].lower() in COMMANDS:
        target = words[1].strip("<>")
        if _MID.match(target):
            facts["command"], facts["target"] = "dispose", target
            facts["personal"] = head["size"] == PERSONAL_DISPOSE_SIZE and head["user_modulus"] is not None


def _password(title: str | None, description: str | None) -> dict | None:
    """A password the spot gives: `{{…}}` in its title, else a labelled one
    in its description (`password:`, `pw:`, `wachtwoord:` …)."""
    if title:
        m = re.search(r"\{\{([^{}\r\n]{1,120})\}\}", title)
        if m and m.group(1).strip():
            return {"value": m.group(1).strip(), "source": "spot-title"}
    if description:
        value = nfo.password_of(description)
        if value:
            return {"value": value, "source": "spot-text"}
    return None
