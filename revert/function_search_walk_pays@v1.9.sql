-- Revert voyager:function_search_walk_pays from pg
BEGIN;
DROP FUNCTION voyager.search_walk_pays(bigint, bigint, boolean, boolean, bigint);
COMMIT;
