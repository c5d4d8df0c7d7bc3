-- Verify voyager:view_status_held on pg
SELECT group_name, lane, holder, since, held_for, heartbeat_age, stale, start_article, end_article,
       next_article, snapshot_article, snapshot_age, snapshot_bytes, takeovers
  FROM voyager.status_held WHERE FALSE;
