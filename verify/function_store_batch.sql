-- Verify voyager:function_store_batch on pg
SELECT has_function_privilege('voyager.store_batch(uuid, bigint, bigint, bigint, bigint, voyager.release_in[], voyager.pending_in[], voyager.count_in[], voyager.sample_in[], bytea[])', 'execute');
