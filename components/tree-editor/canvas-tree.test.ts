import { describe, expect, it } from "vitest";
import { needsDetails } from "@/lib/client/canvas-people";
import { emptyNode } from "@/lib/tree/empty-node";
import { type CanvasRef, type CanvasTree, canvasTreeUrl, fromCanvasTree } from "./canvas-tree";

const at = (ref: CanvasRef) => ref as unknown as { _id: string };

const answer = (): CanvasTree => ({
  _id: "t1",
  title: "Lazy Legacy",
  description: "",
  cover: null,
  version: 4,
  heirs: ["kip"],
  data: {
    ...emptyNode(),
    person: at(1),
    children: [
      {
        ...emptyNode(),
        person: at(0),
        parents: [at(1), at({ _id: "gone" })],
        partners: [{ type: "MARRIED", people: [at(2)] }],
        adoptiveParents: [at(1)],
      },
    ],
  },
  people: [
    { _id: "kip", avatar: null, firstName: "Kip", lastName: "Lazy", links: [] },
    { _id: "ada", avatar: "avatar/a.png", firstName: "Ada", lastName: "Lazy", links: [] },
    { _id: "bo", avatar: null, firstName: "Bo", lastName: "", links: [] },
  ],
});

describe("fromCanvasTree (the editor's one read, ADR 038)", () => {
  it("turns positions back into references and the people into lean persons", () => {
    const { tree, people } = fromCanvasTree(answer());
    expect(tree).toEqual({
      _id: "t1",
      title: "Lazy Legacy",
      description: "",
      cover: null,
      version: 4,
      heirs: ["kip"],
      data: {
        ...emptyNode(),
        person: { _id: "ada" },
        children: [
          {
            ...emptyNode(),
            person: { _id: "kip" },
            parents: [{ _id: "ada" }, { _id: "gone" }],
            partners: [{ type: "MARRIED", people: [{ _id: "bo" }] }],
            adoptiveParents: [{ _id: "ada" }],
          },
        ],
      },
    });
    expect(people.map((person) => [person._id, person.tree, person.firstName, person.bio])).toEqual(
      [
        ["kip", "t1", "Kip", ""],
        ["ada", "t1", "Ada", ""],
        ["bo", "t1", "Bo", ""],
      ],
    );
    expect(people.every(needsDetails)).toBe(true);
  });

  it("refuses a position outside the people sent", () => {
    const broken = answer();
    broken.data.person = at(3);
    expect(() => fromCanvasTree(broken)).toThrow("The tree refers to person 3 of 3");
  });

  it("asks for the tree's canvas read", () => {
    expect(canvasTreeUrl("a%20b")).toBe("/api/trees/a%20b?fields=canvas");
  });
});
