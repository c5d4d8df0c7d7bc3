-- Deploy voyager:table_posters to pg
BEGIN;
-- The catalog the window's batches become: slim release rows with
-- posters and group sets by id, one trigram index over every searchable text,
-- write-once chunks, pending releases, probe candidates, and per
-- batch rule counts and samples (a redone batch replaces its own).
CREATE TABLE voyager.posters (
    id     integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    poster text NOT NULL UNIQUE
);
COMMENT ON TABLE voyager.posters IS 'Each distinct From once; releases refer to it by id';
COMMIT;
