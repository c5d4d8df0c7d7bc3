-- Deploy voyager:table_rule_sets to pg
BEGIN;
CREATE TABLE voyager.rule_sets (
    version    integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    rules      jsonb NOT NULL CHECK (jsonb_typeof(rules) = 'object'),
    note       text NOT NULL DEFAULT ''
);
COMMENT ON TABLE voyager.rule_sets IS 'Versioned rule sets (JSON) the window runs with; every range records the version it ran with';
COMMIT;
