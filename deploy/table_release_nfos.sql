-- Deploy voyager:table_release_nfos to pg
BEGIN;
-- A release's NFO text whole (its title line is a text of kind 3): cold, read
-- one release at a time by t=getnfo and the release page.
CREATE TABLE voyager.release_nfos (
    release_id bigint PRIMARY KEY,
    message_id text NOT NULL,
    text       text NOT NULL,
    found_at   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.release_nfos IS 'A release''s NFO text, whole (t=getnfo, the release page)';
COMMIT;
