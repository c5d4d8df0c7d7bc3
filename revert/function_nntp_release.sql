-- Revert voyager:function_nntp_release from pg
BEGIN;
DROP FUNCTION voyager.nntp_release(text, text);
COMMIT;
