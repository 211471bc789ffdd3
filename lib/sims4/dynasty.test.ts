// Issue 34, "Dynasties" (Royalty & Legacy): the reader takes the save's dynasty service into its
// output. No real save at hand holds one (SOURCES.txt), so these saves are built with the test
// writer (testing.ts), from the field numbers the issue gives.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ImportError } from "@/lib/import/types";
import { SIMS4_LIMITS } from "./limits";
import { parseSims4, readSims4 } from "./index";
import { pb, writeDbpf, writeSave, type FixtureSave } from "./testing";
import { TOO_MANY_DYNASTIES, TOO_MANY_DYNASTY_MEMBERS, SAVE_GAME_DATA_TYPE } from "./save";

const BIG = 2n ** 63n + 11n;
const id = (n: number) => BIG + BigInt(n);
const HH = id(100);

const royals = (dynasties: FixtureSave["dynasties"]): FixtureSave => ({
  activeHouseholdId: HH,
  households: [{ id: HH, name: "Royal" }],
  sims: [
    { id: id(1), householdId: HH, firstName: "Queen", lastName: "Royal", spouse: id(2) },
    { id: id(2), householdId: HH, firstName: "Consort", lastName: "Royal", spouse: id(1) },
    {
      id: id(3),
      householdId: HH,
      firstName: "Heir",
      lastName: "Royal",
      relations: [
        [0, id(1)],
        [1, id(2)],
      ],
    },
  ],
  dynasties,
});

describe("the dynasty service", () => {
  it("reads a dynasty's name, head, heir, members with rank and outcast flag, values, description and prestige", () => {
    const save = readSims4(
      writeSave(
        royals([
          {
            name: "House Royal",
            head: id(1),
            heir: id(3),
            members: [
              { id: id(1), rank: 3 },
              { id: id(2), rank: 2 },
              { id: id(3), rank: 2 },
              { id: id(9), rank: 0, outcast: true },
              { id: id(3), rank: 1 },
            ],
            values: [2n ** 40n + 5n, 12345n],
            description: "Ruling since the first generation — «Ваше величество».",
            prestige: 1250.5,
          },
          { name: "Cadet Branch", prestige: 7, prestigeAs: "varint" },
          { name: "Doubled", prestige: 0.25, prestigeAs: "double" },
        ]),
      ),
    );
    expect(save.dynasties).toEqual([
      {
        name: "House Royal",
        head: id(1).toString(),
        heir: id(3).toString(),
        members: [
          { simId: id(1).toString(), rank: 3, outcast: false },
          { simId: id(2).toString(), rank: 2, outcast: false },
          { simId: id(3).toString(), rank: 2, outcast: false },
          { simId: id(9).toString(), rank: 0, outcast: true },
        ],
        values: [(2n ** 40n + 5n).toString(), "12345"],
        description: "Ruling since the first generation — «Ваше величество».",
        prestige: 1250.5,
      },
      {
        name: "Cadet Branch",
        head: null,
        heir: null,
        members: [],
        values: [],
        description: "",
        prestige: 7,
      },
      {
        name: "Doubled",
        head: null,
        heir: null,
        members: [],
        values: [],
        description: "",
        prestige: 0.25,
      },
    ]);
    // the household still imports as before beside it
    expect(parseSims4(writeSave(royals([{ name: "House Royal" }]))).people).toHaveLength(3);
  });

  it("finds no dynasty in the real saves, which are older than Royalty & Legacy", () => {
    const saves = path.resolve(__dirname, "../../../shared/data/sims4");
    for (const name of ["ffrese-2024.save", "randomis-2019.save"])
      expect(readSims4(new Uint8Array(fs.readFileSync(path.join(saves, name)))).dynasties).toEqual(
        [],
      );
  });

  /** A save whose dynasty service is `service` (raw fields), without the writer's checks. */
  const withService = (service: Uint8Array[]) => {
    const data = pb.concat([
      pb.message(2, [pb.varint(11, HH), pb.message(8, [pb.message(60, service)])]),
      pb.message(5, [pb.fixed64(2, HH), pb.string(3, "Royal")]),
    ]);
    return writeDbpf([{ type: SAVE_GAME_DATA_TYPE, data, compression: "zlib" }]);
  };

  it("refuses more dynasties than the cap, counting empty ones, in bounded time", () => {
    const empty = pb.message(1, []);
    const started = performance.now();
    expect(() =>
      readSims4(withService(Array.from({ length: SIMS4_LIMITS.maxDynasties + 1 }, () => empty))),
    ).toThrow(new ImportError(TOO_MANY_DYNASTIES));
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("refuses a dynasty with more members than the cap, repeats of one Sim counted", () => {
    const member = pb.message(6, [pb.fixed64(1, id(1))]);
    const dynasty = pb.message(1, [
      pb.string(2, "Endless"),
      ...Array.from({ length: SIMS4_LIMITS.maxDynastyMembers + 1 }, () => member),
    ]);
    expect(() => readSims4(withService([dynasty]))).toThrow(
      new ImportError(TOO_MANY_DYNASTY_MEMBERS),
    );
  });
});
