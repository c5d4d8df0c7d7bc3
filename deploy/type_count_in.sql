-- Deploy voyager:type_count_in to pg
BEGIN;
CREATE TYPE voyager.count_in AS (rule text, key text, articles bigint, files bigint, releases bigint);
COMMIT;
