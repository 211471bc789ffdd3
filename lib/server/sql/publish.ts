// The published copy of a tree (ADR 014), made inside PostgreSQL from a "Tree" row `t` and its
// "Person" rows: publishTree (lib/server/published/publish-tree.ts) makes one, the scale seed
// (scripts/lib/seed/insert.ts) many at once. The people are built in the API's person shape, which
// must match serializePerson in lib/server/people/serialize.ts; tests/api/published.test.ts
// compares the two. Loaded by the seed outside Next's bundle: no "server-only" here.

import { treeDataJsonb } from "./tree-data";

/** The columns a published copy fills, in the order of PUBLISHED_COPY_COLUMNS and then the dates. */
export const INSERT_PUBLISHED_TREE = `
  INSERT INTO "PublishedTree" ("treeId", "ownerId", "tree", "people", "title", "description",
    "cover", "sims", "generations", "publishedAt", "updatedAt")`;

/**
 * treeId, ownerId, the tree's details, data and heirs, its people, oldest first, and what the Gallery's
 * tiles show: the title, description and cover, and the number of Sims and of generations (levels
 * of the structure).
 */
export const PUBLISHED_COPY_COLUMNS = `
  t."id", t."ownerId",
  jsonb_build_object(
    'title', t."title", 'description', t."description", 'cover', t."cover", 'data', ${treeDataJsonb("t")},
    'heirs', t."heirs"
  ),
  COALESCE((
    SELECT jsonb_agg(jsonb_build_object(
      '_id', p."id",
      'tree', p."treeId",
      'avatar', p."avatar",
      'firstName', p."firstName",
      'lastName', p."lastName",
      'bio', p."bio",
      'traits', COALESCE(to_jsonb(p."traits"), '[]'::jsonb),
      'aspirations', COALESCE(to_jsonb(p."aspirations"), '[]'::jsonb),
      'lifeStates', COALESCE(to_jsonb(p."lifeStates"), '[]'::jsonb),
      'custom', p."custom",
      'links', p."links"
    ) ORDER BY p."createdAt", p."id")
    FROM "Person" p WHERE p."treeId" = t."id"
  ), '[]'::jsonb),
  t."title", t."description", t."cover",
  (SELECT count(*) FROM "Person" p WHERE p."treeId" = t."id")::int,
  (WITH RECURSIVE level(node, depth) AS (
    SELECT ${treeDataJsonb("t")}, 1
    UNION ALL
    SELECT c.value, level.depth + 1
    FROM level, jsonb_array_elements(
      CASE WHEN jsonb_typeof(level.node -> 'children') = 'array'
        THEN level.node -> 'children' ELSE '[]'::jsonb END) c
  ) SELECT max(depth) FROM level)::int`;
