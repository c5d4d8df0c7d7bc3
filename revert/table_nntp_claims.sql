-- Revert voyager:table_nntp_claims from pg
BEGIN;
DELETE FROM voyager.settings WHERE name = 'nntp_claim_ttl_seconds';
DROP TABLE voyager.nntp_claims;
COMMIT;
