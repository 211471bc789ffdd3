// Large GEDCOM files for the stall test and bench (issue 22, finding 4): a genealogy of `people`
// Sims in couples with two children each, every Sim with a note of `noteLines` lines, and a file of
// records nested to GEDCOM's deepest level (99) over and over.

const encoder = new TextEncoder();

/**
 * A genealogy of `people` Sims in couples (family k: Sims 2k-1 and 2k), about 17 generations deep
 * for 100,000: family k's two children are the husband of family 2k and the wife of family 2k+1,
 * whose other partners marry in. Each Sim has a birth, a death and a note of `noteLines` lines.
 * With 100,000 people and 40 note lines it is about 4.9 million lines and 49 MB, the size of the
 * issue's file.
 */
export function genealogyGedcom(people: number, noteLines = 40): Uint8Array {
  const lines: string[] = ["0 HEAD", "1 GEDC", "2 VERS 5.5.1", "1 CHAR UTF-8"];
  const families = Math.floor(people / 2);
  const parentFamily = (i: number) =>
    i % 4 === 3 ? (i + 1) / 4 : i % 4 === 2 && i > 2 ? (i - 2) / 4 : 0;
  for (let i = 1; i <= people; i++) {
    lines.push(`0 @I${i}@ INDI`, `1 NAME Sim${i} /Legacy${i % 97}/`, `1 SEX ${i % 2 ? "M" : "F"}`);
    lines.push("1 BIRT", `2 DATE ${1 + (i % 28)} JAN ${1800 + (i % 200)}`, "2 PLAC Willow Creek");
    lines.push("1 DEAT", `2 DATE ${1 + (i % 28)} DEC ${1860 + (i % 200)}`);
    lines.push(`1 NOTE Line 0 of Sim ${i}'s story`);
    for (let n = 1; n < noteLines; n++) lines.push(`2 CONT line ${n}`);
    const own = Math.ceil(i / 2);
    if (own <= families) lines.push(`1 FAMS @F${own}@`);
    const parent = parentFamily(i);
    if (parent >= 1) lines.push(`1 FAMC @F${parent}@`);
  }
  for (let k = 1; k <= families; k++) {
    lines.push(`0 @F${k}@ FAM`, `1 HUSB @I${2 * k - 1}@`, `1 WIFE @I${2 * k}@`);
    for (const child of [4 * k - 1, 4 * k + 2])
      if (child <= people) lines.push(`1 CHIL @I${child}@`);
  }
  lines.push("0 TRLR", "");
  return encoder.encode(lines.join("\n"));
}

/**
 * About `megabytes` MB of records nested 99 levels deep (GEDCOM's limit), each level a custom tag:
 * the parser keeps a stack of 99 open structures the whole way through.
 */
export function nestedGedcom(megabytes: number): Uint8Array {
  const lines: string[] = ["0 HEAD", "1 GEDC", "2 VERS 5.5.1", "1 CHAR UTF-8"];
  let size = 0;
  for (let record = 1; size < megabytes * 1024 * 1024; record++) {
    lines.push(`0 @I${record}@ INDI`, `1 NAME Deep${record} /Nest/`);
    for (let level = 1; level <= 99; level++) {
      const line = `${level} _DEEP level ${level} of ${record}`;
      lines.push(line);
      size += line.length + 1;
    }
  }
  lines.push("0 TRLR", "");
  return encoder.encode(lines.join("\n"));
}
