-- What the editor's canvas draws of a person (ADR 032, 038), kept with the person as the JSON text
-- the reads send: `{"_id":…,"avatar":…,"firstName":…,"lastName":…,"links":…}`, byte for byte what
-- row_to_json wrote of those columns. The editor's first load of a 10,000-Sim legacy spent some
-- 22 ms of PostgreSQL's time writing that JSON for every person on every read; now a read joins
-- the stored texts. A generated column: the database writes it on every insert and update, by
-- whatever path (the API, an import, a restore), and no code can forget to.
--
-- IMMUTABLE is true of this function: to_json of text and jsonb's text do not depend on any
-- setting (no date, number or locale formats), only on their arguments.
CREATE FUNCTION "heirloom_canvas_person"(id text, avatar text, "firstName" text, "lastName" text, links jsonb)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '{"_id":' || to_json(id)::text || ',"avatar":' || COALESCE(to_json(avatar)::text, 'null')
    || ',"firstName":' || to_json("firstName")::text || ',"lastName":' || to_json("lastName")::text
    || ',"links":' || links::text || '}'
$$;

-- AlterTable
ALTER TABLE "Person" ADD COLUMN "canvasJson" TEXT GENERATED ALWAYS AS
  ("heirloom_canvas_person"("id", "avatar", "firstName", "lastName", "links")) STORED;
