"""`voyager`: the one entry point (operators, workers, the demo), on top of
the library in voyager/ (config, db, status, ...); the users command is
voyager.cli.users."""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import db
from ..config import Config

PROJECT_ROOT = Path(__file__).resolve().parents[2]


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
        from workers.planner import list_active_claimed

        with db.connect(cfg) as conn:      # its connection from the account's budget
            listing = list_active_claimed(conn, f"{os.uname().nodename}/plan", None, args.wildmat)
    with db.connect(cfg) as conn:
        rows = plan(conn, listing, args.wildmat)
    added = sum(1 for r in rows if r[2])
    refused = {r[0]: r[6] for r in rows if r[6] is not None}
    print(json.dumps({
        "groups_listed": len(rows),
        "groups_added": added,
        "groups_refused": len(refused),
        "refused": refused,
        "ranges_added": sum(r[3] for r in rows),
        "ranges_grown": sum(r[4] for r in rows),
        "articles_planned": sum(r[5] for r in rows),
    }))
    return 0


def cmd_ranges(args, cfg: Config) -> int:
    """`voyager ranges retry [--group G]`: failed ranges planned again (voyager.retry_ranges)."""
    import psycopg

    with db.connect(cfg) as conn:
        try:
            n = conn.execute("SELECT voyager.retry_ranges(%s)", (args.group,)).fetchone()[0]
        except psycopg.errors.InvalidParameterValue as e:
            raise ValueError(str(e).splitlines()[0]) from e
    print(json.dumps({"group": args.group, "ranges_retried": n}))
    return 0


def cmd_status(args, cfg: Config) -> int:
    from ..status import print_status

    with db.connect(cfg) as conn:
        print_status(conn, limit=args.limit, as_json=getattr(args, "json", False))
    return 0


def cmd_tick(args, cfg: Config) -> int:
    """The periodic jobs of voyager.jobs (the tail planner, settling, partitions)."""
    from .. import tick

    return tick.main(args, args.dsn or cfg.dsn)


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


def demo_key(cfg: Config, conn) -> str:
    """The demo user's API key: made once and kept in $VOYAGER_HOME/demo-api-key
    (the database keeps only its hash, so a rerun cannot read it back); a new
    one when the file is gone."""
    from .users import add, new_key

    path = cfg.home / "demo-api-key"
    found = conn.execute("SELECT id FROM voyager.users WHERE name = 'demo'").fetchone()
    if found is not None and path.exists():
        key = path.read_text().strip()
        if conn.execute("SELECT 1 FROM voyager.users WHERE id = %s AND api_key_hash = voyager.api_key_hash(%s)",
                        (found[0], key)).fetchone():
            return key
    key = new_key(conn, found[0]) if found is not None else add(conn, "demo", "admin")
    path.touch(mode=0o600)
    path.write_text(key + "\n")
    return key


