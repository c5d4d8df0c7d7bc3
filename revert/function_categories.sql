-- Revert voyager:function_categories from pg
BEGIN;
DROP PROCEDURE voyager.recategorize(integer, bigint, bigint, bigint);
DROP FUNCTION voyager.recategorize_batch(bigint, integer);
DROP FUNCTION voyager.category_of(text, text[], text, integer);
DROP FUNCTION voyager.word_set(text);
COMMIT;
