"""`voyager`: the one entry point (operators, workers, the demo)."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from . import db
from .config import Config

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def cmd_db(args, cfg: Config) -> int:
    if args.action == "up":
        db.up(cfg)
    elif args.action == "down":
        db.down(cfg)
    elif args.action == "deploy":
        db.deploy(cfg)
    elif args.action == "dsn":
        print(cfg.pooled_dsn if args.pooled else cfg.dsn)
    elif args.action == "status":
        info = db.status(cfg)
        print(json.dumps(info, indent=2))
        return 0 if "error" not in info else 1
    elif args.action == "psql":
        dsn = cfg.pooled_dsn if args.pooled else cfg.dsn
        os.execvp("psql", ["psql", dsn, *args.rest])
    return 0


def cmd_plan(args, cfg: Config) -> int:
    from workers.planner import plan, read_groups_json

    if args.corpus:
        listing = read_groups_json(Path(args.corpus))
    else:
        from workers.nntp import NntpConfig, list_active

        listing = list_active(NntpConfig.from_env(), args.wildmat)
    with db.connect(cfg) as conn:
        rows = plan(conn, listing, args.wildmat)
    added = sum(1 for r in rows if r[2])
    print(json.dumps({
        "groups_listed": len(rows),
        "groups_added": added,
        "ranges_added": sum(r[3] for r in rows),
        "ranges_grown": sum(r[4] for r in rows),
        "articles_planned": sum(r[5] for r in rows),
    }))
    return 0


def cmd_status(args, cfg: Config) -> int:
    from .status import print_status

    with db.connect(cfg) as conn:
        print_status(conn, limit=args.limit, as_json=getattr(args, "json", False))
    return 0


def cmd_tick(args, cfg: Config) -> int:
    """The periodic jobs of voyager.jobs (the tail planner, settling, partitions)."""
    from . import tick

    return tick.main(args, cfg.dsn)


DEMO = dict(seed=1, groups=6, lines=2_500_000, days=3, range_articles=500_000, chunk_articles=50_000)


def demo_corpus(cfg: Config) -> Path:
    """The embedded default's corpus: generated once under $VOYAGER_HOME
    (regenerated only when its parameters change)."""
    from sim.generate import Options, generate

    out = cfg.home / "corpus"
    marker = out / ".demo.json"
    wanted = json.dumps(DEMO, sort_keys=True)
    if not (out / "truth.jsonl").exists() or not marker.exists() or marker.read_text() != wanted:
        import shutil

        shutil.rmtree(out, ignore_errors=True)
        print(f"generating the demo corpus in {out} (once)", flush=True)
        summary = generate(Options(out=out, bodies=False, **DEMO))
        print(json.dumps(summary), flush=True)
        marker.write_text(wanted)
    return out


def cmd_demo(args, cfg: Config) -> int:
    """The main job on the embedded default: the database and pgbouncer, a
    generated corpus served by the simulator, the plan from its LIST ACTIVE,
    workers until idle, then the status and the fidelity against the truth.
    Idempotent: a second run finds everything indexed and says so."""
    import socket
    import subprocess
    import time

    db.up(cfg)
    corpus = demo_corpus(cfg)
    from sim.stats import corpus_stats

    print(json.dumps({"corpus": str(corpus), **{k: v for k, v in corpus_stats(corpus).items()
                                                 if k.startswith("share") or k.endswith("per_line")}}), flush=True)
    with db.connect(cfg) as conn:
        if not conn.execute("SELECT count(*) FROM voyager.groups").fetchone()[0]:
            # the corpus's grid, before the first plan
            for name in ("range_articles", "chunk_articles"):
                conn.execute("UPDATE voyager.settings SET value = %s WHERE name = %s", (str(DEMO[name]), name))
    port = int(os.environ.get("VOYAGER_DEMO_NNTP_PORT") or 0)
    if not port:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    log = open(cfg.home / "sim-demo.log", "ab")
    sim = subprocess.Popen([sys.executable, "-m", "sim.server", "--corpus", str(corpus), "--port", str(port)],
                           stdout=log, stderr=log, cwd=PROJECT_ROOT)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        os.environ.update(VOYAGER_NNTP_HOST="127.0.0.1", VOYAGER_NNTP_PORT=str(port))
        os.environ.setdefault("VOYAGER_NNTP_CONNECTIONS", "8")
        args.corpus, args.wildmat = None, None
        cmd_plan(args, cfg)                        # LIST ACTIVE of the simulator
        t0 = time.monotonic()
        threads = os.environ.get("VOYAGER_DEMO_THREADS", "2")
        rc = subprocess.call([sys.executable, "-m", "workers.worker", "--threads", threads, "--until-idle",
                              "--flush-at-end", "--node", "demo"], cwd=PROJECT_ROOT)
        wall = time.monotonic() - t0
        if rc:
            raise RuntimeError(f"the workers exited with {rc}")
    finally:
        sim.terminate()
        sim.wait(10)
        log.close()
    args.limit, args.json = 50, False
    cmd_status(args, cfg)
    from workers.catalog import catalog_fidelity

    with db.connect(cfg) as conn:
        headers, releases = conn.execute(
            "SELECT (SELECT coalesce(sum(headers), 0) FROM voyager.ranges), "
            "(SELECT count(*) FROM voyager.releases)").fetchone()
        print(json.dumps({"headers_indexed": int(headers), "releases": releases,
                          "workers_wall_seconds": round(wall, 1),
                          "fidelity": catalog_fidelity(conn, corpus)}), flush=True)
    print(f"look: `voyager status`, `voyager db psql` (voyager.releases, voyager.status_ranges, "
          f"voyager.nntp_claims), the simulator's log {cfg.home / 'sim-demo.log'}, the spool {cfg.home / 'spool'}")
    return 0


SIM_VERBS = {
    "generate": "sim.generate",        # a corpus with its ground truth
    "serve": "sim.server",             # an NNTP server for any corpus
    "stats": "sim.stats",              # the proportions a corpus holds
    "bench-server": "sim.bench_server",  # the server's lines per second
}


def cmd_sim(args, cfg: Config) -> int:
    """The simulated Usenet; each verb has its own options (`voyager sim VERB -h`)."""
    import importlib

    module = importlib.import_module(SIM_VERBS[args.verb])
    return module.main(args.args) or 0


BENCHES = {"window": "workers.bench", "store": "workers.bench_store", "nzb": "workers.bench_nzb", "e2e": "workers.bench_e2e",
           "api": "web.bench"}


def cmd_bench(args, cfg: Config) -> int:
    """Benchmarks print one JSON line each (`voyager bench window -h`)."""
    import importlib

    if args.what not in BENCHES:
        raise ValueError(f"no benchmark named {args.what}")
    return importlib.import_module(BENCHES[args.what]).main(args.args) or 0


def cmd_worker(args, cfg: Config) -> int:
    """Index: `voyager worker -h`."""
    from workers import worker

    return worker.main(args.args) or 0


def cmd_replay(args, cfg: Config) -> int:
    """Offline through the window (`--window-only`), or through the database's leases and store."""
    if args.window_only:
        from workers import replay

        return replay.main(args.rest) or 0
    from workers import catalog

    return catalog.main(args.rest) or 0