def cmd_demo(args, cfg: Config) -> int:
    """The main job on the embedded default: the database and pgbouncer, a
    generated corpus served by the simulator with its live tail on, the plan
    from its LIST ACTIVE, the web server and `voyager tick`, history workers
    until the corpus is indexed (then the status and the fidelity against the
    truth), and a tail worker following the live groups, until Ctrl-C (or
    VOYAGER_DEMO_SECONDS). Idempotent: a second run finds the history indexed
    and goes on with the tail."""
    import signal
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
        # the live tail planned every 30 s rather than 2 minutes: a demo is watched
        conn.execute("UPDATE voyager.settings SET value = '30' WHERE name = 'tail_plan_seconds'")
        api_key = demo_key(cfg, conn)

    from voyager.cluster import free_port

    nntp_port = int(os.environ.get("VOYAGER_DEMO_NNTP_PORT") or 0) or free_port()
    web_port = int(os.environ.get("VOYAGER_WEB_PORT") or 8780)
    os.environ.update(VOYAGER_NNTP_HOST="127.0.0.1", VOYAGER_NNTP_PORT=str(nntp_port))
    os.environ.setdefault("VOYAGER_NNTP_CONNECTIONS", "8")
    children: list[subprocess.Popen] = []

    def start(name: str, cmd: list[str]) -> subprocess.Popen:
        log = open(cfg.home / f"{name}-demo.log", "ab")
        child = subprocess.Popen(cmd, stdout=log, stderr=log, cwd=PROJECT_ROOT)
        children.append(child)
        return child

    stop = {"now": False}

    def on_signal(*_a):
        stop["now"] = True

    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        live_rate = os.environ.get("VOYAGER_DEMO_LIVE_RATE", "20")
        start("sim", [sys.executable, "-m", "sim.server", "--corpus", str(corpus), "--port", str(nntp_port),
                      "--live", "--live-rate", live_rate])
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", nntp_port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        args.corpus, args.wildmat = None, None
        cmd_plan(args, cfg)                        # LIST ACTIVE of the simulator
        start("web", [sys.executable, "-m", "voyager.cli", "web", "--port", str(web_port), "--workers", "1"])
        start("tick", [sys.executable, "-m", "voyager.cli", "tick"])
        t0 = time.monotonic()
        threads = os.environ.get("VOYAGER_DEMO_THREADS", "2")
        history = subprocess.Popen([sys.executable, "-m", "workers.worker", "--threads", threads, "--until-idle",
                                    "--node", "demo"], cwd=PROJECT_ROOT)
        while history.poll() is None:
            if stop["now"]:
                history.send_signal(signal.SIGTERM)     # the batch in hand, the lease end, the snapshot
                history.wait()
                return 0
            time.sleep(0.5)
        wall = time.monotonic() - t0
        if history.returncode:
            raise RuntimeError(f"the history workers exited with {history.returncode}")
        args.limit, args.json = 50, False
        cmd_status(args, cfg)
        from workers.replay import catalog_fidelity

        with db.connect(cfg) as conn:
            headers, releases = conn.execute(
                "SELECT (SELECT coalesce(sum(headers), 0) FROM voyager.ranges), "
                "(SELECT count(*) FROM voyager.releases)").fetchone()
            print(json.dumps({"headers_indexed": int(headers), "releases": releases,
                              "history_workers_wall_seconds": round(wall, 1),
                              "fidelity": catalog_fidelity(conn, corpus)}), flush=True)
        print("(uploads still open at the corpus's end, most albums among them, are provisional: the tail "
              "lane takes over the history's window and finishes them as its frontier passes)", flush=True)
        os.environ.setdefault("VOYAGER_TAIL_POLL_SECONDS", "10")      # a demo is watched: ask again often
        start("tail", [sys.executable, "-m", "workers.worker", "--threads", "0", "--tail-threads", "1",
                       "--node", "demo-tail"])
        url = f"http://127.0.0.1:{web_port}"
        print(f"""
The history is indexed; the tail follows the simulator's live groups.
  web pages   {url}/            (sign in as demo with the key below)
  Newznab API {url}/api?t=caps   and  {url}/api?t=search&apikey={api_key}
  API key     {api_key}          (user demo, role admin)
  status      .venv/bin/voyager status      or  .venv/bin/voyager db psql  (SELECT * FROM voyager.status_throughput;)
  logs        {cfg.home}/sim-demo.log, web-demo.log, tick-demo.log, tail-demo.log
Ctrl-C stops the demo (the database keeps running: make down stops it).""", flush=True)
        limit = float(os.environ.get("VOYAGER_DEMO_SECONDS") or 0)
        started = last = time.monotonic()
        while not stop["now"] and (not limit or time.monotonic() - started < limit):
            if time.monotonic() - last >= 30:           # what the tail did, a line every 30 s
                last = time.monotonic()
                with db.connect(cfg) as conn:
                    row = conn.execute(
                        "SELECT (SELECT count(*) FROM voyager.releases), "
                        "(SELECT count(*) FROM voyager.releases WHERE settled_at IS NULL), "
                        "(SELECT coalesce(sum(headers), 0) FROM voyager.range_batches "
                        "  WHERE stored_at > now() - interval '1 minute'), "
                        "(SELECT coalesce(sum(end_article - next_article + 1), 0) FROM voyager.ranges "
                        "  WHERE status IN ('planned', 'leased') AND priority <= voyager.setting_int('tail_priority'))"
                    ).fetchone()
                print(json.dumps(dict(zip(("releases", "provisional", "headers_last_minute", "tail_backlog"),
                                          (int(v) for v in row)))), flush=True)
            if any(c.poll() is not None for c in children):
                dead = [c.args for c in children if c.poll() is not None]
                raise RuntimeError(f"a demo process stopped: {dead[0]} (see its log under {cfg.home})")
            time.sleep(1)
        return 0
    finally:
        for child in reversed(children):        # the tail worker first: it writes its lease end
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        for child in reversed(children):
            try:
                child.wait(60)
            except subprocess.TimeoutExpired:
                child.kill()
        for sig, handler in old.items():
            signal.signal(sig, handler)


SIM_VERBS = {
    "generate": "sim.generate",        # a corpus with its ground truth
    "serve": "sim.server",             # an NNTP server for any corpus
    "stats": "sim.stats",              # the proportions a corpus holds
    "bench-server": "bench.server",  # the server's lines per second
}


