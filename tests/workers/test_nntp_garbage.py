"""A garbage news server: a small real TCP server in the test that speaks
broken NNTP (a greeting that is no status line, a short 211, a body without
its dot line, `=yend size=zz`, a reply that never ends, absurd LIST ACTIVE
watermarks). The client gives a clear NntpProtocolError, call() asks again on
a new connection a bounded number of times, one reply's memory is capped
(max_reply_bytes), and the planner refuses the absurd rows by their names."""
from __future__ import annotations

import socket
import threading
import time
import tracemalloc
from contextlib import contextmanager

import pytest

from tests.helpers import plan, ranges, set_setting
from voyager.tick import Tick
from workers.nntp import (NntpConfig, NntpConnection, NntpProtocolError, NntpReplyTooLarge, call,
                          fetch_overview, list_active)

GROUP = "alt.binaries.garbage"
LINE = b"1\tsubject\tposter\tdate\t<id@x>\t\t100\t10\tXref: x alt.binaries.garbage:1\r\n"


class GarbageServer:
    """Answers each command from `replies` (verb -> bytes, or a callable that
    writes to the socket itself); counts connections and commands."""

    def __init__(self, replies: dict, greeting: bytes = b"200 garbage ready\r\n"):
        self.replies, self.greeting = replies, greeting
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.commands: list[str] = []
        self.stopped = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._serve, args=(c,), daemon=True).start()

    def _serve(self, c: socket.socket) -> None:
        with c:
            try:
                c.sendall(self.greeting)
                f = c.makefile("rb")
                for raw in f:
                    cmd = raw.decode().strip()
                    self.commands.append(cmd)
                    verb = cmd.split()[0].upper() if cmd else ""
                    if verb == "QUIT":
                        c.sendall(b"205 bye\r\n")
                        return
                    reply = self.replies.get(verb, b"500 what?\r\n")
                    if callable(reply):
                        if reply(c, cmd) is False:
                            return               # closes
                    else:
                        c.sendall(reply)
            except OSError:
                return

    def close(self) -> None:
        self.stopped = True
        self.sock.close()


@contextmanager
def garbage(replies: dict, **kw):
    srv = GarbageServer({"CAPABILITIES": b"101 caps\r\nVERSION 2\r\nREADER\r\nOVER\r\nXZVER\r\n.\r\n",
                         "MODE": b"200 reader\r\n", "DATE": b"111 20260101000000\r\n",
                         "GROUP": b"211 1 1 1 " + GROUP.encode() + b"\r\n", **replies}, **kw)
    try:
        yield srv
    finally:
        srv.close()


def config(port: int, **kw) -> NntpConfig:
    return NntpConfig(host="127.0.0.1", port=port, timeout=5, retries=2, backoff_base=0.01, backoff_max=0.02,
                      modes=kw.pop("modes", ("plain",)), **kw)


def test_a_greeting_that_is_no_status_line(tmp_path):
    with garbage({}, greeting=b"hello, this is not NNTP\r\n") as srv:
        conn = NntpConnection(config(srv.port))
        with pytest.raises(NntpProtocolError, match="not a status line"):
            call(conn, conn.date)
        assert srv.connections == 3, "asked again on a new connection, within its retries"
        assert not conn.connected


def test_a_short_211(tmp_path):
    with garbage({"GROUP": b"211 5\r\n"}) as srv:
        conn = NntpConnection(config(srv.port))
        with pytest.raises(NntpProtocolError, match="211 without its count, low and high"):
            call(conn, lambda: conn.group(GROUP))
        assert srv.connections == 3


def test_a_body_without_its_dot_line():
    def cut(c, _cmd):
        c.sendall(b"224 overview follows\r\n" + LINE * 3)
        return False                           # closed without the dot line

    with garbage({"OVER": cut}) as srv:
        conn = NntpConnection(config(srv.port))
        with pytest.raises(NntpProtocolError, match="without its terminating dot line"):
            fetch_overview(conn, GROUP, 1, 3)
        assert sum(c.startswith("OVER") for c in srv.commands) == 3


def test_a_yend_size_that_is_no_number():
    import binascii
    import zlib

    raw = zlib.compress(LINE)
    enc = bytes((b + 42) % 256 for b in raw).replace(b"=", b"=}").replace(b"\x00", b"=@") \
        .replace(b"\r", b"=M").replace(b"\n", b"=J").replace(b".", b"=n")
    body = (b"=ybegin line=128 size=%d name=xzver\r\n" % len(raw)) + enc + \
        (b"\r\n=yend size=zz crc32=%08x\r\n.\r\n" % binascii.crc32(raw))
    with garbage({"XZVER": b"224 compressed overview follows\r\n" + body}) as srv:
        conn = NntpConnection(config(srv.port, modes=("xzver",)))
        with pytest.raises(NntpProtocolError, match="=yend size is not a number"):
            fetch_overview(conn, GROUP, 1, 1, mode="xzver")
        assert sum(c.startswith("XZVER") for c in srv.commands) == 3


