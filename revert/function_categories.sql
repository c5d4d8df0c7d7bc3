-- Revert voyager:function_categories from pg
BEGIN;
DROP PROCEDURE voyager.recategorize(integer, bigint, bigint, bigint);
DROP FUNCTION voyager.recategorize_batch(bigint, integer);
DROP FUNCTION voyager.category_of(text, text[], text, integer);
DROP FUNCTION voyager.console_category(text);
DROP FUNCTION voyager.word_mask(jsonb, text, text);
DROP FUNCTION voyager.word_bits(jsonb, text);
DROP FUNCTION voyager.word_mask_from(jsonb, text, text, integer);
DROP FUNCTION voyager.category_bits(text, text);
DROP FUNCTION voyager.category_map(text);
DROP FUNCTION voyager.category_sets();
COMMIT;
