/**
 * A generated real-world-like genealogy as a GEDCOM 5.5.1 file: many unrelated families of
 * different depths (as a genealogist's research file holds), couples with several marriages and
 * divorces, adopted children (PEDI adopted), long and accented names, and people with no family
 * at all. Imported, it gives a root with hundreds of hidden branches beside the main family
 * (ADR 007). Deterministic for a given seed.
 */
import { createRandom } from "../../scripts/lib/legacy/generate";

const GIVEN = [
  "Johann Friedrich",
  "Maria Magdalena",
  "Anna",
  "Élisabeth",
  "Wilhelmina Josephina",
  "Pieter",
  "Catharina",
  "Søren",
  "Ingeborg",
  "Bartholomew",
  "Marguerite-Antoinette",
  "José",
  "Zofia",
  "Thomas",
  "Mary",
  "Eleanor",
  "Hendrik",
  "Giuseppe",
  "Åsa",
  "Cornelius",
];
const SURNAMES = [
  "Schmidt",
  "van der Berg",
  "O'Sullivan",
  "Dubois",
  "Kowalczyk",
  "Rasmussen",
  "Fitzgerald-Montgomery",
  "Nguyen",
  "Müller",
  "Rossi",
  "Andersson",
  "MacLeod",
  "de la Fuente y Navarro",
  "Smith",
  "Jansen",
];

export interface GenealogyOptions {
  /** About how many people (INDI records) the file holds. */
  people: number;
  seed?: number;
}

export function generateGenealogy(options: GenealogyOptions): { text: string; people: number } {
  const rand = createRandom(options.seed ?? 1789);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  interface Indi {
    id: number;
    given: string;
    surname: string;
    sex: "M" | "F";
    famc: { fam: number; adopted: boolean }[];
    fams: number[];
  }
  interface Fam {
    id: number;
    husb: number | null;
    wife: number | null;
    chil: number[];
    divorced: boolean;
  }
  const indis: Indi[] = [];
  const fams: Fam[] = [];
  const person = (surname: string, sex: "M" | "F"): Indi => {
    const indi: Indi = {
      id: indis.length + 1,
      given: pick(GIVEN),
      surname,
      sex,
      famc: [],
      fams: [],
    };
    indis.push(indi);
    return indi;
  };
  const family = (husb: Indi, wife: Indi, divorced: boolean): Fam => {
    const fam: Fam = { id: fams.length + 1, husb: husb.id, wife: wife.id, chil: [], divorced };
    fams.push(fam);
    husb.fams.push(fam.id);
    wife.fams.push(fam.id);
    return fam;
  };

  // Unrelated families, each of 1 to 9 generations, until the file has enough people. About one
  // person in twenty is on their own: a name found in a record, not yet placed in a family.
  while (indis.length < options.people) {
    if (rand() < 0.05) {
      person(pick(SURNAMES), rand() < 0.5 ? "M" : "F");
      continue;
    }
    const depth = 1 + Math.floor(rand() * rand() * 9);
    const surname = pick(SURNAMES);
    let couples: Fam[] = [family(person(surname, "M"), person(pick(SURNAMES), "F"), false)];
    for (let generation = 1; generation < depth && indis.length < options.people; generation += 1) {
      const next: Fam[] = [];
      for (const fam of couples) {
        const children = Math.floor(rand() * 5);
        for (let i = 0; i < children; i += 1) {
          const sex = rand() < 0.5 ? "M" : "F";
          const childSurname = indis[fam.husb! - 1]!.surname;
          const child = person(childSurname, sex);
          const adopted = rand() < 0.04;
          child.famc.push({ fam: fam.id, adopted });
          fam.chil.push(child.id);
          if (rand() < 0.55) {
            const spouse = person(pick(SURNAMES), sex === "M" ? "F" : "M");
            const [h, w] = sex === "M" ? [child, spouse] : [spouse, child];
            const divorced = rand() < 0.1;
            next.push(family(h, w, divorced));
            if (divorced && rand() < 0.6) {
              const second = person(pick(SURNAMES), sex === "M" ? "F" : "M");
              next.push(sex === "M" ? family(child, second, false) : family(second, child, false));
            }
          }
        }
      }
      couples = next;
    }
  }

  const lines = [
    "0 HEAD",
    "1 SOUR BENCH",
    "2 NAME Heirloom bench genealogy",
    "1 GEDC",
    "2 VERS 5.5.1",
    "2 FORM LINEAGE-LINKED",
    "1 CHAR UTF-8",
  ];
  for (const indi of indis) {
    lines.push(
      `0 @I${indi.id}@ INDI`,
      `1 NAME ${indi.given} /${indi.surname}/`,
      `1 SEX ${indi.sex}`,
    );
    for (const { fam, adopted } of indi.famc) {
      lines.push(`1 FAMC @F${fam}@`);
      if (adopted) lines.push("2 PEDI adopted");
    }
    for (const fam of indi.fams) lines.push(`1 FAMS @F${fam}@`);
  }
  for (const fam of fams) {
    lines.push(`0 @F${fam.id}@ FAM`);
    if (fam.husb) lines.push(`1 HUSB @I${fam.husb}@`);
    if (fam.wife) lines.push(`1 WIFE @I${fam.wife}@`);
    lines.push("1 MARR Y");
    if (fam.divorced) lines.push("1 DIV Y");
    for (const child of fam.chil) lines.push(`1 CHIL @I${child}@`);
  }
  lines.push("0 TRLR", "");
  return { text: lines.join("\n"), people: indis.length };
}
