-- Verify voyager:table_releases on pg
SELECT id, posted_at, last_posted_at, first_article, last_article, segments, bytes, settled_at,
       first_seen_at, group_id, group_set_id, poster_id, file_total, files, category, source, complete,
       has_par2, edge, release_key, identity_key, name
  FROM voyager.releases WHERE FALSE;
