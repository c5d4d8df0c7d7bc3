-- Deploy voyager:index_probe_cache_par2_set to pg
BEGIN;
-- The probed articles that gave a par2 set, by its id: every release holding
-- the set (a repost's too, which par2_sets, one row a set, does not name).
CREATE INDEX probe_cache_par2_set_idx ON voyager.probe_cache ((facts -> 'par2' ->> 'set_id'))
    WHERE facts -> 'par2' ->> 'set_id' IS NOT NULL;
COMMIT;
