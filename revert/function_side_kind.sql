-- Revert voyager:function_side_kind from pg
BEGIN;
DROP FUNCTION voyager.side_kind(text);
COMMIT;
