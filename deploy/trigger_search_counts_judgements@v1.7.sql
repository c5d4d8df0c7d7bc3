-- Deploy voyager:trigger_search_counts_judgements to pg
BEGIN;
-- release_judgements: a release hidden leaves every key, shown again it comes back.
CREATE FUNCTION voyager.search_counts_judgements() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    v_hide bigint[];
    v_show bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        v_hide := ARRAY(SELECT release_id FROM new_rows WHERE hidden);
    ELSIF TG_OP = 'DELETE' THEN
        v_show := ARRAY(SELECT release_id FROM old_rows WHERE hidden);
    ELSE
        v_hide := ARRAY(SELECT n.release_id FROM old_rows o JOIN new_rows n USING (release_id) WHERE n.hidden AND NOT o.hidden);
        v_show := ARRAY(SELECT n.release_id FROM old_rows o JOIN new_rows n USING (release_id) WHERE o.hidden AND NOT n.hidden);
    END IF;
    IF cardinality(v_hide) > 0 OR cardinality(v_show) > 0 THEN
        PERFORM voyager.search_tracking_lock();
    END IF;
    IF cardinality(v_hide) > 0 THEN
        PERFORM voyager.note_search_deltas(array_agg(k.key), array_agg(-1::bigint))
           FROM voyager.search_keys_of(v_hide, true) k HAVING count(*) > 0;
    END IF;
    IF cardinality(v_show) > 0 THEN
        PERFORM voyager.note_search_deltas(array_agg(k.key), array_agg(1::bigint))
           FROM voyager.search_keys_of(v_show, true) k HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER release_judgements_search_counts_insert AFTER INSERT ON voyager.release_judgements
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();
CREATE TRIGGER release_judgements_search_counts_update AFTER UPDATE ON voyager.release_judgements
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();
CREATE TRIGGER release_judgements_search_counts_delete AFTER DELETE ON voyager.release_judgements
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_judgements();
COMMIT;
