-- Verify voyager:view_status_catalog on pg
SELECT cap_bytes, used_bytes, room_bytes, used_pct, hot_bytes, chunk_bytes, pending_bytes, elsewhere_bytes,
       snapshot_bytes, releases, pending_releases, headers, bytes_per_header, room_headers
  FROM voyager.status_catalog WHERE FALSE;
