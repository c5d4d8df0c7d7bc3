-- Revert voyager:function_category_bits from pg
BEGIN;
DROP FUNCTION voyager.category_bits(text, text);
COMMIT;
