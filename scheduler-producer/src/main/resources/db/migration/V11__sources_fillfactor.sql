-- Room on each page of sources for the row's next versions (ADR 0018, "PostgreSQL's cost per
-- fetch"): a fetch writes a source's row several times (claim, outcome, stats, due time). The stats
-- update changes no indexed column, so with free space on the row's page it is a HOT update (no new
-- index entries, the old version pruned in place) instead of a new version in every index; at the
-- default fillfactor (100) the pages are full and every update moves the row to another page.
-- 70 leaves about 2.4 KB per 8 KB page, two or three versions of the row. Costs about 40 % more
-- table pages (1.4 GB more at 10 million sources). Not rewritten here: pages filled before this
-- migration get the room as vacuum frees them (VACUUM FULL or pg_repack applies it at once).
ALTER TABLE sources SET (fillfactor = 70);
