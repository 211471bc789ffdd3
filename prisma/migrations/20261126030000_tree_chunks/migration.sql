-- Large tree structures are stored in parts (ADR 037): "Tree"."data" holds the top of the tree,
-- and each chunk a subtree, with `{"$chunk": key}` in place of every chunk below it. A save
-- rewrites the chunks it changed, not a megabyte of jsonb. Nothing else in a stored structure is
-- an object with one key "$chunk" (the schema keeps only its own keys), and inside a string a
-- quote is written \", so the pattern below matches placeholders and nothing else.
CREATE TABLE "TreeChunk" (
    "treeId" TEXT NOT NULL,
    "key" INTEGER NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "TreeChunk_pkey" PRIMARY KEY ("treeId","key")
);

ALTER TABLE "TreeChunk" ADD CONSTRAINT "TreeChunk_treeId_fkey" FOREIGN KEY ("treeId") REFERENCES "Tree"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- As "Tree"."data" (migrations lz4_json_columns and tree_data_uncompressed): lz4 where built in,
-- otherwise stored without compression.
DO $$
BEGIN
  ALTER TABLE "TreeChunk" ALTER COLUMN "data" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN
  ALTER TABLE "TreeChunk" ALTER COLUMN "data" SET STORAGE EXTERNAL;
END $$;

-- The whole structure of a tree as JSON text, in jsonb's text form, exactly as "data"::text was
-- before chunks: its row's "data" when it has no chunks, otherwise the text of "data" and its
-- chunks joined in one pass. Each text is cut at its placeholders' openings (a plain string
-- search: a regular expression took twice as long); a piece after the first starts with the key
-- and the placeholder's closing brace. A piece is numbered by its path (odd: text, even: the chunk
-- put in that place), and the pieces are joined in path order.
CREATE FUNCTION heirloom_tree_text(tree_id TEXT, root JSONB) RETURNS TEXT
LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN NOT EXISTS (SELECT 1 FROM "TreeChunk" c WHERE c."treeId" = tree_id) THEN root::text
    ELSE (
      WITH RECURSIVE piece("path", "kind", "body") AS (
        SELECT ARRAY[]::int[], 'c', root::text
        UNION ALL
        SELECT p."path" || s."n", s."kind", s."body"
        FROM piece p
        CROSS JOIN LATERAL string_to_table(p."body", '{"$chunk": ') WITH ORDINALITY AS t("part", "o")
        CROSS JOIN LATERAL (
          SELECT (2 * t."o" - 1)::int AS "n", 't' AS "kind",
            CASE WHEN t."o" = 1 THEN t."part" ELSE substr(t."part", strpos(t."part", '}') + 1) END AS "body"
          UNION ALL
          SELECT (2 * t."o" - 2)::int, 'c', c."data"::text
          FROM "TreeChunk" c
          WHERE t."o" > 1 AND c."treeId" = tree_id
            AND c."key" = left(t."part", strpos(t."part", '}') - 1)::int
        ) s
        WHERE p."kind" = 'c'
      )
      SELECT string_agg("body", '' ORDER BY "path") FROM piece WHERE "kind" = 't'
    )
  END
$fn$;

-- The same structure as jsonb, for statements that work on it (the published copy, its depth).
CREATE FUNCTION heirloom_tree_data(tree_id TEXT, root JSONB) RETURNS JSONB
LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN NOT EXISTS (SELECT 1 FROM "TreeChunk" c WHERE c."treeId" = tree_id) THEN root
    ELSE heirloom_tree_text(tree_id, root)::jsonb
  END
$fn$;
