-- Verify voyager:alter_pending_releases_ladder on pg
SELECT tries, named, name_source, release_id, decided_at, claim, taken_by, expires_at
  FROM voyager.pending_releases WHERE false;
