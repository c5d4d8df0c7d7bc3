"""Huge pages for a cluster's shared memory.

With a pool of gigabytes in ordinary 4 KB pages, every backend maps the
pages it touches one fault at a time and walks the TLB on each buffer it
reads: at ten million releases that was a third of a word search's database
CPU (3.54 ms against 2.49 with the pool in 2 MB pages). Before a cluster
starts, the kernel is asked for the huge pages its shared memory needs
(`postgres -C shared_memory_size_in_huge_pages`) beyond those free; after it
stops, what was asked for is given back. PostgreSQL's `huge_pages = try`
(the default) then maps the pool in them, or in ordinary pages when there
are too few.

Only as root (vm.nr_hugepages is the kernel's), only for a pool of a
gigabyte or more (a test's cluster keeps ordinary pages), never past half
of memory in huge pages (replicas of the same host beside the primary keep
ordinary pages), and not at all with VOYAGER_HUGE_PAGES=0. On a database
host of its own, an operator sets vm.nr_hugepages in /etc/sysctl.d instead
(DEPLOY.md); the pages found free are then used and none are asked for.
"""
from __future__ import annotations

import os
from pathlib import Path

# the pool that is worth huge pages: smaller ones keep ordinary pages
FROM_MB = 1024
# at most this share of memory in huge pages, with what this cluster adds (one half)
MEMORY_PER_HUGE_PAGE = 2
RECORD = "huge_pages"              # in the cluster's folder: pages asked for, and the boot they were asked in


class Kernel:
    """The kernel's huge page pool as /proc shows it (`root` stands in for /proc in a test)."""

    def __init__(self, root: Path = Path("/proc")):
        self.root = root

    @property
    def nr_path(self) -> Path:
        return self.root / "sys/vm/nr_hugepages"

    def meminfo(self) -> dict[str, int]:
        """/proc/meminfo's counts (kB for sizes, pages for HugePages_*)."""
        out = {}
        for line in (self.root / "meminfo").read_text().splitlines():
            key, _, rest = line.partition(":")
            fields = rest.split()
            if fields:
                out[key] = int(fields[0])
        return out

    def available(self) -> int:
        """Huge pages free and promised to no one."""
        info = self.meminfo()
        return info.get("HugePages_Free", 0) - info.get("HugePages_Rsvd", 0)

    def total(self) -> int:
        return int(self.nr_path.read_text())

    def set_total(self, n: int) -> int:
        """Asks for `n` huge pages in all; what the kernel could give (memory may be too fragmented)."""
        self.nr_path.write_text(f"{n}\n")
        return self.total()

    def compact(self) -> bool:
        """Asks the kernel to gather free memory into whole huge pages (it
        fragments as the page cache fills); whether it could be asked."""
        try:
            (self.root / "sys/vm/compact_memory").write_text("1\n")
        except OSError:
            return False
        return True

    def boot(self) -> str:
        try:
            return (self.root / "sys/kernel/random/boot_id").read_text().strip()
        except OSError:
            return ""


def needed(cluster) -> int:
    """The huge pages the cluster's shared memory takes (it must be stopped:
    the server computes it from its settings); 0 when it is set to use none."""
    if cluster.setting("huge_pages") == "off":
        return 0
    try:
        return int(cluster.setting("shared_memory_size_in_huge_pages"))
    except ValueError:
        return 0


def _record(folder: Path, kernel: Kernel) -> int:
    """The pages this cluster asked for in this boot (a reboot empties the pool)."""
    try:
        count, boot = (folder / RECORD).read_text().split()
    except (OSError, ValueError):
        return 0
    return int(count) if boot == kernel.boot() else 0


def _write_record(folder: Path, kernel: Kernel, count: int) -> None:
    path = folder / RECORD
    if count > 0:
        path.write_text(f"{count} {kernel.boot()}\n")
    else:
        path.unlink(missing_ok=True)


def reserve(folder: Path, pages: int, kernel: Kernel | None = None, log=print) -> int:
    """Asks the kernel for what `pages` lacks of huge pages free, before a
    cluster of `folder` starts; the pages it gave (0: none asked, or none to be had)."""
    kernel = kernel or Kernel()
    if os.environ.get("VOYAGER_HUGE_PAGES") == "0" or pages <= 0:
        return 0
    try:
        info = kernel.meminfo()
        size_kb = info.get("Hugepagesize", 2048)
        if pages * size_kb < FROM_MB * 1024:
            return 0
        short = pages - kernel.available()
        if short <= 0:
            return 0
        total = kernel.total()
        if (total + short) * size_kb > info.get("MemTotal", 0) // MEMORY_PER_HUGE_PAGE:
            log(f"huge pages: {pages} would put more than 1/{MEMORY_PER_HUGE_PAGE} of memory in them; "
                "ordinary pages")
            return 0
        got = kernel.set_total(total + short) - total
        if got < short and kernel.compact():
            # memory in pieces too small for a 2 MB page: compacted, asked again once
            got = kernel.set_total(total + short) - total
    except PermissionError:
        log(f"huge pages: {pages} wanted, only root may ask the kernel for them "
            f"(sysctl vm.nr_hugepages); ordinary pages")
        return 0
    except OSError as e:
        log(f"huge pages: not asked for ({e}); ordinary pages")
        return 0
    if got < short:
        # too few to map the pool in: PostgreSQL would fall back anyway
        kernel.set_total(total)
        log(f"huge pages: the kernel gave {max(got, 0)} of {short}; ordinary pages")
        return 0
    _write_record(folder, kernel, _record(folder, kernel) + got)
    log(f"huge pages: {got} asked of the kernel for the shared memory ({got * size_kb // 1024} MB)")
    return got


def give_back(folder: Path, kernel: Kernel | None = None, log=print) -> int:
    """After a cluster of `folder` stopped: the pages it asked for, those now free."""
    kernel = kernel or Kernel()
    asked = _record(folder, kernel)
    if asked <= 0:
        _write_record(folder, kernel, 0)
        return 0
    try:
        total = kernel.total()
        give = max(0, min(asked, kernel.available(), total))
        if give:
            kernel.set_total(total - give)
    except OSError as e:
        log(f"huge pages: not given back ({e})")
        return 0
    _write_record(folder, kernel, asked - give)
    return give


def in_use_mb(pid: int | None, root: Path = Path("/proc")) -> int | None:
    """The MB of a process's mappings in huge pages (a postmaster: its
    shared memory when it got them, else 0); None without the process."""
    if pid is None:
        return None
    try:
        text = (root / str(pid) / "smaps").read_text()
    except OSError:
        return None
    total_kb = 0
    size_kb = 0
    for line in text.splitlines():
        if line.startswith("Size:"):
            size_kb = int(line.split()[1])
        elif line.startswith("KernelPageSize:") and int(line.split()[1]) > 4:
            total_kb += size_kb
    return total_kb // 1024
