-- AlterTable
ALTER TABLE "Tree" ADD COLUMN     "peopleGeneration" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "treeGeneration" INTEGER NOT NULL DEFAULT 1;

-- The fast read path (lib/server/fast-reads.ts) keeps the gzipped bodies of GET /api/trees/{id}
-- and GET /api/people?tree= keyed by these generations, which the database itself keeps current:
-- no write path can forget to, including ones added later. Each read checks the generation with
-- a one-row query and serves the stored body only when it is the same.

-- Any change to a tree's row bumps its tree generation; a bump of its people generation (below)
-- changes nothing the tree's own answer holds, so it does not.
CREATE FUNCTION "heirloom_bump_tree_generation"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."peopleGeneration" IS NOT DISTINCT FROM OLD."peopleGeneration" THEN
    NEW."treeGeneration" := OLD."treeGeneration" + 1;
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "Tree_bump_tree_generation"
BEFORE UPDATE ON "Tree"
FOR EACH ROW EXECUTE FUNCTION "heirloom_bump_tree_generation"();

-- Once per statement, not per row: an import that inserts 10,000 people bumps its tree once.
CREATE FUNCTION "heirloom_bump_people_generation"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "Tree" SET "peopleGeneration" = "peopleGeneration" + 1
  WHERE "id" IN (SELECT DISTINCT "treeId" FROM "changed_people");
  RETURN NULL;
END;
$$;

CREATE TRIGGER "Person_bump_people_generation_insert"
AFTER INSERT ON "Person" REFERENCING NEW TABLE AS "changed_people"
FOR EACH STATEMENT EXECUTE FUNCTION "heirloom_bump_people_generation"();

CREATE TRIGGER "Person_bump_people_generation_update"
AFTER UPDATE ON "Person" REFERENCING NEW TABLE AS "changed_people"
FOR EACH STATEMENT EXECUTE FUNCTION "heirloom_bump_people_generation"();

CREATE TRIGGER "Person_bump_people_generation_delete"
AFTER DELETE ON "Person" REFERENCING OLD TABLE AS "changed_people"
FOR EACH STATEMENT EXECUTE FUNCTION "heirloom_bump_people_generation"();
