-- Verify voyager:function_categories on pg
SELECT has_function_privilege('voyager.category_sets()', 'execute');
SELECT has_function_privilege('voyager.category_map(text)', 'execute');
SELECT has_function_privilege('voyager.category_bits(text, text)', 'execute');
SELECT has_function_privilege('voyager.word_bits(jsonb, text)', 'execute');
SELECT has_function_privilege('voyager.word_mask(jsonb, text, text)', 'execute');
SELECT has_function_privilege('voyager.word_mask_from(jsonb, text, text, integer)', 'execute');
SELECT has_function_privilege('voyager.console_category(text)', 'execute');
SELECT has_function_privilege('voyager.category_of(text, text[], text, integer)', 'execute');
SELECT has_function_privilege('voyager.recategorize_batch(bigint, integer)', 'execute');
SELECT 'voyager.recategorize(integer, bigint, bigint, bigint)'::regprocedure;
SELECT 1/count(*) FROM voyager.categories
 WHERE id = voyager.category_of('Some.Show.S01E02.1080p.WEB-DL.x265-GRP', '{alt.binaries.teevee}');
