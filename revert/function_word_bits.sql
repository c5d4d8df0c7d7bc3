-- Revert voyager:function_word_bits from pg
BEGIN;
DROP FUNCTION voyager.word_bits(jsonb, text);
COMMIT;
