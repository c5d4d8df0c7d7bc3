-- Verify voyager:function_word_bits on pg
SELECT 'voyager.word_bits(jsonb, text)'::regprocedure;
