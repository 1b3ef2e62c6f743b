-- A full read that lists a version it stored before moves only its last_seen_at, which no index
-- holds; expires_at (indexed) moves once per keep-alive granularity (KeepAlive.listedExpiresAt).
-- Such an update can be HOT — no new entry in any of the table's six indexes — only when the
-- row's page has room for the new version. Pages filled to 100 % have none, so leave 15 % free on
-- every page written from now on. A storage parameter only: no rewrite, a brief lock.
ALTER TABLE platform_content SET (fillfactor = 85);
