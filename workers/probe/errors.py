"""The one error the readers raise: a short reason the prober records."""
from __future__ import annotations


class ProbeError(Exception):
    """What was wrong with a body, as a short reason (`par2-md5`,
    `truncated`, ...); `partial` carries what was read before it."""

    def __init__(self, reason: str, **partial):
        super().__init__(reason)
        self.reason = reason
        self.partial = partial
