-- Revert voyager:function_find_sidecar_folds from pg
BEGIN;
DROP FUNCTION voyager.find_sidecar_folds(timestamptz, timestamptz);
COMMIT;
