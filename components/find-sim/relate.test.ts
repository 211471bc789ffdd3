import { describe, expect, it, vi } from "vitest";
import type { Person } from "@/lib/schemas/person";
import { buildKinship } from "@/lib/tree/placements";
import { node, person } from "@/lib/tree/test-trees";
import { relateWithGender } from "./relate";

const refs = (...ids: string[]) => ids.map((_id) => ({ _id }));

// Gran's children: Pat (Bo's parent) and Cora (Bo's aunt).
const kin = buildKinship(
  node("gran", [
    node("pat", [node("bo", [], { parents: refs("pat") })], { parents: refs("gran") }),
    node("cora", [], { parents: refs("gran") }),
  ]),
);
const withGender = (p: Person, gender: string): Person => ({
  ...p,
  custom: [{ title: "Gender", value: gender }],
});

describe("relateWithGender", () => {
  // as the editor holds them: no custom rows (ADR 032)
  const lean = new Map(
    [person("gran", "Gran"), person("pat", "Pat"), person("bo", "Bo"), person("cora", "Cora")].map(
      (p) => [p._id, p] as const,
    ),
  );

  it("fetches A's whole record and names the relation in A's gender", async () => {
    const loadWhole = vi.fn((p: Person) => Promise.resolve(withGender(p, "Female")));
    const answer = await relateWithGender(kin, lean, "cora", "bo", loadWhole);
    expect(answer.sentence).toBe("Cora is Bo's aunt.");
    expect(loadWhole).toHaveBeenCalledTimes(1);
    expect(loadWhole.mock.calls[0]?.[0]._id).toBe("cora");
    // the people held are left as they were
    expect(lean.get("cora")?.custom).toEqual([]);
  });

  it("uses the Sims held when they are whole (the loader answers null)", async () => {
    const whole = new Map(lean);
    whole.set("cora", withGender(person("cora", "Cora"), "Male"));
    const answer = await relateWithGender(kin, whole, "cora", "bo", () => null);
    expect(answer.sentence).toBe("Cora is Bo's uncle.");
  });

  it("falls back to the neutral words when the fetch fails", async () => {
    const answer = await relateWithGender(kin, lean, "cora", "bo", () =>
      Promise.reject(new Error("offline")),
    );
    expect(answer.sentence).toBe("Cora is Bo's parent's sibling.");
  });
});
