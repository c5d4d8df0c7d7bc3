-- Deploy voyager:table_spool_reports to pg
-- What each worker machine's spool ($VOYAGER_HOME/spool) holds, as its worker
-- last reported it (voyager.report_spool): one row a node, replaced by each report.
BEGIN;
CREATE TABLE voyager.spool_reports (
    node        text PRIMARY KEY CHECK (node <> ''),
    bytes       bigint NOT NULL CHECK (bytes >= 0),
    files       integer NOT NULL CHECK (files >= 0),
    cap_bytes   bigint CHECK (cap_bytes >= 0),       -- VOYAGER_SPOOL_MB, when the worker says
    reported_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.spool_reports IS 'Each node''s spool (fetched chunks on disk) as last reported';

CREATE FUNCTION voyager.report_spool(p_node text, p_bytes bigint, p_files integer, p_cap_bytes bigint DEFAULT NULL)
RETURNS void
LANGUAGE sql AS $$
    INSERT INTO voyager.spool_reports AS s (node, bytes, files, cap_bytes, reported_at)
    VALUES (p_node, p_bytes, p_files, p_cap_bytes, now())
        ON CONFLICT (node) DO UPDATE
       SET bytes = excluded.bytes, files = excluded.files,
           cap_bytes = coalesce(excluded.cap_bytes, s.cap_bytes), reported_at = excluded.reported_at
$$;
COMMENT ON FUNCTION voyager.report_spool(text, bigint, integer, bigint)
    IS 'A worker''s report of its spool: bytes and files now (and its cap); replaces the node''s last report';
COMMIT;
