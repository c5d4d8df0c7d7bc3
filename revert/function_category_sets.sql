-- Revert voyager:function_category_sets from pg
BEGIN;
DROP FUNCTION voyager.category_sets();
COMMIT;
