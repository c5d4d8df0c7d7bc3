-- Verify voyager:alter_nntp_shares_reserve on pg
SELECT role, reserve FROM voyager.nntp_shares WHERE false;
