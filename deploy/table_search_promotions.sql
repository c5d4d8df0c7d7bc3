-- Deploy voyager:table_search_promotions to pg
BEGIN;
CREATE TABLE voyager.search_promotions (
    key      text PRIMARY KEY CHECK (key LIKE 'w:%'),
    asked_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.search_promotions IS 'Words a search found common: the fold counts them and tracks them';
COMMIT;
