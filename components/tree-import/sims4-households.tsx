"use client";
import { cx } from "@/components/ui/class-names";
import type { HouseholdChoice } from "./sims4-client";

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * The households of a Sims 4 save, the active one first, each with its member and family counts;
 * the chosen one's family is previewed by name.
 */
export function Sims4Households({
  households,
  selected,
  onSelect,
  disabled,
}: {
  households: HouseholdChoice[];
  selected: string | null;
  onSelect: (id: string) => void;
  disabled?: boolean;
}) {
  const chosen = households.find((h) => h.id === selected) ?? null;
  return (
    <fieldset className="space-y-3" data-sims4-households="">
      <legend className="text-sm font-medium text-neutral-800">Household to import</legend>
      <ul className="max-h-80 space-y-2 overflow-y-auto pr-1">
        {households.map((household, index) => (
          <li key={household.id}>
            <label
              className={cx(
                "flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2",
                household.id === selected ? "border-plum-600 bg-plum-50" : "border-plum-100 bg-white",
              )}
            >
              <input
                type="radio"
                name="household"
                value={household.id}
                checked={household.id === selected}
                disabled={disabled}
                onChange={() => onSelect(household.id)}
                className="mt-1 accent-plum-700"
              />
              <span className="min-w-0">
                <span className="block font-medium break-words text-neutral-900">
                  {household.name || "Unnamed household"}
                  {index === 0 && (
                    <span className="ml-2 rounded bg-plum-100 px-1.5 py-0.5 text-xs font-semibold text-plum-800">
                      Active
                    </span>
                  )}
                </span>
                <span className="block text-sm text-neutral-600">
                  {count(household.members, "member", "members")} · family of {household.family.toLocaleString("en-US")}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {chosen && (
        <div className="rounded-md bg-neutral-50 p-3 text-sm" data-sims4-preview="">
          <p className="font-medium text-neutral-800">
            Who comes in: {count(chosen.family, "Sim", "Sims")}
          </p>
          <p className="mt-1 break-words text-neutral-700">
            {chosen.preview.map((name) => name || "Unnamed Sim").join(", ")}
            {chosen.family > chosen.preview.length && `, and ${chosen.family - chosen.preview.length} more`}
          </p>
        </div>
      )}
    </fieldset>
  );
}
