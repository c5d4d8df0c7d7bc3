-- Revert voyager:table_nntp_shares from pg
BEGIN;
DROP TABLE voyager.nntp_shares;
COMMIT;
