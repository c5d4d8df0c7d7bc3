-- Deploy voyager:table_sign_in_failures to pg
BEGIN;
-- A row an address with failed sign-ins in its current window: the guesses of
-- every web process count together.
CREATE TABLE voyager.sign_in_failures (
    address  text PRIMARY KEY,
    since    timestamptz NOT NULL DEFAULT now(),        -- the window's start
    failures integer NOT NULL DEFAULT 1 CHECK (failures > 0)
);
COMMENT ON TABLE voyager.sign_in_failures IS 'Failed web sign-ins per client address in the current window (voyager.sign_in)';
COMMIT;
