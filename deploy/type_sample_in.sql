-- Deploy voyager:type_sample_in to pg
BEGIN;
CREATE TYPE voyager.sample_in AS (release_key bytea, rule text, key text, sample jsonb);
COMMIT;
