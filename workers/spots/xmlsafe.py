"""XML read with the standard library's expat, hostile documents refused:
no entity declarations (no entity bombs), no external entities fetched,
a cap on elements and on depth, so a document costs about its own size."""
from __future__ import annotations

from xml.parsers import expat


class XmlRefused(Exception):
    """A document that is no XML, or one that tries what XML bombs try."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def _refuse(*_args):
    raise XmlRefused("xml-entities")


def parser(*, allow_doctype: bool = True) -> expat.XMLParserType:
    """An expat parser that refuses entity declarations (and a DOCTYPE at
    all when not allowed) and never reads an external entity."""
    p = expat.ParserCreate()
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    p.EntityDeclHandler = _refuse
    p.UnparsedEntityDeclHandler = _refuse
    p.ExternalEntityRefHandler = lambda *a: 0
    if not allow_doctype:
        p.StartDoctypeDeclHandler = _refuse
    p.buffer_text = True
    return p


class Element:
    __slots__ = ("tag", "attrib", "text", "children")

    def __init__(self, tag: str, attrib: dict):
        self.tag, self.attrib, self.text, self.children = tag, attrib, "", []

    def find(self, tag: str) -> "Element | None":
        for child in self.children:
            if child.tag == tag:
                return child
        return None

    def findall(self, tag: str) -> list["Element"]:
        return [c for c in self.children if c.tag == tag]

    def findtext(self, tag: str) -> str:
        child = self.find(tag)
        return child.text if child is not None else ""


def tree(data: bytes | str, *, max_elements: int = 5000, max_depth: int = 16,
         allow_doctype: bool = False) -> Element:
    """The document as a small tree of Elements (text is an element's own
    text, its children's tails dropped), or XmlRefused."""
    p = parser(allow_doctype=allow_doctype)
    stack: list[Element] = []
    root: list[Element] = []
    count = [0]

    def start(tag, attrib):
        count[0] += 1
        if count[0] > max_elements:
            raise XmlRefused("xml-too-many")
        if len(stack) >= max_depth:
            raise XmlRefused("xml-too-deep")
        element = Element(tag, attrib)
        (stack[-1].children if stack else root).append(element)
        stack.append(element)

    def end(_tag):
        stack.pop()

    def chars(text):
        if stack and not stack[-1].children:     # <Category>01<Sub>…: the 01 is kept
            stack[-1].text += text

    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, chars
    try:
        p.Parse(data, True)
    except expat.ExpatError as e:
        raise XmlRefused("xml") from e
    if not root:
        raise XmlRefused("xml")
    return root[0]
