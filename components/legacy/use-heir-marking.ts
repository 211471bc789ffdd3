"use client";
import { useTranslations } from "next-intl";
import { useCallback } from "react";
import { toast } from "sonner";
import type { Person } from "@/lib/schemas/person";
import { toggleHeir } from "@/lib/tree/heirs";

const nameOf = (people: ReadonlyMap<string, Person>, id: string) => {
  const person = people.get(id);
  return person ? `${person.firstName} ${person.lastName}`.trim() || id : id;
};

/**
 * Marking and un-marking heirs, one per generation (lib/tree/heirs.ts): when marking a Sim moves
 * the mark from their generation's heir (or heirs, where a recount brought two together), the
 * editor says so in a toast with Undo, which puts the marks back as they were (issue 33).
 */
export function useHeirMarking({
  heirs,
  generationOf,
  people,
  apply,
}: {
  heirs: readonly string[];
  generationOf: (id: string) => number | undefined;
  people: ReadonlyMap<string, Person>;
  apply: (next: readonly string[]) => void;
}): (personId: string) => void {
  const t = useTranslations("HeirMarks");
  return useCallback(
    (personId: string) => {
      const before = heirs;
      const next = toggleHeir(before, personId, generationOf);
      apply(next);
      const generation = generationOf(personId);
      if (!next.includes(personId) || generation === undefined) return;
      const unmarked = before.filter((id) => id !== personId && generationOf(id) === generation);
      if (unmarked.length === 0) return;
      toast(
        t("moved", {
          name: nameOf(people, personId),
          generation,
          previous: unmarked.map((id) => nameOf(people, id)).join(", "),
        }),
        { id: "heir-moved", action: { label: t("undo"), onClick: () => apply(before) } },
      );
    },
    [heirs, generationOf, people, apply, t],
  );
}
