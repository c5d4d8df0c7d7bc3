-- Verify voyager:table_group_leases on pg
SELECT group_id, lane, token, holder, leased_at, heartbeat_at, released_at, range_id, snapshot_article,
       snapshot_at, min_priority, max_priority, capture_only, takeovers
  FROM voyager.group_leases WHERE FALSE;
