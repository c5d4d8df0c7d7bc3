-- Deploy voyager:table_users to pg
-- The indexer's users (issue: the web and API): roles with per-day quotas, API
-- keys, per-day counters, and the web pages' sessions. Web-only data lives
-- here, never on the hot catalog tables.
BEGIN;
CREATE TABLE voyager.roles (
    name              text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_-]*$'),
    requests_per_day  integer CHECK (requests_per_day >= 0),     -- null: unlimited
    downloads_per_day integer CHECK (downloads_per_day >= 0),    -- null: unlimited
    admin             boolean NOT NULL DEFAULT false,            -- sees the status page and judged releases
    description       text NOT NULL
);
COMMENT ON TABLE voyager.roles IS 'What a user may do: per-day API request and NZB download quotas (null: unlimited)';
INSERT INTO voyager.roles (name, requests_per_day, downloads_per_day, admin, description) VALUES
    ('user',  1000,  100,  false, 'A member: 1,000 API requests and 100 NZBs a day'),
    ('power', 10000, 1000, false, 'A heavy automation user: 10,000 requests and 1,000 NZBs a day'),
    ('admin', NULL,  NULL, true,  'An operator: no quotas, the status page, judged releases on request');

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

CREATE TABLE voyager.user_days (
    user_id   integer NOT NULL REFERENCES voyager.users (id) ON DELETE CASCADE,
    day       date NOT NULL,                  -- UTC
    requests  integer NOT NULL DEFAULT 0,
    downloads integer NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, day)
);
COMMENT ON TABLE voyager.user_days IS 'API requests and NZB downloads per user and UTC day: the quotas count here';

CREATE TABLE voyager.web_sessions (
    token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),   -- sha256 of the cookie
    user_id    integer NOT NULL REFERENCES voyager.users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL
);
CREATE INDEX web_sessions_user_idx ON voyager.web_sessions (user_id);
COMMENT ON TABLE voyager.web_sessions IS 'Signed-in browsers: the hash of the session cookie, never the cookie';
COMMIT;
