-- Revert voyager:function_wildmat from pg
BEGIN;
DROP FUNCTION voyager.wildmat(text, text);
COMMIT;
