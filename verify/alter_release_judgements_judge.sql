-- Verify voyager:alter_release_judgements_judge on pg
SELECT rule_version, detail FROM voyager.release_judgements WHERE false;
