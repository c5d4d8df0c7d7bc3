-- Verify voyager:views_status_panel on pg
SELECT cap_bytes, used_bytes, room_bytes, used_pct, hot_bytes, chunk_bytes, pending_bytes, elsewhere_bytes,
       snapshot_bytes, releases, pending_releases, headers, bytes_per_header, room_headers
  FROM voyager.status_catalog WHERE FALSE;
SELECT band, kind, min_priority, max_priority, ranges, planned, leased, done, failed, articles, articles_todo,
       articles_done, headers FROM voyager.status_bands WHERE FALSE;
SELECT period, batches, headers_indexed, articles_covered, headers_per_second, releases_stored, ranges_done
  FROM voyager.status_throughput WHERE FALSE;
SELECT node, bytes, files, cap_bytes, used_pct, reported_at, age, stale FROM voyager.status_spool WHERE FALSE;
SELECT group_name, ranges, leased, articles_todo, from_article, to_article, holder FROM voyager.status_tail WHERE FALSE;
SELECT group_name, lane, holder, since, held_for, heartbeat_age, stale, start_article, end_article, next_article,
       snapshot_article, snapshot_age, snapshot_bytes, takeovers FROM voyager.status_held WHERE FALSE;
SELECT provisional_releases, settle_due, pending_waiting, pending_oldest, pending_releases, probe_candidates_ready,
       probe_candidates_waiting FROM voyager.status_phase2 WHERE FALSE;
SELECT name, kind, function, every, enabled, next_run_at, due_in, running, last_run_at, last_seconds, last_node,
       last_ok, last_result, last_error, runs, failures FROM voyager.status_jobs WHERE FALSE;
SELECT has_function_privilege('voyager.estimated_rows(regclass, bigint)', 'execute');
