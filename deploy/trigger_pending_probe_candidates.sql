-- Deploy voyager:trigger_pending_probe_candidates to pg
BEGIN;
-- A finished pending release's probe targets join the probe queue under its
-- key, so they are claimed the same way as a catalog release's (and before
-- them: random names first). Statement triggers over the transition table: a
-- batch's pending releases cost one INSERT, a batch without any next to nothing.
CREATE FUNCTION voyager.pending_probe_candidates() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO voyager.probe_candidates AS pc (pending_key, kind, message_id, file_index)
    SELECT DISTINCT ON (n.release_key, c.value ->> 0) n.release_key, c.value ->> 0, c.value ->> 1, (c.value ->> 2)::integer
      FROM written n
     CROSS JOIN LATERAL jsonb_array_elements(n.candidates) c
     WHERE n.finished AND n.status = 0 AND jsonb_typeof(n.candidates) = 'array'
        ON CONFLICT (pending_key, kind) WHERE pending_key IS NOT NULL
        DO UPDATE SET message_id = excluded.message_id, file_index = excluded.file_index
     WHERE pc.probed_at IS NULL;
    RETURN NULL;
END $$;
CREATE TRIGGER pending_probe_candidates_insert AFTER INSERT ON voyager.pending_releases
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION voyager.pending_probe_candidates();
CREATE TRIGGER pending_probe_candidates_update AFTER UPDATE ON voyager.pending_releases
    REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION voyager.pending_probe_candidates();
COMMENT ON FUNCTION voyager.pending_probe_candidates()
    IS 'A finished pending release''s probe targets into the probe queue under its key';
COMMIT;
