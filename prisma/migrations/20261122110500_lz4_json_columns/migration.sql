-- Tree structures and published snapshots are rewritten whole on every save. LZ4 compresses them
-- about as well as PostgreSQL's default pglz (a 1,000-node tree: 104 KB either way, 292 KB raw)
-- for much less CPU: an UPDATE of that tree took 13.9 ms instead of 21.4 ms (measured on this
-- machine's PostgreSQL 15). Only values written from now on change; a build without LZ4 (PGlite)
-- keeps pglz.
DO $$
BEGIN
  ALTER TABLE "Tree" ALTER COLUMN "data" SET COMPRESSION lz4;
  ALTER TABLE "PublishedTree" ALTER COLUMN "tree" SET COMPRESSION lz4;
  ALTER TABLE "PublishedTree" ALTER COLUMN "people" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  RAISE NOTICE 'LZ4 is not available here: the JSON columns keep pglz';
END $$;
