-- Deploy voyager:table_users to pg
BEGIN;
CREATE TABLE voyager.users (
    id                integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at        timestamptz NOT NULL DEFAULT now(),
    requests_per_day  integer CHECK (requests_per_day >= 0),     -- null: the role's
    downloads_per_day integer CHECK (downloads_per_day >= 0),    -- null: the role's
    suspended         boolean NOT NULL DEFAULT false,
    role              text NOT NULL DEFAULT 'user' REFERENCES voyager.roles (name) ON UPDATE CASCADE,
    name              text NOT NULL UNIQUE CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$'),
    api_key           text NOT NULL UNIQUE CHECK (api_key ~ '^[0-9a-f]{32}$')
);
COMMENT ON TABLE voyager.users IS 'API users: one key each (voyager users add NAME prints it), a role, optional own quotas';
COMMIT;
