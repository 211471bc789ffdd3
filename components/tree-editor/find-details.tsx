"use client";
import { Button } from "@/components/ui/button";
import type { Person } from "@/lib/schemas/person";
import type { Relationship } from "@/lib/tree/relationship";

export interface FindDetailsProps {
  person: Person;
  generation: number | undefined;
  heir: boolean;
  /** Marks or unmarks the heir; undefined when read-only. */
  onToggleHeir?: (personId: string) => void;
  canRelate: boolean;
  /** The Find field is waiting for the second Sim. */
  relating: boolean;
  onRelate: () => void;
  onCancelRelate: () => void;
  answer: Relationship | null;
  onClearAnswer: () => void;
}

/** The details panel's generation, heir mark and "How are they related?" (issue 26). */
export function FindDetails({
  person,
  generation,
  heir,
  onToggleHeir,
  canRelate,
  relating,
  onRelate,
  onCancelRelate,
  answer,
  onClearAnswer,
}: FindDetailsProps) {
  return (
    <div className="space-y-3 rounded-lg border border-plum-100 bg-plum-50/60 p-3 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        {generation !== undefined ? (
          <p className="font-semibold text-plum-900" data-generation={generation}>
            Generation {generation}
          </p>
        ) : (
          <p className="text-neutral-600">Not placed in the tree</p>
        )}
        {onToggleHeir && generation !== undefined ? (
          <label className="flex cursor-pointer items-center gap-2 font-medium text-plum-900">
            <input
              type="checkbox"
              checked={heir}
              onChange={() => onToggleHeir(person._id)}
              className="size-4 accent-emerald-700"
            />
            Heir
          </label>
        ) : (
          heir && (
            <span className="rounded-full bg-emerald-700 px-2.5 py-0.5 text-xs font-semibold text-white">
              Heir of generation {generation}
            </span>
          )
        )}
      </div>
      {canRelate && generation !== undefined && (
        <div className="space-y-2">
          {relating ? (
            <div className="flex flex-wrap items-center gap-2">
              <p role="status" className="text-plum-900">
                Pick the second Sim in “Find a Sim”.
              </p>
              <Button variant="ghost" size="sm" onClick={onCancelRelate}>
                Cancel
              </Button>
            </div>
          ) : (
            <Button variant="secondary" size="sm" onClick={onRelate}>
              How are they related?
            </Button>
          )}
          {answer && (
            <div className="flex items-start gap-2">
              <p role="status" data-relationship="" className="flex-1 font-medium text-neutral-900">
                {answer.sentence}
              </p>
              <Button variant="ghost" size="sm" onClick={onClearAnswer}>
                Clear
              </Button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
