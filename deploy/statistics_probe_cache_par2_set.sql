-- Deploy voyager:statistics_probe_cache_par2_set to pg
BEGIN;
-- How many articles give one par2 set: the planner has no statistics of a
-- partial index's expression, and without these it guesses hundreds of holders
-- a set and scans the probe queue for them instead of looking them up.
CREATE STATISTICS voyager.probe_cache_par2_set_stats ON ((facts -> 'par2' ->> 'set_id')) FROM voyager.probe_cache;
COMMIT;
