// A generated Sims 4 legacy save for the benchmark.
import { writeSave, type FixtureSave, type FixtureSim } from "../../lib/sims4/testing";

/** A legacy of about `target` Sims: each heir marries in, each couple has three children. */
export function generatedLegacy(target: number): { bytes: Uint8Array; sims: number } {
  const base = 2n ** 60n;
  let next = 1n;
  const newId = () => base + next++;
  const sims: FixtureSim[] = [];
  const households: FixtureSave["households"] = [];
  let generation: bigint[] = [];
  const founderHh = newId();
  households.push({ id: founderHh, name: "Founders" });
  const a = newId();
  const b = newId();
  sims.push(
    { id: a, householdId: founderHh, firstName: "Ada", lastName: "Legacy", gender: 8192, age: 64, spouse: b, traits: [27454] },
    { id: b, householdId: founderHh, firstName: "Bram", lastName: "Legacy", gender: 4096, age: 64, spouse: a, traits: [27917] },
  );
  let couples: [bigint, bigint][] = [[a, b]];
  let activeHh = founderHh;
  for (let g = 1; sims.length < target; g += 1) {
    generation = [];
    const nextCouples: [bigint, bigint][] = [];
    for (const [mother, father] of couples) {
      const hh = newId();
      households.push({ id: hh, name: `Legacy ${g}` });
      activeHh = hh;
      for (let c = 0; c < 3 && sims.length < target; c += 1) {
        const child = newId();
        generation.push(child);
        const spouse = newId();
        sims.push({
          id: child, householdId: hh, firstName: `Heir ${g}.${c}`, lastName: "Legacy", gender: c % 2 ? 4096 : 8192,
          age: 16, spouse, relations: [[0, mother], [1, father]], traits: [16830],
        });
        if (sims.length < target) {
          sims.push({ id: spouse, householdId: hh, firstName: `Spouse ${g}.${c}`, lastName: "Married-In", age: 16, spouse: child });
          nextCouples.push(c % 2 ? [spouse, child] : [child, spouse]);
        }
      }
    }
    couples = nextCouples.slice(0, 400);
  }
  return { bytes: writeSave({ activeHouseholdId: activeHh, households, sims }), sims: sims.length };
}

