-- Verify voyager:type_pending_in on pg
SELECT NULL::voyager.pending_in;
