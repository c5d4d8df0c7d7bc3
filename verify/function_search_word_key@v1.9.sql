-- Verify voyager:function_search_word_key on pg
SELECT 1/(voyager.search_word_key('Harbor') = 'w:harbor')::int;
SELECT 1/(voyager.search_word_key('silent harbor') IS NULL AND voyager.search_word_key('harbor', true) IS NULL)::int;
