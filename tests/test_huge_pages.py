"""A large pool's cluster starts in huge pages the kernel is asked for, and
gives them back when it stops; small pools, other boots' records and a
kernel that gives too few leave the pool as it was."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from voyager import huge_pages
from voyager.cluster import Cluster, free_port

GB_PAGES = 512                      # a gigabyte in 2 MB pages


class FakeKernel(huge_pages.Kernel):
    """A pool of huge pages as the kernel keeps it: `used` of them mapped by servers."""

    def __init__(self, total=0, used=0, mem_kb=24 * 2**20, limit=None, boot="boot-1"):
        self.nr, self.used, self.mem_kb, self.limit, self.boot_id = total, used, mem_kb, limit, boot

    def meminfo(self):
        return {"MemTotal": self.mem_kb, "Hugepagesize": 2048, "HugePages_Total": self.nr,
                "HugePages_Free": self.nr - self.used, "HugePages_Rsvd": 0}

    def total(self):
        return self.nr

    def set_total(self, n):
        # the kernel can only take back free pages, and may have too little memory to give
        self.nr = max(min(n, self.limit if self.limit is not None else n), self.used)
        return self.nr

    def boot(self):
        return self.boot_id

    def compact(self):
        self.compactions = getattr(self, "compactions", 0) + 1
        if getattr(self, "fragmented", False):
            self.fragmented, self.limit = False, None   # whole pages again
        return True


def test_the_shortfall_is_asked_for_and_given_back(tmp_path):
    k = FakeKernel(total=100, used=40)             # 60 free, someone else's
    assert huge_pages.reserve(tmp_path, 3 * GB_PAGES, k, log=lambda m: None) == 3 * GB_PAGES - 60
    assert k.nr == 100 + 3 * GB_PAGES - 60
    k.used += 3 * GB_PAGES                          # the server maps its pool
    assert huge_pages.give_back(tmp_path, k) == 0   # still mapped: nothing to give
    k.used -= 3 * GB_PAGES                          # it stops
    assert huge_pages.give_back(tmp_path, k) == 3 * GB_PAGES - 60
    assert k.nr == 100                              # the others' pages stay
    assert not (tmp_path / huge_pages.RECORD).exists()


def test_pages_an_operator_set_are_used_and_none_asked_for(tmp_path):
    k = FakeKernel(total=4 * GB_PAGES)
    assert huge_pages.reserve(tmp_path, 3 * GB_PAGES, k, log=lambda m: None) == 0
    assert k.nr == 4 * GB_PAGES
    assert huge_pages.give_back(tmp_path, k) == 0
    assert k.nr == 4 * GB_PAGES


@pytest.mark.parametrize("case", ["small pool", "over half of memory", "turned off", "kernel short"])
def test_what_keeps_ordinary_pages(tmp_path, monkeypatch, case):
    k = FakeKernel(mem_kb=8 * 2**20)
    pages = 2 * GB_PAGES
    if case == "small pool":
        pages = GB_PAGES // 2
    elif case == "over half of memory":
        pages = 5 * GB_PAGES
    elif case == "turned off":
        monkeypatch.setenv("VOYAGER_HUGE_PAGES", "0")
    else:
        k.limit = GB_PAGES                          # fragmented memory: half of what is asked
    told = []
    assert huge_pages.reserve(tmp_path, pages, k, log=told.append) == 0
    assert k.nr == 0
    assert not (tmp_path / huge_pages.RECORD).exists()
    if case in ("over half of memory", "kernel short"):
        assert told and "ordinary pages" in told[0]


def test_a_record_of_another_boot_gives_nothing_back(tmp_path):
    k = FakeKernel()
    huge_pages.reserve(tmp_path, 2 * GB_PAGES, k, log=lambda m: None)
    rebooted = FakeKernel(total=GB_PAGES, boot="boot-2")      # an operator's pages after a reboot
    assert huge_pages.give_back(tmp_path, rebooted) == 0
    assert rebooted.nr == GB_PAGES


def test_a_mapping_in_huge_pages_is_counted(tmp_path):
    (tmp_path / "7").mkdir()
    (tmp_path / "7" / "smaps").write_text(
        "7f00-7f10 rw-s 00000000 00:01 1 /anon_hugepage (deleted)\nSize:            6459392 kB\n"
        "KernelPageSize:     2048 kB\n55-56 r-xp 0 0:0 0 /usr/lib/postgresql/15/bin/postgres\n"
        "Size:               8000 kB\nKernelPageSize:        4 kB\n")
    assert huge_pages.in_use_mb(7, root=tmp_path) == 6308
    assert huge_pages.in_use_mb(8, root=tmp_path) is None


def test_what_a_stopped_cluster_needs_follows_its_settings():
    base = Path(tempfile.mkdtemp(prefix="voyager-test-"))
    os.chmod(base, 0o755)
    cluster = Cluster(datadir=base / "data", port=free_port(), settings={"shared_buffers": "1100MB"})
    try:
        cluster.init()
        assert huge_pages.needed(cluster) >= 1100 // 2
        with open(cluster.datadir / "postgresql.conf", "a") as fh:
            fh.write("huge_pages = off\n")
        assert huge_pages.needed(cluster) == 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _may_ask_the_kernel() -> bool:
    return os.geteuid() == 0 and os.access("/proc/sys/vm/nr_hugepages", os.W_OK)


@pytest.mark.skipif(not _may_ask_the_kernel(), reason="only root may change vm.nr_hugepages")
def test_a_gigabyte_pool_runs_in_huge_pages_and_gives_them_back():
    kernel = huge_pages.Kernel()
    if kernel.meminfo().get("MemTotal", 0) < 6 * 2**20:
        pytest.skip("too little memory for a gigabyte of huge pages beside the tests")
    before = kernel.total()
    base = Path(tempfile.mkdtemp(prefix="voyager-test-"))
    os.chmod(base, 0o755)
    cluster = Cluster(datadir=base / "data", port=free_port(), log=lambda m: None,
                      settings={"fsync": "off", "shared_buffers": "1100MB", "huge_pages": "on"})
    try:
        cluster.init()
        # pages already free (another cluster's, left by a kill) are used before any are asked for
        short = max(0, huge_pages.needed(cluster) - kernel.available())
        cluster.start()                 # huge_pages = on: the server refuses to start without them
        assert huge_pages.in_use_mb(cluster.postmaster_pid()) >= 1100
        assert kernel.total() == before + short
    finally:
        cluster.stop()
        shutil.rmtree(base, ignore_errors=True)
    assert kernel.total() == before


def test_memory_in_pieces_is_compacted_and_asked_again(tmp_path):
    """The page cache has cut free memory into pieces: the kernel gives part
    of the pages asked for until it has compacted it, then all of them."""
    k = FakeKernel(mem_kb=8 * 2**20, limit=GB_PAGES // 4)
    k.fragmented = True
    told = []
    assert huge_pages.reserve(tmp_path, 2 * GB_PAGES, k, log=told.append) == 2 * GB_PAGES
    assert k.compactions == 1 and k.nr == 2 * GB_PAGES
    assert "asked of the kernel" in told[-1]
