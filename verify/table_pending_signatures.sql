-- Verify voyager:table_pending_signatures on pg
SELECT group_id, probes, named, updated_at, tool, poster, muted, yield FROM voyager.pending_signatures WHERE false;
