"""CPU seconds of processes, read from /proc: what the benchmarks and the
replay quote (a server on this machine only; None where /proc cannot tell)."""
from __future__ import annotations

import os
from pathlib import Path

import psycopg

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state first)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def alive(pid: int | None) -> bool:
    """The process is there and not a zombie (killed, not reaped yet)."""
    try:
        return pid is not None and _stat(pid)[0] != "Z"
    except OSError:
        return False


def parent(pid: int) -> int | None:
    try:
        return int(_stat(pid)[1])
    except (OSError, IndexError, ValueError):
        return None


def proc_cpu(pid: int) -> float | None:
    """utime + stime of one process."""
    try:
        f = _stat(pid)
    except OSError:
        return None
    return (int(f[11]) + int(f[12])) / TICK


def backend_cpu(conn: psycopg.Connection) -> float | None:
    """This connection's backend alone."""
    return proc_cpu(conn.info.backend_pid)


def application_cpu(conn: psycopg.Connection, application: str) -> dict[int, float]:
    """The CPU of each client backend of conn's database that an application
    holds (by its application_name): the backends a web's pool keeps open,
    apart from whatever else the server is doing meanwhile."""
    pids = [r[0] for r in conn.execute(
        """SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s
              AND backend_type = 'client backend' AND pid <> pg_backend_pid()""", (application,))]
    return {pid: cpu for pid in pids if (cpu := proc_cpu(pid)) is not None}


def server_cpu(postmaster: int) -> float | None:
    """The whole server: the postmaster, the children it reaped (its cutime and
    cstime: backends that ended) and the live ones (backends, autovacuum, the
    WAL and checkpoint writers), so work moved out of a backend still counts.
    A backend reaped while its siblings are read is in neither the
    postmaster's first reading nor the scan: the scan is read again until the
    postmaster's reaped time holds still across it."""
    for _ in range(20):
        try:
            before = _stat(postmaster)
        except OSError:
            return None
        total = sum(int(x) for x in before[11:15])         # utime stime cutime cstime
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    s = _stat(int(entry))
                except OSError:
                    continue
                if int(s[1]) == postmaster:
                    total += int(s[11]) + int(s[12])
        try:
            after = _stat(postmaster)
        except OSError:
            return None
        if after[13:15] == before[13:15]:
            break
    return total / TICK


def postgres_cpu(conn: psycopg.Connection) -> float | None:
    """server_cpu of the server a connection is on (its backend's parent)."""
    try:
        postmaster = int(_stat(conn.info.backend_pid)[1])
    except OSError:
        return None
    return server_cpu(postmaster)


def host_speed(dsn: str, repeats: int = 3) -> dict:
    """The host's speed now, as fixed work takes it: a Python loop in this
    process and a count in a backend, CPU milliseconds (the median of
    `repeats`). A shared host's speed drifts by a third within an hour; two
    sittings' absolute figures compare only beside these."""
    import statistics
    import time

    def python_ms() -> float:
        started = time.process_time()
        total = 0
        for i in range(2_000_000):
            total += i & 7
        return (time.process_time() - started) * 1000

    with psycopg.connect(dsn, autocommit=True) as conn:
        def postgres_ms() -> float:
            before = backend_cpu(conn)
            conn.execute("SELECT count(*) FROM generate_series(1, 3000000)").fetchone()
            after = backend_cpu(conn)
            return (after - before) * 1000 if before is not None and after is not None else float("nan")

        postgres_ms()                                       # the backend's first call out of the way
        return {"python_ms": round(statistics.median(python_ms() for _ in range(repeats)), 1),
                "postgres_ms": round(statistics.median(postgres_ms() for _ in range(repeats)), 1)}
