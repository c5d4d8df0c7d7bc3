"""Every benchmark and measurement, apart from the product: `voyager bench
window|store|e2e|nzb|api` (window, store, e2e, nzb, api with the catalog it
builds), `voyager sim bench-server` (server), the offline replay and its
fidelity against a corpus's truth (replay, `voyager replay --window-only`), the
release chunk codec (`python -m bench.codec`), the Newznab documents
(`python -m bench.feeds`) and the CPU of processes they quote (cpu). Each
prints one JSON line, but feeds (a table)."""
