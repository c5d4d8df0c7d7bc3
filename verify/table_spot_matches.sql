-- Verify voyager:table_spot_matches on pg
SELECT spot_id, state, error, files, segments, bytes, has_par2, poster, groups, identity_keys, message_ids, chunk,
       inspected_at, tries, next_try_at
  FROM voyager.spot_nzbs WHERE false;
SELECT spot_id, release_id, pending_key, via, matched_at, applied_at, password_set, prior_status, prior_source,
       category_set, prior_category
  FROM voyager.spot_matches WHERE false;
