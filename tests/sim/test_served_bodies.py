"""A freshly started `voyager sim serve`'s article bodies under concurrency:
many clients ask BODY and ARTICLE over TCP at the very first moment, while
the server is still loading its bodies, and every answer is that article's
real body (the one a later, single request gets, with its own yEnc name and
a valid CRC), never a stand-in."""
from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import pytest

from sim.bodies import file_bytes, part_span
from sim.generate import Options, generate
from sim.server import run_in_thread

ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 24
_MINUS_42 = bytes((b - 42) & 0xFF for b in range(256))
_MINUS_106 = bytes((b - 106) & 0xFF for b in range(256))     # an escaped byte: 64 more


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bodies") / "corpus"
    generate(Options(out=out, seed=9, groups=2, lines=20_000, days=1, range_articles=10_000,
                     chunk_articles=3_000))
    return out


def segments(corpus: Path, n: int) -> list[tuple[str, dict, int]]:
    """(message-id, spec, part) of n described articles, each of another file."""
    out = []
    for line in (corpus / "bodies" / "files.jsonl").read_text().splitlines():
        spec = json.loads(line)
        if spec.get("segments"):
            part, mid = spec["segments"][0][:2]
            out.append((str(mid), spec, int(part)))
    assert len(out) >= n
    step = len(out) // n
    return out[::step][:n]


def serve(corpus: Path) -> tuple[subprocess.Popen, int]:
    """`voyager sim serve` in a process of its own, as a downloader meets it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    p = subprocess.Popen([sys.executable, "-m", "voyager.cli", "sim", "serve", "--corpus", str(corpus),
                          "--port", str(port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p, port
        except OSError:
            assert p.poll() is None, "the simulator exited"
            time.sleep(0.05)
    p.kill()
    raise RuntimeError("the simulator did not start")


def unstuff(block: bytes) -> bytes:
    lines = block.split(b"\r\n")
    return b"\r\n".join(x[1:] if x.startswith(b".") else x for x in lines)


def ask(port: int, command: str, start: threading.Barrier | None = None) -> tuple[bytes, bytes]:
    """(status line, the block unstuffed, its lines CRLF-ended) of one command."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        f = s.makefile("rb")
        assert f.readline()[:3] in (b"200", b"201")
        if start is not None:
            start.wait(30)
        s.sendall(command.encode() + b"\r\n")
        status = f.readline().rstrip(b"\r\n")
        if not status.startswith(b"22"):
            return status, b""
        lines = []
        while (line := f.readline()) != b".\r\n":
            assert line, "the reply ended before its terminator"
            lines.append(line)
        return status, unstuff(b"".join(lines))


def yenc(body: bytes) -> tuple[dict[str, str], bytes]:
    """The =ybegin fields (name included) and the part's bytes, its pcrc32 checked."""
    lines = body.split(b"\r\n")
    assert lines[0].startswith(b"=ybegin ") and lines[1].startswith(b"=ypart ")
    head, name = lines[0].split(b" name=", 1)
    fields = dict(x.split("=", 1) for x in head.decode().split()[1:])
    fields["name"] = name.decode()
    end = next(i for i, x in enumerate(lines) if x.startswith(b"=yend "))
    tail = dict(x.split("=", 1) for x in lines[end].decode().split()[1:])
    pieces = b"".join(lines[2:end]).split(b"=")
    data = pieces[0].translate(_MINUS_42) + b"".join(
        p[:1].translate(_MINUS_106) + p[1:].translate(_MINUS_42) for p in pieces[1:])
    assert int(tail["size"]) == len(data)
    assert int(tail["pcrc32"], 16) == zlib.crc32(data), "the part's CRC does not match its data"
    return fields, data


def test_concurrent_first_requests_get_the_real_bodies(corpus):
    picked = segments(corpus, CLIENTS)
    proc, port = serve(corpus)
    try:
        start = threading.Barrier(CLIENTS)
        answers: list = [None] * CLIENTS

        def client(i: int) -> None:
            command = "ARTICLE" if i % 4 == 0 else "BODY"
            try:
                answers[i] = ask(port, f"{command} <{picked[i][0]}>", start)
            except Exception as exc:     # noqa: BLE001 - shown by the assert below
                answers[i] = exc

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        # later, one at a time, on the same server
        alone = [ask(port, f"BODY <{mid}>")[1] for mid, _spec, _part in picked]
    finally:
        proc.terminate()
        proc.wait(10)

    for i, ((mid, spec, part), answer, later) in enumerate(zip(picked, answers, alone)):
        assert not isinstance(answer, BaseException), answer
        status, block = answer
        assert status.startswith(b"220 " if i % 4 == 0 else b"222 ") and status.endswith(f"<{mid}>".encode())
        body = block.split(b"\r\n\r\n", 1)[1] if i % 4 == 0 else block
        assert body == later, f"{mid}: a concurrent first request got another body"
        fields, data = yenc(body)
        assert fields["name"] == str(spec.get("yenc_name") or spec["name"])
        assert int(fields["part"]) == part
        assert data == file_bytes(spec, *part_span(spec, part))


def test_an_article_whose_body_cannot_be_made_is_a_clean_430(corpus, tmp_path):
    """A described segment whose part lies outside its file: no body can be
    made, so the answer is 430 (not some other body), and the file's other
    articles are served as before."""
    bad = tmp_path / "corpus"
    shutil.copytree(corpus, bad)
    files = bad / "bodies" / "files.jsonl"
    lines = files.read_text().splitlines()
    spec = json.loads(lines[0])
    broken, kept = spec["segments"][0][1], spec["segments"][1][1]
    spec["parts"] = len(spec["segments"])
    spec["segments"][0][0] = 10 * spec["parts"]
    files.write_text("\n".join([json.dumps(spec), *lines[1:]]) + "\n")
    with run_in_thread(bad) as server:
        for command in ("BODY", "ARTICLE"):
            status, _ = ask(server.port, f"{command} <{broken}>")
            assert status.startswith(b"430 ")
        status, body = ask(server.port, f"BODY <{kept}>")
        assert status.startswith(b"222 ")
        fields, data = yenc(body)
        assert fields["name"] == spec["yenc_name"] and data == file_bytes(spec, *part_span(spec, 2))
