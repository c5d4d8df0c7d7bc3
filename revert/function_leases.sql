-- Revert voyager:function_leases from pg
BEGIN;
DROP FUNCTION voyager.release_group(uuid, bytea, bigint);
DROP FUNCTION voyager.snapshot(uuid);
DROP FUNCTION voyager.store_snapshot(uuid, bigint, bytea);
DROP FUNCTION voyager.heartbeat(uuid);
DROP FUNCTION voyager.advance_range(uuid, bigint, bigint, bigint, bigint);
DROP FUNCTION voyager.next_range(uuid);
DROP FUNCTION voyager.lane_end(uuid);
DROP FUNCTION voyager.lease_waiting(uuid);
DROP FUNCTION voyager.lease_group(text, text, integer, integer, boolean);
DROP FUNCTION voyager.lane_claimable(voyager.group_leases, integer, integer, boolean, interval);
DROP FUNCTION voyager.tail_started(integer);
DROP FUNCTION voyager.history_caught_up(integer);
DROP FUNCTION voyager.lane_backlog(integer, voyager.lane, integer, integer, boolean);
DROP FUNCTION voyager.replan_since_snapshot(integer, voyager.lane);
DROP FUNCTION voyager.lease_of(uuid);
COMMIT;
