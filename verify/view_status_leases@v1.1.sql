-- Verify voyager:view_status_leases on pg
SELECT group_name, lane, holder, leased_at, silent_for, stale, range, next_article, snapshot_article,
       snapshot_age, snapshot_bytes, takeovers
  FROM voyager.status_leases WHERE FALSE;
