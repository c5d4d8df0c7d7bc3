"""Thin workers: they fetch NNTP and run the window; everything else is a
call of a stored function in schema `voyager`."""
import logging
import os

log = logging.getLogger("voyager.workers")


def start_logging(verbose: bool) -> None:
    """A worker's log on stderr: INFO with -v, else warnings and errors."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(message)s")


def claimant_arguments(p) -> None:
    """The arguments every phase 2 claimant takes (voyager probe, voyager namer)."""
    p.add_argument("--node", help="the claims' node name (default the host's)")
    p.add_argument("--dsn", help="the database (default VOYAGER_WORKER_DSN, else the pooled DSN)")
    p.add_argument("-v", "--verbose", action="store_true")


def claimant(args, role: str) -> tuple[str, str]:
    """A claimant started from its arguments: the log, its database and its
    claims' node name (the host's, or --node, then /role)."""
    start_logging(args.verbose)
    from voyager.config import Config
    return args.dsn or Config.from_env().worker_dsn, (args.node or os.uname().nodename) + "/" + role


def claim_connections(conn, pool, node: str, role: str, want: int, limit: int, granted: int) -> int:
    """This process's share of the account's NNTP connections for a role,
    claimed or renewed (voyager.nntp_claim), the pool sized to it; `granted`,
    the share before, tells when to log a change."""
    got = conn.execute("SELECT voyager.nntp_claim(%s, %s, %s::integer, %s::integer, %s::integer)",
                       (node, role, want, limit, pool.open_connections)).fetchone()[0]
    if got != granted:
        log.info("%s: %d NNTP connections granted for %s (wanted %d)", node, got, role, want)
    pool.resize(got)
    return got
