-- Deploy voyager:data_nntp_shares to pg
BEGIN;
INSERT INTO voyager.nntp_shares (role, min_connections, max_connections, priority) VALUES
  ('headers', 1, 50, 0),
  ('probes',  0, 10, 1),
  ('spots',   0, 1,  2);
COMMIT;
