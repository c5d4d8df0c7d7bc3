-- Revert voyager:function_nntp_shares from pg
BEGIN;
DROP FUNCTION voyager.nntp_release(text, text);
DROP FUNCTION voyager.nntp_claim(text, text, integer, integer, integer);
COMMIT;
