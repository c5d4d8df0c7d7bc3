-- Deploy voyager:trigger_search_counts_texts to pg
BEGIN;
CREATE FUNCTION voyager.search_counts_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_new_ids bigint[];
    v_new_texts text[];
    v_old_ids bigint[];
    v_old_texts text[];
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT array_agg(release_id), array_agg(text) INTO v_new_ids, v_new_texts FROM new_rows;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT array_agg(release_id), array_agg(text) INTO v_old_ids, v_old_texts FROM old_rows;
    END IF;
    IF v_new_ids IS NOT NULL OR v_old_ids IS NOT NULL THEN
        PERFORM voyager.search_tracking_lock();           -- which words are tracked: fixed till the commit
        PERFORM voyager.search_text_deltas(coalesce(v_new_ids, '{}'), coalesce(v_new_texts, '{}'),
                                           coalesce(v_old_ids, '{}'), coalesce(v_old_texts, '{}'));
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER release_texts_search_counts_insert AFTER INSERT ON voyager.release_texts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();
CREATE TRIGGER release_texts_search_counts_update AFTER UPDATE ON voyager.release_texts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();
CREATE TRIGGER release_texts_search_counts_delete AFTER DELETE ON voyager.release_texts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_texts();
COMMIT;
