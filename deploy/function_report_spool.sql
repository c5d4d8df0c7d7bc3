-- Deploy voyager:function_report_spool to pg
BEGIN;
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
