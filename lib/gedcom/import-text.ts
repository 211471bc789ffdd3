// Text helpers of the GEDCOM import (lib/gedcom/import.ts): clipping, names, notes as HTML.
import type { ImportedPerson } from "@/lib/import/types";
import { child, type GedcomNode } from "./parse";

export const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

export const squash = (text: string) => text.replace(/\s+/g, " ").trim();

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/** Plain text as HTML paragraphs: blank lines part paragraphs, single line breaks stay breaks. */
export function textToHtml(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map((paragraph) => `<p>${paragraph.split("\n").map(escapeHtml).join("<br>")}</p>`)
    .join("");
}

export function isHtml(node: GedcomNode): boolean {
  const mime = child(node, "MIME");
  return mime?.value.trim().toLowerCase() === "text/html";
}

export function splitName(value: string): { given: string; surname: string } {
  const match = /^([^/]*)\/([^/]*)\/?(.*)$/.exec(value);
  if (!match) return { given: squash(value), surname: "" };
  return {
    given: squash(match[1]!),
    surname: squash(`${match[2]!} ${match[3]!}`.replace(/ ,/g, ",")),
  };
}

export function displayName(person: ImportedPerson, xref: string): string {
  const name = `${person.firstName} ${person.lastName}`.trim();
  return name ? `${name} (@${xref}@)` : `@${xref}@`;
}
