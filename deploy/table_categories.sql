-- Deploy voyager:table_categories to pg
-- Newznab's category tree: parents are multiples of 1000, subcategories add
-- 10s. releases.category holds an id of this table; the API's caps lists it.
BEGIN;
CREATE TABLE voyager.categories (
    id        integer PRIMARY KEY CHECK (id BETWEEN 1000 AND 9999),
    parent_id integer REFERENCES voyager.categories (id),
    name      text NOT NULL,
    CHECK ((parent_id IS NULL) = (id % 1000 = 0)),
    CHECK (parent_id IS NULL OR parent_id = id / 1000 * 1000)
);
COMMENT ON TABLE voyager.categories IS 'Newznab categories: parents (x000) and their subcategories';

INSERT INTO voyager.categories (id, parent_id, name) VALUES
    (1000, NULL, 'Console'), (2000, NULL, 'Movies'), (3000, NULL, 'Audio'), (4000, NULL, 'PC'),
    (5000, NULL, 'TV'), (6000, NULL, 'XXX'), (7000, NULL, 'Books'), (8000, NULL, 'Other'),
    (1010, 1000, 'NDS'), (1020, 1000, 'PSP'), (1030, 1000, 'Wii'), (1040, 1000, 'Xbox'),
    (1050, 1000, 'Xbox 360'), (1060, 1000, 'WiiWare'), (1070, 1000, 'Xbox 360 DLC'), (1080, 1000, 'PS3'),
    (1090, 1000, 'Other'), (1110, 1000, '3DS'), (1120, 1000, 'PS Vita'), (1130, 1000, 'WiiU'),
    (1140, 1000, 'Xbox One'), (1180, 1000, 'PS4'),
    (2010, 2000, 'Foreign'), (2020, 2000, 'Other'), (2030, 2000, 'SD'), (2040, 2000, 'HD'),
    (2045, 2000, 'UHD'), (2050, 2000, 'BluRay'), (2060, 2000, '3D'), (2070, 2000, 'DVD'),
    (2080, 2000, 'WEB-DL'), (2090, 2000, 'x265'),
    (3010, 3000, 'MP3'), (3020, 3000, 'Video'), (3030, 3000, 'Audiobook'), (3040, 3000, 'Lossless'),
    (3050, 3000, 'Other'), (3060, 3000, 'Foreign'),
    (4010, 4000, '0day'), (4020, 4000, 'ISO'), (4030, 4000, 'Mac'), (4040, 4000, 'Mobile-Other'),
    (4050, 4000, 'Games'), (4060, 4000, 'Mobile-iOS'), (4070, 4000, 'Mobile-Android'),
    (5010, 5000, 'WEB-DL'), (5020, 5000, 'Foreign'), (5030, 5000, 'SD'), (5040, 5000, 'HD'),
    (5045, 5000, 'UHD'), (5050, 5000, 'Other'), (5060, 5000, 'Sport'), (5070, 5000, 'Anime'),
    (5080, 5000, 'Documentary'), (5090, 5000, 'x265'),
    (6010, 6000, 'DVD'), (6020, 6000, 'WMV'), (6030, 6000, 'XviD'), (6040, 6000, 'x264'),
    (6045, 6000, 'UHD'), (6050, 6000, 'Pack'), (6060, 6000, 'ImageSet'), (6070, 6000, 'Other'),
    (6080, 6000, 'SD'), (6090, 6000, 'WEB-DL'),
    (7010, 7000, 'Mags'), (7020, 7000, 'EBook'), (7030, 7000, 'Comics'), (7040, 7000, 'Technical'),
    (7050, 7000, 'Other'), (7060, 7000, 'Foreign'),
    (8010, 8000, 'Misc'), (8020, 8000, 'Hashed');
-- releases.category holds one of these ids; no foreign key on the ingest table
-- (see table_catalog): voyager.check_catalog() reports strays.
COMMIT;
