-- Deploy voyager:table_settings to pg
BEGIN;
CREATE TABLE voyager.settings (
    name        text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]*$'),
    value       text NOT NULL,
    description text NOT NULL
);
COMMENT ON TABLE voyager.settings IS 'Tunables the SQL logic reads (voyager.setting_int); change with UPDATE';
COMMIT;
