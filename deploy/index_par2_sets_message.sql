-- Deploy voyager:index_par2_sets_message to pg
BEGIN;
-- A set by the article it was read from: the release holding it is the one
-- whose probe candidate that article is.
CREATE INDEX par2_sets_message_idx ON voyager.par2_sets (message_id);
COMMIT;
