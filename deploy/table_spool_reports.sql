-- Deploy voyager:table_spool_reports to pg
BEGIN;
-- What each worker machine's spool ($VOYAGER_HOME/spool) holds, as its worker
-- last reported it (voyager.report_spool): one row a node, replaced by each report.
CREATE TABLE voyager.spool_reports (
    node        text PRIMARY KEY CHECK (node <> ''),
    bytes       bigint NOT NULL CHECK (bytes >= 0),
    files       integer NOT NULL CHECK (files >= 0),
    cap_bytes   bigint CHECK (cap_bytes >= 0),       -- VOYAGER_SPOOL_MB, when the worker says
    reported_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.spool_reports IS 'Each node''s spool (fetched chunks on disk) as last reported';
COMMIT;
