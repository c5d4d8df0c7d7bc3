-- Verify voyager:function_word_mask_from on pg
SELECT 'voyager.word_mask_from(jsonb, text, text, integer)'::regprocedure;
