"""Voyager: a header-first Usenet indexer whose logic lives in PostgreSQL.

This package holds the operator's side: configuration, the project's own
PostgreSQL cluster, sqitch deploys and the `voyager` command. The indexing
logic is in the database (deploy/), the workers in `workers/`.
"""
