-- Issue 22 (5c): a retention mark belongs to its owner. A mark records the tenant it was set for and
-- the API key that set it; a release names its mark (reason + ref) and removes only the caller's
-- tenant's marks. Before, a release without a ref removed every ref of the reason, whoever set it.

ALTER TABLE content_retention
    -- the tenant the mark was set for: the content's tenant (a mark can only be set on content of
    -- the tenant the key acts for)
    ADD COLUMN tenant_id text,
    -- the id of the API key that set it (a bootstrap key's name); null for marks set before V4
    ADD COLUMN key_id    text;

UPDATE content_retention r
   SET tenant_id = c.tenant_id
  FROM platform_content c
 WHERE c.id = r.content_id;

ALTER TABLE content_retention ALTER COLUMN tenant_id SET NOT NULL;

-- A mark now always has a ref (it is how a release names it). Marks set before V4 without one get
-- the ref 'legacy-unspecified', which a release names to remove them (module README).
DELETE FROM content_retention r
 WHERE r.ref = ''
   AND EXISTS (SELECT 1 FROM content_retention o
                WHERE o.content_id = r.content_id AND o.reason = r.reason
                  AND o.ref = 'legacy-unspecified');
UPDATE content_retention SET ref = 'legacy-unspecified' WHERE ref = '';
ALTER TABLE content_retention ALTER COLUMN ref DROP DEFAULT;
