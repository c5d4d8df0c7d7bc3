-- Deploy voyager:table_categories to pg
BEGIN;
-- Newznab's category tree: parents are multiples of 1000, subcategories add
-- 10s. releases.category holds an id of this table; the API's caps lists it.
CREATE TABLE voyager.categories (
    id        integer PRIMARY KEY CHECK (id BETWEEN 1000 AND 9999),
    parent_id integer REFERENCES voyager.categories (id),
    name      text NOT NULL,
    CHECK ((parent_id IS NULL) = (id % 1000 = 0)),
    CHECK (parent_id IS NULL OR parent_id = id / 1000 * 1000)
);
COMMENT ON TABLE voyager.categories IS 'Newznab categories: parents (x000) and their subcategories';
COMMIT;
