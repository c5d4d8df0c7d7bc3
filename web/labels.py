"""Group and poster names by id, as the web keeps them.

A result row carries its release's group and poster ids, and the names come
from here: those not seen yet in one statement of their own on the
connection that read the rows (a replica's does as well as the primary's:
a release's group and poster are older than the release). Joined into each
row's lookup instead, they cost two index descents a row, a fifth of a word
search's database CPU at ten million releases. A group's or a poster's name
never changes once it has an id (both are only ever added), so a name kept
is never stale. A web starts with all the groups and the newest posters
(`load`): those who post now, whose releases the searches find most.
"""
from __future__ import annotations

from itertools import islice

LOOKUP = """SELECT false, g.id, g.name FROM voyager.groups g WHERE g.id = ANY(%(groups)s::integer[])
UNION ALL
SELECT true, p.id, p.poster FROM voyager.posters p WHERE p.id = ANY(%(posters)s::integer[])"""


NEWEST = """SELECT false, g.id, g.name FROM voyager.groups g
UNION ALL
(SELECT true, p.id, p.poster FROM voyager.posters p ORDER BY p.id DESC LIMIT %s)"""


class Labels:
    """Names by id, the oldest half forgotten past `size` of a kind."""

    def __init__(self, size: int = 100_000):
        self.size = size
        self.groups: dict[int, str] = {}
        self.posters: dict[int, str] = {}

    async def load(self, conn) -> None:
        """All the groups' names and the newest posters', up to `size` of each."""
        cur = await conn.execute(NEWEST, (self.size,))
        for is_poster, id_, name in reversed(await cur.fetchall()):     # the oldest first, to go first
            (self.posters if is_poster else self.groups)[id_] = name

    async def fill(self, conn, rows: list[dict]) -> None:
        """Each row's `group_name` and `poster`, from its `group_id` and `poster_id`."""
        # the names as they are now: forgetting makes new dicts, so these keep
        # what this call saw while it waits on the lookup and others fill theirs
        groups, posters = self.groups, self.posters
        want_groups = {g for r in rows if (g := r["group_id"]) not in groups and g is not None}
        want_posters = {p for r in rows if (p := r["poster_id"]) not in posters and p is not None}
        new_groups: dict[int, str] = {}
        new_posters: dict[int, str] = {}
        if want_groups or want_posters:
            self._forget()
            cur = await conn.execute(LOOKUP, {"groups": list(want_groups), "posters": list(want_posters)})
            for is_poster, id_, name in await cur.fetchall():
                (new_posters if is_poster else new_groups)[id_] = name
            self.groups.update(new_groups)
            self.posters.update(new_posters)
        for r in rows:
            r["group_name"] = groups.get(r["group_id"]) or new_groups.get(r["group_id"], "")
            r["poster"] = posters.get(r["poster_id"]) or new_posters.get(r["poster_id"], "")

    def _forget(self) -> None:
        """Past `size` of a kind, its older half (a dict keeps the order names came in)."""
        if len(self.groups) > self.size:
            self.groups = dict(islice(self.groups.items(), len(self.groups) // 2, None))
        if len(self.posters) > self.size:
            self.posters = dict(islice(self.posters.items(), len(self.posters) // 2, None))
