-- Verify voyager:table_pending_releases on pg
SELECT release_key, identity_key, posted_at, last_posted_at, first_article, last_article, segments, bytes,
       created_at, group_id, files, file_total, status, finished, complete, tool, poster, name, candidates
  FROM voyager.pending_releases WHERE FALSE;
