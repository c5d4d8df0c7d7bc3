-- Deploy voyager:table_probe_cache to pg
BEGIN;
-- What each probed article showed, by message-id: read before any fetch, so no
-- article is fetched twice across re-indexing, merges and retries. Apart from
-- the catalog's hot tables and written by nothing that re-indexes, so it
-- survives a re-index (the candidates are made again, the answers stay).
CREATE TABLE voyager.probe_cache (
    message_id text PRIMARY KEY,
    kind       text NOT NULL,                 -- the candidate's kind it was fetched for
    status     smallint NOT NULL CHECK (status IN (0, 1, 2)),   -- 0 read, 1 dead (gone: 430), 2 failed (what was wrong in error)
    error      text,
    bytes      integer,                       -- the body's size as it came
    facts      jsonb,                         -- what the readers found (workers/probe.read_article)
    probed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX probe_cache_probed_idx ON voyager.probe_cache USING brin (probed_at);
CREATE INDEX probe_cache_bad_idx ON voyager.probe_cache (kind, status) WHERE status > 0;
COMMENT ON TABLE voyager.probe_cache IS 'What each probed article showed, by message-id; survives a re-index, so no article is fetched twice';
COMMIT;
