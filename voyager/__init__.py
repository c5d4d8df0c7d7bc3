"""Voyager: a header-first Usenet indexer whose logic lives in PostgreSQL.

This package is the small library the workers and the web import:
configuration, the project's own PostgreSQL cluster, sqitch deploys, the
status views, the corpus layout and the tick's runner. The `voyager` command
sits on top of it in voyager.cli. The indexing logic is in the database
(deploy/), the workers in `workers/`, the benchmarks in `bench/`.
"""
