-- Where lz4 is not built in (PGlite), a tree's structure is stored out of line without
-- compression (ADR 034). Every structure save rewrites the whole value, and pglz's compression
-- of a megabyte of jsonb was paid on each (bench/save/profile.ts, PGlite: the deep 10,000-Sim
-- legacy 147 ms with pglz, 114 ms without). Where lz4 is in use (PostgreSQL, migration
-- lz4_json_columns) it stays: as fast as no compression there, at a fifth of the disk.
-- Values already stored keep their form until their next save.
DO $$
BEGIN
  IF (SELECT "attcompression" FROM pg_attribute
      WHERE "attrelid" = '"Tree"'::regclass AND "attname" = 'data') IS DISTINCT FROM 'l' THEN
    ALTER TABLE "Tree" ALTER COLUMN "data" SET STORAGE EXTERNAL;
  END IF;
END $$;
