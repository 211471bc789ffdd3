-- A tree's structure is stored out of line without compression (ADR 034). Every structure save
-- rewrites the whole value; pglz's attempt to compress a megabyte of jsonb was a tenth to half of
-- that rewrite (bench/save/profile.ts), and lz4 is not built into PGlite. The cost is disk: about
-- 4.7 times the compressed size (1.3 MB against 285 kB for the 4,578-person genealogy).
-- Values already stored keep their form until their next save.
ALTER TABLE "Tree" ALTER COLUMN "data" SET STORAGE EXTERNAL;
