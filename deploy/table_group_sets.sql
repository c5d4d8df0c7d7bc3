-- Deploy voyager:table_group_sets to pg
BEGIN;
CREATE TABLE voyager.group_sets (
    id     integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    groups text[] NOT NULL UNIQUE CHECK (voyager.is_group_set(groups))   -- sorted (bytewise), distinct
);
COMMENT ON TABLE voyager.group_sets IS 'Each distinct combination of groups a release was posted to, once';
COMMIT;
