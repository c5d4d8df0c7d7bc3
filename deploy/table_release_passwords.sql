-- Deploy voyager:table_release_passwords to pg
BEGIN;
CREATE TABLE voyager.release_passwords (
    release_id bigint PRIMARY KEY,
    status     smallint NOT NULL CHECK (status IN (0, 1, 2)),   -- Newznab: 0 none, 1 passworded, 2 maybe
    password   text,                                           -- when known: X-DNZB-Password
    found_at   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.release_passwords IS 'Archive passwords found by phase 2 (no row: password 0)';
COMMIT;
