// Issue 34's household list and import report, rendered as the player reads them (English and
// German catalogs, messages/<locale>/game.json).
import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { readCatalog } from "@/lib/i18n/catalog-files";
import { ImportReportCard } from "./import-report";
import { filterHouseholds, foldForSearch, type HouseholdChoice } from "./sims4-client";
import { Sims4Households } from "./sims4-households";

// the report's link to the tree prefetches through the app router, which a static render has not
vi.mock("@/components/ui/intent-link", () => ({
  IntentLink: ({ href, children }: { href: string; children: ReactNode }) => (
    <a href={href}>{children}</a>
  ),
}));

const render = (node: ReactNode, locale = "en") =>
  renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={readCatalog(locale)} timeZone="UTC">
      {node}
    </NextIntlClientProvider>,
  )
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ");

const household = (
  id: string,
  name: string,
  memberNames: string[],
  family: number,
  relatives: string[] = [],
): HouseholdChoice => ({
  id,
  name,
  members: memberNames.length,
  family,
  memberNames,
  preview: [...memberNames, ...relatives],
});

const HOUSEHOLDS = [
  household(
    "1152921504606847076",
    "Goth",
    ["Bella Goth", "Mortimer Goth", "Cassandra Goth", "Alexander Goth"],
    6,
    ["Gunther Goth", "Cornelia Goth"],
  ),
  household("1152921504606847176", "Heck", ["Brant Hecking", "Rosie"], 2),
  household("1152921504606847276", "Heck", ["Marcus Flex"], 1),
  household("1152921504606847376", "", ["Cléo Kovač", "Ёжик"], 2),
];

function list(selected: string[], locale = "en") {
  const markup = renderToStaticMarkup(
    <NextIntlClientProvider locale={locale} messages={readCatalog(locale)} timeZone="UTC">
      <Sims4Households households={HOUSEHOLDS} selected={selected} onChange={() => undefined} />
    </NextIntlClientProvider>,
  );
  return {
    markup,
    text: render(
      <Sims4Households households={HOUSEHOLDS} selected={selected} onChange={() => undefined} />,
      locale,
    ),
  };
}

describe("the household list", () => {
  it("ticks households with checkboxes, the active one first, and keeps 64-bit ids exact", () => {
    const { markup } = list([HOUSEHOLDS[0]!.id, HOUSEHOLDS[2]!.id]);
    expect(markup.match(/type="checkbox"/g)).toHaveLength(4);
    expect(markup).not.toContain('type="radio"');
    const checked = (markup.match(/<input[^>]*>/g) ?? [])
      .filter((tag) => tag.includes('type="checkbox"') && / checked=""/.test(tag))
      .map((tag) => /value="(\d+)"/.exec(tag)?.[1]);
    expect(checked).toEqual([HOUSEHOLDS[0]!.id, HOUSEHOLDS[2]!.id]);
  });

  it("shows each household's members and explains its counts", () => {
    const { text } = list([HOUSEHOLDS[0]!.id]);
    expect(text).toContain("Bella Goth, Mortimer Goth, Cassandra Goth, and Alexander Goth");
    expect(text).toContain("4 live here; 6 with their parents, partners and culled ancestors");
    expect(text).toContain("1 lives here; no one else comes in with them");
    // the two Hecks are told apart by who lives there
    expect(text).toContain("Heck Brant Hecking and Rosie");
    expect(text).toContain("Heck Marcus Flex");
    expect(text).toContain("Unnamed household Cléo Kovač and Ёжик");
    expect(text).toContain(
      "Who comes in: 6 Sims Bella Goth, Mortimer Goth, Cassandra Goth, Alexander Goth, Gunther Goth, and Cornelia Goth",
    );
  });

  it("previews several households at once, and asks for one when none is ticked", () => {
    expect(list([HOUSEHOLDS[0]!.id, HOUSEHOLDS[1]!.id]).text).toContain(
      "Who comes in: up to 8 Sims from 2 households, each Sim once",
    );
    expect(list([]).text).toContain("Tick at least one household to import.");
  });

  it("speaks the player's language", () => {
    const { text } = list([HOUSEHOLDS[0]!.id], "de");
    expect(text).toContain(
      "4 wohnen hier; 6 mit ihren Eltern, Partnern und vom Spiel entfernten Vorfahren",
    );
    expect(text).toContain("Bella Goth, Mortimer Goth, Cassandra Goth und Alexander Goth");
    const ru = list([HOUSEHOLDS[3]!.id], "ru").text;
    expect(ru).toContain("Семья без названия");
    expect(ru).toContain("2 живут здесь; больше никто с ними не попадает");
  });

  it("finds a household by its name or a Sim's, with accents and case ignored", () => {
    const ids = (search: string) =>
      filterHouseholds(HOUSEHOLDS, search).map((h) => h.name || h.memberNames[0]);
    expect(ids("heck")).toEqual(["Heck", "Heck"]);
    expect(ids("cleo")).toEqual(["Cléo Kovač"]);
    expect(ids("  KOVAC ")).toEqual(["Cléo Kovač"]);
    expect(ids("ежик")).toEqual(["Cléo Kovač"]);
    expect(ids("rosie")).toEqual(["Heck"]);
    expect(ids("")).toHaveLength(4);
    expect(ids("nobody")).toEqual([]);
    expect(foldForSearch("Ǆemal Šarić")).toBe("ǆemal saric");
  });
});

describe("the report after an import", () => {
  const report = {
    treeId: "t1",
    title: "Delgato",
    people: 6,
    families: 3,
    notes: ["Суприя Дельгато has an aspiration the game did not name, so it was left out."],
  };

  it("speaks of the save and its Sims after a game import, not of a genealogy program", () => {
    const text = render(
      <ImportReportCard report={{ ...report, game: true }} onAnother={() => undefined} />,
    );
    expect(text).toContain("What the save lacked");
    expect(text).toContain("Every Sim of the households you chose is in the tree.");
    expect(text).not.toContain("genealogy program");
    expect(text).toContain("an aspiration the game did not name");
    expect(text).toContain(
      "“Delgato” is ready: 6 Sims in 3 families: the largest opens first, the others sit beside it, unlinked.",
    );
  });

  it("keeps the genealogy program's sentence for a GEDCOM file", () => {
    const text = render(<ImportReportCard report={report} onAnother={() => undefined} />);
    expect(text).toContain("What the import read past");
    expect(text).toContain("Your genealogy program can fix them in the original file.");
  });
});
