-- Revert voyager:function_merge_releases from pg
BEGIN;
DROP FUNCTION voyager.unmerge_releases(bigint[]);
DROP FUNCTION voyager.merge_releases(bigint[], bigint[], text[], bytea[]);
DROP FUNCTION voyager.merge_record(bigint[], bigint[], text[], bytea[]);
COMMIT;
