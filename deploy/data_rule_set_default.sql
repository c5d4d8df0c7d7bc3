-- Deploy voyager:data_rule_set_default to pg
-- Rule set version 1: the window's DEFAULT_RULES (ext/window.pyx); a test keeps them equal.
BEGIN;
-- version 1 by name, so a revert and a deploy again give the same version
INSERT INTO voyager.rule_sets (version, rules, note) OVERRIDING SYSTEM VALUE
SELECT 1, '{"garbage": [], "dropped_posters": [],
         "exempt_group_words": ["sounds", "mp3", "music", "ebook", "e-book", "comics", "tabs", "fonts", "karaoke"],
         "stub_max_bytes": 100000000, "stub_small_article": 262144, "stub_min_bytes": 1000000,
         "webmail_domains": ["gmail.com", "hotmail.com", "yahoo.com", "outlook.com", "gmx.de", "web.de", "aol.com"],
         "sample_percent": 1}'::jsonb, 'default: the window''s built-in rules'
 WHERE NOT EXISTS (SELECT 1 FROM voyager.rule_sets WHERE version = 1);
-- later versions from the sequence
DO $$ BEGIN
    PERFORM setval(pg_get_serial_sequence('voyager.rule_sets', 'version'),
                   greatest(1, (SELECT max(version) FROM voyager.rule_sets)));
END $$;
COMMIT;
