"""How fast the simulator serves XOVER, plain and compressed, per connection.

    voyager sim bench-server --corpus DIR [--group G] [--connections N] [--seconds S]
    voyager sim bench-server --corpus /tmp/vbench --synthesize 300000   (make the corpus first)

The server runs in a child process by default (in this one it would share the
GIL with the clients), or is reached at --host/--port. Each connection walks
the group in requests of --batch articles; the client is minimal (it counts
lines and inflates, nothing more). Prints one JSON line. --synthesize writes
the corpus first (sim.synthetic).
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

from sim.synthetic import write_synthetic_corpus
from voyager.corpus import Corpus

ROOT = Path(__file__).resolve().parent.parent

# -- a minimal client ---------------------------------------------------------------------

class BenchClient:
    def __init__(self, host: str, port: int, timeout: float = 60.0):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.buf = b""
        self.greeting = self.line()

    def _recv(self) -> bytes:
        data = self.sock.recv(1 << 20)
        if not data:
            raise EOFError("server closed the connection")
        return data

    def line(self) -> bytes:
        while b"\r\n" not in self.buf:
            self.buf += self._recv()
        line, _, self.buf = self.buf.partition(b"\r\n")
        return line

    def cmd(self, text: str) -> bytes:
        self.sock.sendall(text.encode() + b"\r\n")
        return self.line()

    def xover_plain(self, first: int, last: int) -> int:
        status = self.cmd(f"XOVER {first}-{last}")
        if status.startswith(b"423"):
            return 0
        if not status.startswith(b"224"):
            raise RuntimeError(status)
        data, self.buf = self.buf, b""
        lines = 0
        tail = b"\r\n"                            # the status line's end
        while True:
            if data:
                lines += data.count(b"\n")
                tail = (tail + data)[-5:]
                if tail.endswith(b"\r\n.\r\n"):
                    return lines - 1
            data = self._recv()

    def xover_compressed(self, first: int, last: int, terminator: bool = False) -> tuple[int, int]:
        """(lines, compressed bytes) of one XOVER under XFEATURE COMPRESS GZIP
        [TERMINATOR]."""
        status = self.cmd(f"XOVER {first}-{last}")
        if status.startswith(b"423"):
            return 0, 0
        if not status.startswith(b"224"):
            raise RuntimeError(status)
        d = zlib.decompressobj()
        data, self.buf = self.buf, b""
        lines = wire = 0
        while True:
            if data:
                wire += len(data)
                lines += d.decompress(data).count(b"\n")
                if d.eof and terminator:
                    self.buf = d.unused_data
                    return lines - 1, wire - len(d.unused_data)
                if d.eof:
                    rest = d.unused_data
                    while len(rest) < 3:
                        rest += self._recv()
                    if rest[:3] != b".\r\n":
                        raise RuntimeError("no terminator after the compressed reply")
                    self.buf = rest[3:]
                    return lines, wire - len(d.unused_data)
            data = self._recv()

    def close(self) -> None:
        try:
            self.sock.sendall(b"QUIT\r\n")
        except OSError:
            pass
        self.sock.close()


def _run_connection(host, port, group, batch, offset, seconds, compressed, auth, out, i):
    """compressed: False, "gzip" or "gzip-term"."""
    c = BenchClient(host, port)
    try:
        if auth:
            c.cmd(f"AUTHINFO USER {auth[0]}")
            c.cmd(f"AUTHINFO PASS {auth[1]}")
        if compressed:
            feature = "XFEATURE COMPRESS GZIP" + (" TERMINATOR" if compressed == "gzip-term" else "")
            if not c.cmd(feature).startswith(b"290"):
                raise RuntimeError(f"{feature} refused")
        status = c.cmd(f"GROUP {group}").split()
        low, high = int(status[2]), int(status[3])
        # Connections start at different places so none rides another's cache.
        span = high - low + 1
        first = low + (offset + i * batch) % max(1, span)
        lines = wire = requests = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            last = min(first + batch - 1, high)
            if compressed:
                n, w = c.xover_compressed(first, last, compressed == "gzip-term")
                wire += w
            else:
                n = c.xover_plain(first, last)
            lines += n
            requests += 1
            first = last + 1 if last < high else low + offset % max(1, span)
        elapsed = time.perf_counter() - start
        out[i] = {"lines": lines, "seconds": elapsed, "wire": wire, "requests": requests}
    finally:
        c.close()


def measure(host: str, port: int, group: str, connections: int, seconds: float, batch: int,
            offset: int, compressed: bool | str, auth=None) -> dict:
    out: list[dict | None] = [None] * connections
    threads = [threading.Thread(target=_run_connection,
                                args=(host, port, group, batch, offset, seconds, compressed, auth, out, i))
               for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if any(o is None for o in out):
        raise RuntimeError("a bench connection failed")
    rates = [o["lines"] / o["seconds"] for o in out]
    lines = sum(o["lines"] for o in out)
    return {"per_conn": sum(rates) / len(rates), "lines": lines,
            "wire_per_line": (sum(o["wire"] for o in out) / lines) if compressed and lines else None,
            "requests": sum(o["requests"] for o in out)}


def _start_child(corpus: str, cache_mb: int, level: int) -> tuple[subprocess.Popen, int]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from sim.server import main; sys.exit(main(sys.argv[1:]))",
         "--corpus", corpus, "--port", "0", "--reply-cache-mb", str(cache_mb), "--compress-level", str(level)],
        stdout=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    if not line.startswith("listening on "):
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return proc, int(line.rsplit(":", 1)[1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="voyager sim bench-server", description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", required=True)
    p.add_argument("--group", help="default: the group with the most stored lines")
    p.add_argument("--connections", type=int, default=1)
    p.add_argument("--seconds", type=float, default=5.0, help="per mode")
    p.add_argument("--batch", type=int, default=100_000, help="articles per XOVER")
    p.add_argument("--offset", type=int, default=0, help="start this far past the low watermark "
                   "(not a multiple of the chunk size: requests straddle chunks)")
    p.add_argument("--host", help="bench a running server instead of starting one")
    p.add_argument("--port", type=int)
    p.add_argument("--user")
    p.add_argument("--password")
    p.add_argument("--terminator", action="store_true",
                   help="compressed replies with XFEATURE COMPRESS GZIP TERMINATOR")
    p.add_argument("--cache", action="store_true", help="let the server keep built replies")
    p.add_argument("--compress-level", type=int, default=1)
    p.add_argument("--in-process", action="store_true", help="run the server in this process")
    p.add_argument("--synthesize", type=int, default=0, metavar="LINES",
                   help="first write a synthetic corpus of about LINES articles to --corpus")
    a = p.parse_args(argv)

    if a.synthesize:
        # The big group has more chunks than the server keeps inflated, so
        # walking it measures the cold path.
        small = max(1, a.synthesize // 8)
        write_synthetic_corpus(a.corpus, {"alt.binaries.bench.big": (1_000_001, 1_000_000 + a.synthesize - small),
                                          "alt.binaries.bench.small": (1, small)})
    corpus = Corpus(a.corpus)
    group = a.group or max(corpus.groups(), key=lambda g: sum(c.lines for c in corpus.chunks(g["name"])))["name"]

    proc = handle = None
    if a.host or a.port:
        host, port = a.host or "127.0.0.1", a.port or 119
    elif a.in_process:
        from sim.server import ServerOptions, run_in_thread
        handle = run_in_thread(a.corpus, ServerOptions(reply_cache_bytes=(64 << 20) if a.cache else 0,
                                                       compress_level=a.compress_level))
        host, port = "127.0.0.1", handle.port
    else:
        proc, port = _start_child(a.corpus, 64 if a.cache else 0, a.compress_level)
        host = "127.0.0.1"
    auth = (a.user, a.password or "") if a.user else None
    try:
        plain = measure(host, port, group, a.connections, a.seconds, a.batch, a.offset, False, auth)
        packed = measure(host, port, group, a.connections, a.seconds, a.batch, a.offset,
                         "gzip-term" if a.terminator else "gzip", auth)
    finally:
        if handle:
            handle.stop()
        if proc:
            proc.terminate()
            proc.wait(10)
            proc.stdout.close()
    print(json.dumps({
        "plain_lines_per_s_per_conn": round(plain["per_conn"]),
        "compressed_lines_per_s_per_conn": round(packed["per_conn"]),
        "connections": a.connections,
        "lines": plain["lines"] + packed["lines"],
        "group": group, "batch": a.batch, "offset": a.offset, "seconds_per_mode": a.seconds,
        "compressed_bytes_per_line": round(packed["wire_per_line"], 1) if packed["wire_per_line"] else None,
        "terminator": a.terminator, "server_cache": a.cache,
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
