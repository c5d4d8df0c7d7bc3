-- Deploy voyager:table_roles to pg
BEGIN;
-- The indexer's users (the web and the API): roles with per-day quotas, API
-- keys, per-day counters, and the web pages' sessions. Web-only data lives
-- here, never on the hot catalog tables.
CREATE TABLE voyager.roles (
    name              text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_-]*$'),
    requests_per_day  integer CHECK (requests_per_day >= 0),     -- null: unlimited
    downloads_per_day integer CHECK (downloads_per_day >= 0),    -- null: unlimited
    admin             boolean NOT NULL DEFAULT false,            -- sees the status page and judged releases
    description       text NOT NULL
);
COMMENT ON TABLE voyager.roles IS 'What a user may do: per-day API request and NZB download quotas (null: unlimited)';
COMMIT;