def cmd_web(args, cfg: Config) -> int:
    """The Newznab API and the web pages."""
    from web import server

    return server.serve(args.host, args.port, args.workers, args.dsn, args.access_log) or 0


def cmd_users(args, cfg: Config) -> int:
    """API users: `voyager users add NAME [--role ROLE]` prints the new key (`voyager users -h`)."""
    from web import users

    return users.main(args.args, cfg.dsn) or 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="voyager", description="Voyager, a header-first Usenet indexer")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("db", help="the database: up, down, status, dsn, deploy, psql")
    d.add_argument("action", choices=["up", "down", "status", "dsn", "deploy", "psql"])
    d.add_argument("--pooled", action="store_true", help="dsn/psql: through pgbouncer")
    d.add_argument("rest", nargs="*", help="psql: further arguments, after --")
    d.set_defaults(func=cmd_db)

    pl = sub.add_parser("plan", help="plan groups from LIST ACTIVE data (the news server's, or a corpus's)")
    pl.add_argument("--corpus", help="a corpus folder with groups.json; without it, LIST ACTIVE of VOYAGER_NNTP_HOST")
    pl.add_argument("--wildmat", help="only the groups this RFC 3977 wildmat accepts")
    pl.set_defaults(func=cmd_plan)

    st = sub.add_parser("status", help="print the status views")
    st.add_argument("--limit", type=int, default=50, help="rows per view at most")
    st.add_argument("--json", action="store_true", help="one JSON object: a key per view")
    st.set_defaults(func=cmd_status)

    tk = sub.add_parser("tick", help="run the periodic jobs (voyager.jobs): the tail planner, settling, partitions")
    tk.add_argument("--once", action="store_true", help="run every due job once, then exit")
    tk.add_argument("--interval", type=float, default=5.0,
                    help="seconds between looks for due jobs at most (default 5)")
    tk.add_argument("--node", help="the name recorded as the jobs' last runner (default HOST/tick)")
    tk.add_argument("-v", "--verbose", action="store_true")
    tk.set_defaults(func=cmd_tick)

    si = sub.add_parser("sim", help="the simulated Usenet: generate, serve, stats, bench-server",
                        add_help=False)
    si.add_argument("verb", choices=sorted(SIM_VERBS))
    si.add_argument("args", nargs=argparse.REMAINDER)
    si.set_defaults(func=cmd_sim)

    be = sub.add_parser("bench", help="benchmarks: " + ", ".join(sorted(BENCHES)), add_help=False)
    be.add_argument("what", choices=sorted(BENCHES))
    be.add_argument("args", nargs=argparse.REMAINDER)
    be.set_defaults(func=cmd_bench)

    rp = sub.add_parser("replay", add_help=False,
                        help="replay a corpus: into a _replay database (default) or --window-only offline")
    rp.add_argument("--window-only", action="store_true")
    rp.add_argument("--into-db", action="store_true", help=argparse.SUPPRESS)   # the default; kept for scripts
    rp.add_argument("rest", nargs=argparse.REMAINDER)
    rp.set_defaults(func=cmd_replay)

    wk = sub.add_parser("worker", help="index: lease groups, fetch, run the window, store (`voyager worker -h`)",
                        add_help=False)
    wk.add_argument("args", nargs=argparse.REMAINDER)
    wk.set_defaults(func=cmd_worker)

    we = sub.add_parser("web", help="the Newznab API and the web pages")
    we.add_argument("--host", default=os.environ.get("VOYAGER_WEB_HOST", "127.0.0.1"))
    we.add_argument("--port", type=int, default=int(os.environ.get("VOYAGER_WEB_PORT", "8780")))
    we.add_argument("--workers", type=int, default=0, help="worker processes (0: one per CPU)")
    we.add_argument("--dsn", help="the database (default VOYAGER_WEB_DSN, else the local cluster)")
    we.add_argument("--access-log", action="store_true")
    we.set_defaults(func=cmd_web)

    us = sub.add_parser("users", help="API users: add NAME [--role ROLE] prints the key; list; set", add_help=False)
    us.add_argument("args", nargs=argparse.REMAINDER)
    us.set_defaults(func=cmd_users)

    de = sub.add_parser("demo", help="run the main job on the embedded default")
    de.set_defaults(func=cmd_demo)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["worker"]:            # its options are its own (`voyager worker -h`)
        from workers import worker

        return worker.main(argv[1:]) or 0
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "replay":       # replay hands its options on whole
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "replay":
        args.rest = extra + args.rest
    cfg = Config.from_env()
    try:
        return args.func(args, cfg) or 0
    except (RuntimeError, FileNotFoundError, ValueError) as e:
        print(f"voyager: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
