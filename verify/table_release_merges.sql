-- Verify voyager:table_release_merges on pg
SELECT merged_id, survivor_id, via, set_id, merged_at FROM voyager.release_merges WHERE false;
SELECT release_id, posted_at, last_posted_at, first_article, last_article, segments, bytes, files, complete,
       has_par2, source, name, password_status, password, password_source FROM voyager.release_own_totals WHERE false;
