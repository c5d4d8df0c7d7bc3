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

    listing = read_groups_json(Path(args.corpus))
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
        print_status(conn, limit=args.limit)
    return 0


def demo_corpus(cfg: Config) -> Path:
    """The embedded default's corpus: generated once under $VOYAGER_HOME."""
    from sim.generate import Options, generate

    out = cfg.home / "corpus"
    if not (out / "truth.jsonl").exists():
        import shutil

        shutil.rmtree(out, ignore_errors=True)
        print(f"generating the demo corpus in {out}")
        summary = generate(Options(out=out, seed=1, groups=6, lines=300_000, days=3,
                                   range_articles=50_000, chunk_articles=10_000))
        print(json.dumps(summary))
    return out


def cmd_demo(args, cfg: Config) -> int:
    """The main job on the embedded default. At this stage: the database, the
    schema, a generated corpus (the simulated Usenet), a plan of its groups,
    and the status."""
    db.up(cfg)
    corpus = demo_corpus(cfg)
    from sim.stats import corpus_stats

    print(json.dumps({"corpus": str(corpus), **{k: v for k, v in corpus_stats(corpus).items()
                                                 if k.startswith("share") or k.endswith("per_line")}}))
    args.corpus, args.wildmat = str(corpus), None
    cmd_plan(args, cfg)
    args.limit = 50
    return cmd_status(args, cfg)


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


def cmd_bench(args, cfg: Config) -> int:
    """Benchmarks print one JSON line each (`voyager bench window -h`)."""
    if args.what == "api":
        from web import bench as web_bench

        return web_bench.main(args.args) or 0
    from workers import bench

    if args.what != "window":
        raise ValueError(f"no benchmark named {args.what}")
    return bench.main(args.args) or 0


def cmd_replay(args, cfg: Config) -> int:
    if args.into_db:
        from workers import catalog

        return catalog.main(args.corpus, cfg.dsn)
    from workers import replay

    return replay.main(["--corpus", args.corpus]) or 0


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

    pl = sub.add_parser("plan", help="plan groups from LIST ACTIVE data")
    pl.add_argument("--corpus", required=True, help="a corpus folder with groups.json")
    pl.add_argument("--wildmat", help="only the groups this RFC 3977 wildmat accepts")
    pl.set_defaults(func=cmd_plan)

    st = sub.add_parser("status", help="print the status views")
    st.add_argument("--limit", type=int, default=50)
    st.set_defaults(func=cmd_status)

    si = sub.add_parser("sim", help="the simulated Usenet: generate, serve, stats, bench-server",
                        add_help=False)
    si.add_argument("verb", choices=sorted(SIM_VERBS))
    si.add_argument("args", nargs=argparse.REMAINDER)
    si.set_defaults(func=cmd_sim)

    be = sub.add_parser("bench", help="benchmarks: window, api", add_help=False)
    be.add_argument("what", choices=["window", "api"])
    be.add_argument("args", nargs=argparse.REMAINDER)
    be.set_defaults(func=cmd_bench)

    rp = sub.add_parser("replay", help="replay a corpus through the window (offline), with its fidelity")
    rp.add_argument("--corpus", required=True)
    rp.add_argument("--into-db", action="store_true",
                    help="through the database: leases, store_batch, then the catalog's fidelity and sizes")
    rp.set_defaults(func=cmd_replay)

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
    args = build_parser().parse_args(argv)
    cfg = Config.from_env()
    try:
        return args.func(args, cfg) or 0
    except (RuntimeError, FileNotFoundError, ValueError) as e:
        print(f"voyager: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
