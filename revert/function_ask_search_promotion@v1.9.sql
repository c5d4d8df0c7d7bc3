-- Revert voyager:function_ask_search_promotion from pg
BEGIN;
DROP FUNCTION voyager.ask_search_promotion(text);
COMMIT;
