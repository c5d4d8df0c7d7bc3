-- Deploy voyager:table_release_media_ids to pg
BEGIN;
CREATE TABLE voyager.release_media_ids (
    kind       text NOT NULL CHECK (kind IN ('tvdb', 'tvmaze', 'tvrage', 'imdb', 'tmdb', 'trakt')),
    value      text NOT NULL,                  -- imdb without 'tt', the others as the site numbers them
    release_id bigint NOT NULL,
    PRIMARY KEY (kind, value, release_id)
);
CREATE INDEX release_media_ids_release_idx ON voyager.release_media_ids (release_id);
COMMENT ON TABLE voyager.release_media_ids IS 'Outside IDs of a release''s show or movie (phase 2); the API''s ID searches read only these';
COMMIT;
