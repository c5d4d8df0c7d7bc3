-- Verify voyager:function_word_mask on pg
SELECT 'voyager.word_mask(jsonb, text, text)'::regprocedure;
