-- Deploy voyager:table_release_web to pg
-- What the web and API know about a release beside the catalog, in tables of
-- their own (the releases row stays slim): grabs, passwords, the judge's
-- verdicts, and outside media IDs. Phase 2 fills passwords, verdicts and IDs;
-- until then they are empty and the API says password 0, hides nothing, and
-- answers an ID search with an empty result. No foreign keys to releases (a
-- row trigger on the ingest table for each, see table_catalog): a release's
-- ids are never reused, so a row left by a retracted release joins nothing.
BEGIN;
CREATE TABLE voyager.release_grabs (
    release_id   bigint PRIMARY KEY,
    grabs        integer NOT NULL DEFAULT 0,
    last_grab_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.release_grabs IS 'NZB downloads per release (the API''s grabs attribute)';

CREATE TABLE voyager.release_passwords (
    release_id bigint PRIMARY KEY,
    status     smallint NOT NULL CHECK (status IN (0, 1, 2)),   -- Newznab: 0 none, 1 passworded, 2 maybe
    password   text,                                           -- when known: X-DNZB-Password
    found_at   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.release_passwords IS 'Archive passwords found by phase 2 (no row: password 0)';

CREATE TABLE voyager.release_judgements (
    release_id bigint PRIMARY KEY,
    hidden     boolean NOT NULL,               -- true: out of every listing unless asked for
    verdict    text NOT NULL,                  -- the judge's word: fake, virus, spam, ...
    judged_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX release_judgements_hidden_idx ON voyager.release_judgements (release_id) WHERE hidden;
COMMENT ON TABLE voyager.release_judgements IS 'The judge''s verdicts (phase 2): hidden releases leave the API and pages unless asked for';

CREATE TABLE voyager.release_media_ids (
    kind       text NOT NULL CHECK (kind IN ('tvdb', 'tvmaze', 'tvrage', 'imdb', 'tmdb', 'trakt')),
    value      text NOT NULL,                  -- imdb without 'tt', the others as the site numbers them
    release_id bigint NOT NULL,
    PRIMARY KEY (kind, value, release_id)
);
CREATE INDEX release_media_ids_release_idx ON voyager.release_media_ids (release_id);
COMMENT ON TABLE voyager.release_media_ids IS 'Outside IDs of a release''s show or movie (phase 2); the API''s ID searches read only these';
COMMIT;
