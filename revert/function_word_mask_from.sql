-- Revert voyager:function_word_mask_from from pg
BEGIN;
DROP FUNCTION voyager.word_mask_from(jsonb, text, text, integer);
COMMIT;
