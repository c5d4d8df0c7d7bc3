-- Deploy voyager:table_release_grabs to pg
BEGIN;
-- What the web and API know about a release beside the catalog, in tables of
-- their own (the releases row stays slim): grabs, passwords, the judge's
-- verdicts, and outside media IDs. Phase 2 fills passwords, verdicts and IDs;
-- until then they are empty and the API says password 0, hides nothing, and
-- answers an ID search with an empty result. No foreign keys to releases (a
-- row trigger on the ingest table for each, see table_releases): a release's
-- ids are never reused, so a row left by a retracted release joins nothing.
CREATE TABLE voyager.release_grabs (
    release_id   bigint PRIMARY KEY,
    grabs        integer NOT NULL DEFAULT 0,
    last_grab_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.release_grabs IS 'NZB downloads per release (the API''s grabs attribute)';
COMMIT;
