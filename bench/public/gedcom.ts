/**
 * GEDCOM 5.5.1 files of synthetic legacies for `npm run bench:public`, imported through the API
 * like a player's file. Three shapes:
 * - wide: every child marries and has 3 children, so generations fill out (about 8 at 10,000);
 * - deep: 3 children per couple, but only the first two marry, so the lines run longer;
 * - real: what genealogy programs export: 0 to 7 children, remarriages, people without families,
 *   dates, places, notes continued over CONT/CONC lines, sex, and names with accents.
 */
import { createRandom } from "../../scripts/lib/legacy/generate";

export type Shape = "wide" | "deep" | "real";

const FIRST = [
  "Bella",
  "Mortimer",
  "Cassandra",
  "Alexander",
  "Agnes",
  "Élodie",
  "Björn",
  "Zoë",
  "Nikolai",
  "Aurora",
  "Hiroshi",
  "Olúwaseun",
  "Maximilian-Alexander",
  "Ines",
  "Ruth",
];
const LAST = [
  "Goth",
  "Landgraab",
  "Pancakes",
  "Caliente",
  "Ødegård",
  "Nguyễn",
  "Villareal",
  "Crumplebottom",
  "Spencer-Kim-Lewis",
];
const PLACES = [
  "Willow Creek",
  "Oasis Springs",
  "San Myshuno",
  "Windenburg, Germany",
  "Brindleton Bay",
];
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

interface Indi {
  id: number;
  sex: "M" | "F";
  born: number;
  fams: number[];
  famc?: number;
}
interface Fam {
  id: number;
  husb: number;
  wife: number;
  children: number[];
}

export function generateGedcom(sims: number, shape: Shape, seed = sims): string {
  // Seeded (the legacies' mulberry32), so every run imports the same files.
  const rand = createRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
  const people: Indi[] = [];
  const families: Fam[] = [];
  const person = (sex: "M" | "F", born: number, famc?: number) => {
    const indi: Indi = { id: people.length + 1, sex, born, fams: [], famc };
    people.push(indi);
    return indi;
  };
  const marry = (a: Indi, born: number) => {
    const spouse = person(a.sex === "M" ? "F" : "M", born);
    const fam: Fam = {
      id: families.length + 1,
      husb: a.sex === "M" ? a.id : spouse.id,
      wife: a.sex === "M" ? spouse.id : a.id,
      children: [],
    };
    families.push(fam);
    a.fams.push(fam.id);
    spouse.fams.push(fam.id);
    return fam;
  };

  const founder = person("M", 1700);
  let queue: Fam[] = [marry(founder, 1702)];
  while (people.length < sims && queue.length > 0) {
    const next: Fam[] = [];
    for (const fam of queue) {
      const parent = people[fam.husb - 1]!;
      const count = shape === "real" ? Math.floor(rand() * 8) : 3;
      for (let index = 0; index < count && people.length < sims; index += 1) {
        const child = person(rand() < 0.5 ? "M" : "F", parent.born + 22 + index * 2, fam.id);
        fam.children.push(child.id);
        const marries = shape === "wide" ? true : shape === "deep" ? index < 2 : rand() < 0.6;
        if (marries && people.length < sims) {
          next.push(marry(child, child.born + 1));
          // A remarriage now and then, in real files.
          if (shape === "real" && rand() < 0.08 && people.length < sims) {
            next.push(marry(child, child.born + 3));
          }
        }
      }
    }
    queue = next.length > 0 ? next : shape === "real" ? [marry(person("F", 1750), 1751)] : [];
  }
  // Real files hold people nobody is related to in the file, too.
  while (people.length < sims) person(rand() < 0.5 ? "M" : "F", 1800 + Math.floor(rand() * 100));

  const lines = [
    "0 HEAD",
    "1 SOUR BENCH_PUBLIC",
    "1 GEDC",
    "2 VERS 5.5.1",
    "2 FORM LINEAGE-LINKED",
    "1 CHAR UTF-8",
  ];
  for (const indi of people) {
    const given = pick(FIRST);
    const surname = pick(LAST);
    lines.push(`0 @I${indi.id}@ INDI`, `1 NAME ${given} /${surname}/`, `1 SEX ${indi.sex}`);
    if (shape !== "real" || rand() < 0.8) {
      lines.push("1 BIRT", `2 DATE ${1 + Math.floor(rand() * 28)} ${pick(MONTHS)} ${indi.born}`);
      if (shape === "real") lines.push(`2 PLAC ${pick(PLACES)}`);
    }
    if (shape === "real" && rand() < 0.1) {
      lines.push(
        "1 NOTE A long story about this Sim, told by the family over many",
        "2 CONC  evenings by the fire,",
        "2 CONT and continued on a second line.",
      );
    }
    if (indi.famc) lines.push(`1 FAMC @F${indi.famc}@`);
    for (const fam of indi.fams) lines.push(`1 FAMS @F${fam}@`);
  }
  for (const fam of families) {
    lines.push(`0 @F${fam.id}@ FAM`, `1 HUSB @I${fam.husb}@`, `1 WIFE @I${fam.wife}@`);
    for (const child of fam.children) lines.push(`1 CHIL @I${child}@`);
  }
  lines.push("0 TRLR");
  return `${lines.join("\n")}\n`;
}
