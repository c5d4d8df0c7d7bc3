-- Revert voyager:function_nntp_claim from pg
BEGIN;
DROP FUNCTION voyager.nntp_claim(text, text, integer, integer, integer);
COMMIT;
