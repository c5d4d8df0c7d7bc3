-- Verify voyager:table_catalog on pg
SELECT id, poster FROM voyager.posters WHERE FALSE;
SELECT id, groups FROM voyager.group_sets WHERE FALSE;
SELECT id, posted_at, last_posted_at, first_article, last_article, segments, bytes, settled_at, first_seen_at,
       group_id, group_set_id, poster_id, file_total, files, category, source, complete, has_par2, edge,
       release_key, identity_key, name FROM voyager.releases WHERE FALSE;
SELECT release_id, kind, text FROM voyager.release_texts WHERE FALSE;
SELECT release_id, month, created_at, chunk FROM voyager.release_chunks WHERE FALSE;
SELECT release_key, status, candidates FROM voyager.pending_releases WHERE FALSE;
SELECT release_id, kind, message_id, file_index FROM voyager.probe_candidates WHERE FALSE;
SELECT range_id, first_article, rule, key, articles, files, releases FROM voyager.rule_counts WHERE FALSE;
SELECT range_id, first_article, release_key, rule, key, sample FROM voyager.rule_samples WHERE FALSE;
SELECT NULL::voyager.release_in, NULL::voyager.pending_in, NULL::voyager.count_in, NULL::voyager.sample_in;
