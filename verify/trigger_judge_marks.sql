-- Verify voyager:trigger_judge_marks on pg
SELECT 1 / (count(*) = 16)::integer FROM pg_trigger WHERE tgname LIKE '%\_judge\_%' AND tgname IN (
    'probe_cache_judge_insert', 'probe_cache_judge_update', 'probe_candidates_judge_insert',
    'probe_candidates_judge_update', 'file_hashes_judge_insert', 'file_hashes_judge_update',
    'release_passwords_judge_insert', 'release_passwords_judge_update', 'release_passwords_judge_delete',
    'release_texts_judge_insert', 'release_texts_judge_delete', 'release_merges_judge_insert',
    'release_merges_judge_update', 'release_merges_judge_delete', 'releases_judge_insert', 'releases_judge_update');
SELECT 1 / count(*) FROM pg_proc WHERE oid = 'voyager.judge_mark_releases()'::regprocedure AND prosrc LIKE '%EXECUTE%';   -- planned for each statement's rows
SELECT 1 / count(*) FROM pg_proc WHERE oid = 'voyager.judge_mark_file_hashes()'::regprocedure AND prosrc LIKE '%EXECUTE%';
SELECT 1 / count(*) FROM pg_proc WHERE oid = 'voyager.judge_mark_probe_cache()'::regprocedure AND prosrc LIKE '%EXECUTE%';