def cmd_sim(args, cfg: Config) -> int:
    """The simulated Usenet; each verb has its own options (`voyager sim VERB -h`)."""
    import importlib

    module = importlib.import_module(SIM_VERBS[args.verb])
    return module.main(args.args) or 0


BENCHES = {"window": "bench.window", "store": "bench.store", "nzb": "bench.nzb", "e2e": "bench.e2e",
           "api": "bench.api", "probe": "bench.probe", "phase2-fidelity": "bench.phase2_fidelity", "judge-fidelity": "bench.judge_fidelity",
           "phase2": "bench.phase2", "judge": "bench.judge", "spots": "bench.spots",
           "spot-fidelity": "bench.spot_fidelity", "scale": "bench.scale"}


def cmd_bench(args, cfg: Config) -> int:
    """Benchmarks print one JSON line each (`voyager bench window -h`); the last
    line of a run is kept as $VOYAGER_HOME/bench/last-NAME.json (what `voyager
    capacity` reads its CPU figures from)."""
    import contextlib
    import importlib
    import io

    if args.what not in BENCHES:
        raise ValueError(f"no benchmark named {args.what}")

    class Tee(io.TextIOBase):
        def __init__(self, out):
            self.out, self.seen = out, []

        def write(self, text):
            self.seen.append(text)
            return self.out.write(text)

        def flush(self):
            self.out.flush()

    tee = Tee(sys.stdout)
    with contextlib.redirect_stdout(tee):
        rc = importlib.import_module(BENCHES[args.what]).main(args.args) or 0
    lines = "".join(tee.seen).strip().splitlines()
    if rc == 0 and lines:
        from ..capacity import record_bench

        record_bench(cfg, args.what, lines[-1])
    return rc


def cmd_worker(args, cfg: Config) -> int:
    """Index: `voyager worker -h`."""
    from workers import worker

    return worker.main(args.args) or 0


def cmd_replay(args, cfg: Config) -> int:
    """Offline through the window (`--window-only`), or through the database's leases and store."""
    if args.window_only:
        from bench import replay

        return replay.main(args.rest) or 0
    from workers import replay

    return replay.main(args.rest) or 0


def cmd_web(args, cfg: Config) -> int:
    """The Newznab API and the web pages."""
    from web import server

    return server.serve(args.host, args.port, args.workers, args.dsn, args.access_log, replicas=args.replica,
                        replica_max_lag=args.replica_max_lag) or 0


def _seconds(v: str) -> float:
    from web.config import seconds

    return seconds(v)


def cmd_users(args, cfg: Config) -> int:
    """API users: `voyager users add NAME [--role ROLE]` prints the new key (`voyager users -h`)."""
    from . import users

    return users.main(args.args, cfg.dsn) or 0


def cmd_rules(args, cfg: Config) -> int:
    """The window's rule sets: `voyager rules list|show [VERSION]|add FILE.json` (`voyager rules -h`)."""
    from . import rules

    return rules.main(args.args, cfg.dsn) or 0


def cmd_capacity(args, cfg: Config) -> int:
    """What a target catalog needs, from the live catalog's ratios (`voyager capacity -h`)."""
    from .. import capacity

    return capacity.main(args.args, cfg) or 0


def cmd_deploy(args, cfg: Config) -> int:
    """Other hosts: `voyager deploy units --out DIR` renders the systemd units (`voyager deploy units -h`)."""
    from . import deploy

    return deploy.main(args.args) or 0


