-- Verify voyager:table_release_media_ids on pg
SELECT kind, value, release_id
  FROM voyager.release_media_ids WHERE FALSE;
