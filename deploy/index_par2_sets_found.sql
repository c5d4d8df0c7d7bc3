-- Deploy voyager:index_par2_sets_found to pg
BEGIN;
-- Sets by when they were found (appended in that order): the finders read the
-- sets of one slice of time.
CREATE INDEX par2_sets_found_brin ON voyager.par2_sets USING brin (found_at);
COMMIT;
