-- Deploy voyager:trigger_search_counts_truncated to pg
BEGIN;
CREATE FUNCTION voyager.search_counts_truncated() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM voyager.rebuild_search_counts();
    RETURN NULL;
END $$;
CREATE TRIGGER releases_search_counts_truncate AFTER TRUNCATE ON voyager.releases
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();
CREATE TRIGGER release_texts_search_counts_truncate AFTER TRUNCATE ON voyager.release_texts
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();
CREATE TRIGGER release_judgements_search_counts_truncate AFTER TRUNCATE ON voyager.release_judgements
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.search_counts_truncated();
COMMIT;