def cmd_judge(args, cfg: Config) -> int:
    """The junk judge: `voyager judge run|daily`, `voyager judge --dry-run [--rules FILE.json | --version N]`."""
    from . import judge

    return judge.main(args.args, cfg.dsn) or 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="voyager", description="Voyager, a header-first Usenet indexer")
    sub = p.add_subparsers(dest="command", required=True)

    d = sub.add_parser("db", help="the database: up, down, status, dsn, deploy, psql; replica add|list|remove")
    d.add_argument("action", choices=["up", "down", "status", "dsn", "deploy", "psql", "replica"])
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

    rg = sub.add_parser("ranges", help="ranges: retry the failed ones (their lanes leasable again)")
    rg.add_argument("action", choices=["retry"])
    rg.add_argument("--group", help="only this group's (default: every group's)")
    rg.set_defaults(func=cmd_ranges)

    tk = sub.add_parser("tick", help="run the periodic jobs (voyager.jobs): the tail planner, settling, partitions")
    tk.add_argument("--once", action="store_true", help="run every due job once, then exit")
    tk.add_argument("--interval", type=float, default=5.0,
                    help="seconds between looks for due jobs at most (default 5)")
    tk.add_argument("--node", help="the name recorded as the jobs' last runner (default HOST/tick)")
    tk.add_argument("--dsn", help="the database (default VOYAGER_DSN, else the local cluster): another host's "
                    "tick needs only this, through pgbouncer")
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

    pr = sub.add_parser("probe", help="phase 2: claim probe targets, fetch their bodies, store what they show "
                        "(`voyager probe -h`)", add_help=False)
    pr.add_argument("args", nargs=argparse.REMAINDER)

    na = sub.add_parser("namer", help="phase 2: move named pending releases into the catalog, their headers "
                        "read again (`voyager namer -h`)", add_help=False)
    na.add_argument("args", nargs=argparse.REMAINDER)

    we = sub.add_parser("web", help="the Newznab API and the web pages")
    we.add_argument("--host", default=os.environ.get("VOYAGER_WEB_HOST", "127.0.0.1"))
    we.add_argument("--port", type=int, default=int(os.environ.get("VOYAGER_WEB_PORT", "8780")))
    we.add_argument("--workers", type=int, default=0, help="worker processes (0: one for every third core, 1 at least)")
    we.add_argument("--dsn", help="the database (default VOYAGER_WEB_DSN, else the local cluster)")
    we.add_argument("--access-log", action="store_true")
    we.add_argument("--replica", action="append", metavar="DSN",
                    help="a read replica to read from (again for more; `local`: the project's own, `voyager db "
                    "replica add`); default VOYAGER_WEB_REPLICAS, else none: every read on the primary")
    we.add_argument("--replica-max-lag", type=_seconds, metavar="SECONDS",
                    help="a replica whose catalog may be older than this is skipped until it catches up "
                    "(default VOYAGER_WEB_REPLICA_MAX_LAG, else 30)")
    we.set_defaults(func=cmd_web)

    us = sub.add_parser("users", help="API users: add NAME [--role ROLE] prints the key; list; set", add_help=False)
    us.add_argument("args", nargs=argparse.REMAINDER)
    us.set_defaults(func=cmd_users)

    ru = sub.add_parser("rules", help="the window's rule sets: list; show [VERSION]; add FILE.json [--note T]",
                        add_help=False)
    ru.add_argument("args", nargs=argparse.REMAINDER)
    ru.set_defaults(func=cmd_rules)

    ca = sub.add_parser("capacity", help="what a target catalog needs (disk, cores, connections, backfill "
                        "time), from the live catalog's measured ratios", add_help=False)
    ca.add_argument("args", nargs=argparse.REMAINDER)
    ca.set_defaults(func=cmd_capacity)

    dp = sub.add_parser("deploy", help="units: the systemd units of every role, rendered with this checkout's paths",
                        add_help=False)
    dp.add_argument("args", nargs=argparse.REMAINDER)
    dp.set_defaults(func=cmd_deploy)

    ju = sub.add_parser("judge", help="the junk judge: run; daily; --dry-run [--rules FILE.json | --version N]",
                        add_help=False)
    ju.add_argument("args", nargs=argparse.REMAINDER)
    ju.set_defaults(func=cmd_judge)

    de = sub.add_parser("demo", help="run the main job on the embedded default")
    de.set_defaults(func=cmd_demo)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["worker"]:            # its options are its own (`voyager worker -h`)
        from workers import worker

        return worker.main(argv[1:]) or 0
    if argv[:1] == ["probe"]:             # so are these (`voyager probe -h`)
        from workers import prober

        return prober.main(argv[1:]) or 0
    if argv[:2] == ["spots", "read"]:     # the spotter (`voyager spots read -h`)
        from workers import spotter

        return spotter.main(argv[2:]) or 0
    if argv[:2] == ["spots", "inspect"]:  # the spot inspector (`voyager spots inspect -h`)
        from workers import inspector

        return inspector.main(argv[2:]) or 0
    if argv[:2] == ["db", "replica"]:     # `voyager db replica add|list|remove`
        from . import replicas

        return replicas.main(argv[2:], Config.from_env()) or 0
    if argv[:1] == ["namer"]:
        from workers import namer

        return namer.main(argv[1:]) or 0
    if argv[:1] == ["capacity"]:          # its options come first (`voyager capacity -h`)
        from .. import capacity

        return capacity.main(argv[1:], Config.from_env()) or 0
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command not in ("replay", "judge"):       # these hand their options on whole
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "replay":
        args.rest = extra + args.rest
    if args.command == "judge":
        args.args = argv[argv.index("judge") + 1:]
    cfg = Config.from_env()
    try:
        return args.func(args, cfg) or 0
    except (RuntimeError, FileNotFoundError, ValueError) as e:
        print(f"voyager: {e}", file=sys.stderr)
        return 1
