-- Deploy voyager:table_nodes to pg
BEGIN;
CREATE TABLE voyager.nodes (
    name          text PRIMARY KEY CHECK (name <> ''),
    first_seen_at timestamptz NOT NULL DEFAULT now(),
    seen_at       timestamptz NOT NULL DEFAULT now(),
    info          jsonb NOT NULL DEFAULT '{}'::jsonb   -- host, threads, version, as the worker reports them
);
COMMENT ON TABLE voyager.nodes IS 'Worker machines (or processes) that have held leases';
COMMIT;
