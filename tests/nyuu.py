"""A real poster for the tests: Nyuu 0.4.0 (installed by scripts/setup.sh into
.tools/ of the checkout) posting files into a running InnServer (tests/inn.py).

    posted = post_files(inn, [path, ...], group="alt.binaries.test", out_dir=tmp)
    # posted.nzb (the NZB Nyuu wrote), posted.files: {yEnc name: [message-id, ...]}

Nyuu posts with POST on nnrpd, the way it posts to a provider; its subjects
name the file as it is called on disk (an obfuscating poster renames the files
to random names before posting, so that is all the subject says), its
message-ids are its own random ones (`${rand(24)}-{timestamp}@nyuu`).
A failure raises NyuuFailed with what Nyuu printed and INN's logs.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NYUU = Path(os.environ.get("VOYAGER_NYUU", REPO / ".tools" / "node_modules" / ".bin" / "nyuu"))
NZB_NS = "{http://www.newzbin.com/DTD/2003/nzb}"
# Nyuu's default subject without its comment and size fields
SUBJECT = '[{0filenum}/{files}] - "{filename}" yEnc ({part}/{parts})'


class NyuuUnavailable(RuntimeError):
    """Nyuu is not installed in .tools/ (scripts/setup.sh installs it)."""


class NyuuFailed(RuntimeError):
    """Nyuu exited non-zero, or its NZB is not what was posted."""


def nyuu_version() -> str:
    """Nyuu's version, or '' when it is not installed (it prints it on stderr)."""
    if not NYUU.exists() or shutil.which("node") is None:
        return ""
    p = subprocess.run([str(NYUU), "--version"], capture_output=True, text=True, timeout=60)
    return (p.stdout + p.stderr).strip()


def ensure_nyuu() -> None:
    if not nyuu_version():
        raise NyuuUnavailable(f"Nyuu is not installed ({NYUU} missing, or no node): run scripts/setup.sh")


@dataclass
class NyuuPost:
    nzb: Path                         # the NZB Nyuu wrote
    files: dict = field(default_factory=dict)      # yEnc name -> [message-id (no <>), ...] in part order
    subjects: dict = field(default_factory=dict)   # yEnc name -> the NZB's subject
    output: str = ""                  # what Nyuu printed (stdout and stderr)

    @property
    def message_ids(self) -> list[str]:
        return files_mids(self.files)


def read_nzb(path: Path) -> tuple[dict, dict]:
    """{file name: [message-id, ...] by segment number} and {file name: subject}
    of an NZB, the name being the subject's quoted one."""
    files, subjects = {}, {}
    for f in ET.parse(path).getroot().iter(f"{NZB_NS}file"):
        subject = f.get("subject", "")
        name = subject.split('"')[1] if subject.count('"') >= 2 else subject
        segs = sorted(f.iter(f"{NZB_NS}segment"), key=lambda s: int(s.get("number")))
        files[name] = [s.text.strip() for s in segs]
        subjects[name] = subject
    return files, subjects


def files_mids(files: dict) -> list[str]:
    return [m for mids in files.values() for m in mids]


def overview_mids(inn, group: str) -> set[str]:
    """The message-ids (no <>) of the group's overview on nnrpd."""
    with inn.reader() as c:
        count, low, high = c.group(group)
        lines = c.over(low, high) if count else []
    return {line.split(b"\t")[4].decode().strip("<>") for line in lines}


def post_files(inn, paths, *, group: str, out_dir, poster: str = "poster <poster@example.invalid>",
               subject: str = SUBJECT, article_size: str = "700K", connections: int = 2,
               date: str | None = None, extra=(), timeout: float = 120) -> NyuuPost:
    """Posts `paths` (in that order) into `group` of `inn` (nnrpd, POST) with
    Nyuu, and checks every article of its NZB is in the group's overview.
    `date`: Nyuu's --date (the Date header and the NZB's dates)."""
    ensure_nyuu()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    nzb = out_dir / "nyuu.nzb"
    argv = [str(NYUU), "-h", inn.host, "-P", str(inn.reader_port), "-n", str(connections),
            "-a", article_size, "-g", group, "-f", poster, "-s", subject, "-o", str(nzb), "-O",
            "--progress", "none", "--log-level", "3", "--timeout", "30s",
            # a loopback server that is slow for a moment: try again soon, not in 15 s
            "--connect-retries", "2", "--reconnect-delay", "1s", "--post-retries", "3", "--post-retry-delay", "1s",
            # no separate timer while an article's chunks are written: Nyuu 0.4.0 can set it
            # twice under load and die ("Timer already set"); --timeout still bounds the reply
            "--post-timeout", "0"]
    if date is not None:
        argv += ["--date", date]
    argv += [*extra, *(str(p) for p in paths)]
    p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=out_dir)
    output = f"$ {' '.join(argv)}\n[exit {p.returncode}]\n--- stdout\n{p.stdout[-4000:]}\n--- stderr\n{p.stderr[-4000:]}"
    if p.returncode != 0 or not nzb.exists():
        raise NyuuFailed(f"Nyuu failed:\n{output}\n--- INN\n{inn.log()}")
    files, subjects = read_nzb(nzb)
    want = {Path(x).name for x in paths}
    if set(files) != want:
        raise NyuuFailed(f"Nyuu's NZB names {sorted(files)}, not the files posted {sorted(want)}:\n{output}")
    # POST goes through nnrpd to innd: each article is there once innd has filed it,
    # and the indexer reads the group's overview, so that is where each must be
    deadline = time.monotonic() + 15
    while True:
        missing = sorted(set(files_mids(files)) - overview_mids(inn, group))
        if not missing or time.monotonic() > deadline:
            break
        inn.flush()
        time.sleep(0.2)
    if missing:
        raise NyuuFailed(f"{len(missing)} articles of Nyuu's NZB are not in {group}'s overview "
                         f"(first {missing[0]}):\n{output}\n--- INN\n{inn.log()}")
    return NyuuPost(nzb=nzb, files=files, subjects=subjects, output=output)
