-- Revert voyager:alter_nntp_shares_reserve from pg
BEGIN;
ALTER TABLE voyager.nntp_shares DROP COLUMN reserve;
COMMIT;
