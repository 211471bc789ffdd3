import { describe, expect, it } from "vitest";
import {
  indexJsonbRefs,
  indexRefs,
  indexTreeRefs,
  listedIds,
  positionsOf,
  withPeopleList,
  withPersonIndexes,
  withPersonNames,
} from "./ref-names";

/** A tree's JSON text as TREE_JSON_SQL writes it: row_to_json, the structure in jsonb's text. */
const TREE =
  '{"_id":"t1","title":"A {\\"_id\\": \\"ada\\"} title","description":"","cover":null,' +
  '"data":{"hidden": false, "person": {"_id": "ada"}, "parents": [], "children": [' +
  '{"hidden": false, "person": {"_id": "kip"}, "parents": [{"_id": "ada"}, {"_id": "gone"}], ' +
  '"children": [], "partners": [{"type": "MARRIED", "people": [{"_id": "bo"}]}], ' +
  '"parentType": "NONE", "adoptiveParents": [{"_id": "ada"}]}], "partners": [], ' +
  '"parentType": "NONE", "adoptiveParents": []},"version":3,"heirs":["kip"]}';
/** The canvas people as PEOPLE_CANVAS_JSON_SQL writes them, oldest first. */
const PEOPLE =
  '[{"_id":"kip","avatar":null,"firstName":"Kip {\\"_id\\":\\"ada\\"}","lastName":"","links":[]},' +
  '{"_id":"bo","avatar":"avatar/x.png","firstName":"Bo","lastName":"","links":[{"title":"t","treeId":"t2","personId":"p"}]},' +
  '{"_id":"ada","avatar":null,"firstName":"Ada","lastName":"Lazy","links":[]}]';

describe("withPersonIndexes (GET /api/trees/{id}?fields=canvas, ADR 038)", () => {
  it("writes each reference as its person's position in the people sent with it", () => {
    const answer = JSON.parse(withPersonIndexes(TREE, PEOPLE)) as Record<string, unknown>;
    expect(Object.keys(answer)).toEqual([
      "_id",
      "title",
      "description",
      "cover",
      "data",
      "version",
      "heirs",
      "people",
    ]);
    expect(answer.people).toEqual(JSON.parse(PEOPLE));
    // a string that looks like a reference is left alone, and so is the heirs list of ids
    expect(answer.title).toBe('A {"_id": "ada"} title');
    expect(answer.heirs).toEqual(["kip"]);
    expect(answer.data).toEqual({
      hidden: false,
      person: 2,
      parents: [],
      children: [
        {
          hidden: false,
          person: 0,
          // a reference to nobody in the tree stays as stored
          parents: [2, { _id: "gone" }],
          children: [],
          partners: [{ type: "MARRIED", people: [1] }],
          parentType: "NONE",
          adoptiveParents: [2],
        },
      ],
      partners: [],
      parentType: "NONE",
      adoptiveParents: [],
    });
  });

  it("reads a compact structure's references too", () => {
    const compact = TREE.replace(/": /g, '":').replace(/, /g, ",");
    const answer = JSON.parse(withPersonIndexes(compact, PEOPLE)) as { data: { person: unknown } };
    expect(answer.data.person).toBe(2);
  });

  it("answers an empty people list for a tree without people", () => {
    const empty = '{"_id":"t1","data":{"person": null, "children": []},"version":1,"heirs":[]}';
    expect(JSON.parse(withPersonIndexes(empty, "[]"))).toEqual({
      _id: "t1",
      data: { person: null, children: [] },
      version: 1,
      heirs: [],
      people: [],
    });
  });
});

describe("withPersonNames (the original client's GET /api/trees/{id}, issue 13)", () => {
  it("gives each reference its person's names, and leaves anyone else's as stored", () => {
    const names = JSON.stringify({ ada: ["Ada", "Lazy"], kip: ["Kip", ""], bo: ["Bo", ""] });
    const answer = JSON.parse(withPersonNames(TREE, names)) as { data: { person: unknown } };
    expect(answer.data.person).toEqual({ _id: "ada", firstName: "Ada", lastName: "Lazy" });
    expect(withPersonNames(TREE, names)).toContain('{"_id": "gone"}');
  });
});

describe("indexTreeRefs and withPeopleList (the whole read, canvas-read.ts)", () => {
  it("are withPersonIndexes in two halves, and count the references left as stored", () => {
    const ids = listedIds(PEOPLE);
    expect(ids).toEqual(["kip", "bo", "ada"]);
    const indexed = indexTreeRefs(TREE, ids);
    // "gone" is nobody in the list: kept as stored, and counted
    expect(indexed.unresolved).toBe(1);
    expect(withPeopleList(indexed, PEOPLE)).toBe(withPersonIndexes(TREE, PEOPLE));
  });

  it("keeps the tree part right for a longer list whose first ids are the same", () => {
    const longer = `${PEOPLE.slice(0, -1)},{"_id":"new","avatar":null,"firstName":"N","lastName":"","links":[]}]`;
    const kept = indexTreeRefs(TREE, listedIds(PEOPLE));
    const fresh = indexTreeRefs(TREE, listedIds(longer));
    expect(kept.open).toBe(fresh.open);
  });
});

describe("indexJsonbRefs (the fast read's indexing of jsonb's text)", () => {
  it("answers what indexRefs answers for any text in jsonb's form", () => {
    const positions = positionsOf(["ada", "kip", "bo", ""]);
    const tokens = [
      '{"_id": "ada"}',
      '{"_id": "kip"}',
      '{"_id": "gone"}',
      '{"_id": ""}',
      '{"_id": "a\\b"}',
      '{"_id": "a\\"}',
      '{"_id": "a\\"b"}',
      '{"_id": "ada", "x": 1}',
      '"{\\"_id\\": \\"ada\\"}"',
      '{"$chunk": 3}',
      '{"_id": "bo"',
      '{"_id": "',
      ', ',
      "[",
      "]",
      '"text {"',
      "}",
    ];
    let seed = 7;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let run = 0; run < 2000; run += 1) {
      const text = Array.from(
        { length: 1 + Math.floor(random() * 12) },
        () => tokens[Math.floor(random() * tokens.length)],
      ).join("");
      expect(indexJsonbRefs(text, positions), text).toEqual(indexRefs(text, positions));
    }
    expect(indexJsonbRefs(TREE, positionsOf(listedIds(PEOPLE)))).toEqual(
      indexRefs(TREE, positionsOf(listedIds(PEOPLE))),
    );
  });
});
