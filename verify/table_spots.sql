-- Verify voyager:table_spots on pg
SELECT message_id, article, key_id, verified, trusted, title, category, subcats, newznab, description,
       website, size, nzb, spotter_id, posted_at, read_at, disposed_at, facts
  FROM voyager.spots WHERE false;
SELECT group_name, last_article, read_at FROM voyager.spot_reads WHERE false;
