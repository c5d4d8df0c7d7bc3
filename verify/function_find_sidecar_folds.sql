-- Verify voyager:function_find_sidecar_folds on pg
SELECT 'voyager.find_sidecar_folds(timestamptz, timestamptz)'::regprocedure;
