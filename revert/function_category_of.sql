-- Revert voyager:function_category_of from pg
BEGIN;
DROP FUNCTION voyager.category_of(text, text[], text, integer);
COMMIT;
