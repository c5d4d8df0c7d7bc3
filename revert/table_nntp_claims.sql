-- Revert voyager:table_nntp_claims from pg
BEGIN;
DROP TABLE voyager.nntp_claims;
COMMIT;
