-- Revert voyager:function_word_mask from pg
BEGIN;
DROP FUNCTION voyager.word_mask(jsonb, text, text);
COMMIT;
