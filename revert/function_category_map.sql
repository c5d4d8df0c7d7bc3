-- Revert voyager:function_category_map from pg
BEGIN;
DROP FUNCTION voyager.category_map(text);
COMMIT;
