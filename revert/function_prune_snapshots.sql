-- Revert voyager:function_prune_snapshots from pg
BEGIN;
DROP FUNCTION voyager.prune_snapshots();
COMMIT;