def test_a_reply_larger_than_any_overview_chunk_is_refused_in_bounded_memory():
    sent = []

    def endless(c, _cmd):
        c.sendall(b"224 overview follows\r\n")
        block = LINE * 4000                     # ~300 KB a send, never a dot line
        try:
            for _ in range(400):                # up to ~120 MB, far past the cap
                c.sendall(block)
                sent.append(len(block))
        except OSError:
            pass
        return False

    with garbage({"OVER": endless}) as srv:
        conn = NntpConnection(config(srv.port, max_reply_bytes=4 << 20))
        tracemalloc.start()
        try:
            with pytest.raises(NntpReplyTooLarge, match="larger than 4194304 bytes"):
                fetch_overview(conn, GROUP, 1, 100_000)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 32 << 20, f"one reply's memory is bounded by the cap: peak {peak}"
        assert sum(c.startswith("OVER") for c in srv.commands) == 3
        time.sleep(0.2)
        assert sum(sent) < 60 << 20, "the client stopped reading: the reply was not taken whole"


def test_absurd_list_active_rows_are_parsed_and_refused_by_name(conn, db_dsn):
    """The Python only parses; voyager.plan_groups refuses each absurd row by its
    name and plans the rest. The tail planner reports them, on a connection of
    the account's budget (the plain role)."""
    listing = (b"215 list follows\r\n"
               b"alt.binaries.huge 4611686018427387904 1 y\r\n"
               b"alt.binaries.neg -5 1 y\r\n"
               b"alt.binaries.rev 10 100 y\r\n"
               b"alt.binaries.ok 2500 1 y\r\n"
               b"not a row\r\n.\r\n")
    with garbage({"LIST": listing}) as srv:
        rows = list_active(config(srv.port))
        assert rows == [{"name": "alt.binaries.huge", "low": 1, "high": 2 ** 62},
                        {"name": "alt.binaries.neg", "low": 1, "high": -5},
                        {"name": "alt.binaries.rev", "low": 100, "high": 10},
                        {"name": "alt.binaries.ok", "low": 1, "high": 2500}]
        set_setting(conn, "range_articles", 1000)
        got = {r[0]: r[6] for r in plan(conn, rows)}
        assert "absurd watermark" in got["alt.binaries.huge"]
        assert "negative watermark" in got["alt.binaries.neg"]
        assert "reversed watermarks" in got["alt.binaries.rev"]
        assert got["alt.binaries.ok"] is None
        assert [r[:2] for r in ranges(conn, "alt.binaries.ok")] == [(1, 1000), (1001, 2000), (2001, 2500)]
        assert conn.execute("SELECT count(*) FROM voyager.groups").fetchone()[0] == 1

        # the tail planner: its LIST ACTIVE claimed from the budget, the refused rows reported
        plan(conn, [{"name": "alt.binaries.huge", "low": 1, "high": 100}])
        conn.execute("UPDATE voyager.jobs SET enabled = (name = 'tail_plan')")
        env = {"VOYAGER_NNTP_HOST": "127.0.0.1", "VOYAGER_NNTP_PORT": str(srv.port),
               "VOYAGER_NNTP_TIMEOUT": "5", "VOYAGER_NNTP_CONNECTIONS": "8"}
        # the whole account of 8 held (the plain role's maximum is not what stops it): a skip
        conn.execute("UPDATE voyager.nntp_shares SET max_connections = 5 WHERE role = 'plain'")
        conn.execute("INSERT INTO voyager.nntp_claims (node, role, connections, want, expires_at) "
                     "VALUES ('spotter', 'spots', 1, 1, now() + interval '1 hour'), "
                     "('w', 'headers', 4, 8, now() + interval '1 hour'), "
                     "('x', 'plain', 3, 3, now() + interval '1 hour')")
        before = len(srv.commands)
        t = Tick(db_dsn, node="tick", environ=env)
        try:
            out = {r["job"]: r for r in t.run_due()}
        finally:
            t.close()
        assert "no NNTP connection free" in out["tail_plan"]["result"]["skipped"]
        assert not [c for c in srv.commands[before:] if c.startswith("LIST")]
        conn.execute("DELETE FROM voyager.nntp_claims WHERE node = 'x'")
        conn.execute("UPDATE voyager.jobs SET next_run_at = now() WHERE name = 'tail_plan'")
        t = Tick(db_dsn, node="tick", environ=env)
        try:
            out = {r["job"]: r for r in t.run_due()}
        finally:
            t.close()
        result = out["tail_plan"]["result"]
        assert result["groups_refused"] == 1 and "absurd watermark" in result["refused"]["alt.binaries.huge"]
        assert result["groups_planned"] == 1                 # alt.binaries.ok, already known
        assert ranges(conn, "alt.binaries.huge") == [(1, 100, 1, "planned", 100, None)]
        # the claim was given back after the listing
        assert conn.execute("SELECT count(*) FROM voyager.nntp_claims WHERE role = 'plain'").fetchone()[0] == 0
