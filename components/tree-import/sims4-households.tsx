"use client";
import { useFormatter, useTranslations } from "next-intl";
import { useId, useState } from "react";
import { cx } from "@/components/ui/class-names";
import { inputClasses } from "@/components/ui/text-field";
import { filterHouseholds, type HouseholdChoice } from "./sims4-client";

/**
 * The households of a Sims 4 save, the active one first, each with the names of the Sims who live
 * there (so two households of one name are told apart) and what its counts mean; one or more are
 * ticked (issue 34: a legacy whose children moved out comes in as one tree), a search by household
 * or Sim name (accents ignored) narrows the list, and the ticked ones' families are previewed.
 */
export function Sims4Households({
  households,
  selected,
  onChange,
  disabled,
}: {
  households: HouseholdChoice[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
}) {
  const t = useTranslations("Sims4Households");
  const format = useFormatter();
  const searchId = useId();
  const [search, setSearch] = useState("");
  const shown = filterHouseholds(households, search);
  const ticked = new Set(selected);
  const chosen = households.filter((h) => ticked.has(h.id));
  const activeId = households[0]?.id;
  // "Bella Goth, Mortimer Goth and 3 more", in the reader's language's list
  const names = (list: readonly string[], more: number) =>
    format.list(
      [...list.map((name) => name || t("unnamedSim")), ...(more > 0 ? [t("more", { count: more })] : [])],
      { type: "conjunction" },
    );

  const toggle = (id: string, on: boolean) => {
    // kept in the list's order, so the tree's title names the households as the list does
    const next = new Set(ticked);
    if (on) next.add(id);
    else next.delete(id);
    onChange(households.filter((h) => next.has(h.id)).map((h) => h.id));
  };

  // who comes in: every chosen household's family. The list names no ids, so for several
  // households a name is shown once and the count is an upper bound (a Sim in two families comes
  // in once); the server merges them by game id.
  let preview: string[] = chosen[0]?.preview ?? [];
  let upTo = chosen[0]?.family ?? 0;
  if (chosen.length > 1) {
    const seen = new Set<string>();
    preview = [];
    upTo = 0;
    for (const household of chosen) {
      upTo += household.family;
      for (const name of household.preview) {
        if (!seen.has(name)) {
          seen.add(name);
          preview.push(name);
        }
      }
    }
  }
  const more = Math.max(0, upTo - preview.length);

  return (
    <fieldset className="space-y-3" data-sims4-households="">
      <legend className="text-sm font-medium text-neutral-800">{t("legend")}</legend>
      <p className="text-sm text-neutral-600">{t("hint")}</p>
      <label className="block space-y-1" htmlFor={searchId}>
        <span className="block text-sm font-medium text-neutral-800">{t("search")}</span>
        <input
          id={searchId}
          type="search"
          value={search}
          autoComplete="off"
          disabled={disabled}
          onChange={(event) => setSearch(event.target.value)}
          className={inputClasses}
          data-sims4-search=""
        />
      </label>
      {shown.length === 0 ? (
        <p className="text-sm text-neutral-700" role="status">
          {t("noMatch", { search: search.trim() })}
        </p>
      ) : (
        search.trim() !== "" && (
          <p className="sr-only" role="status">
            {t("matches", { count: shown.length })}
          </p>
        )
      )}
      <ul className="max-h-96 space-y-2 overflow-y-auto pr-1">
        {shown.map((household) => {
          const on = ticked.has(household.id);
          const shownNames = household.memberNames.slice(0, MEMBER_NAMES);
          const hiddenNames = household.members - shownNames.length;
          return (
            <li key={household.id}>
              <label
                className={cx(
                  "flex cursor-pointer items-start gap-3 rounded-md border px-3 py-2",
                  on ? "border-plum-600 bg-plum-50" : "border-plum-100 bg-white",
                )}
                data-household-id={household.id}
              >
                <input
                  type="checkbox"
                  name="household"
                  value={household.id}
                  checked={on}
                  disabled={disabled}
                  onChange={(event) => toggle(household.id, event.target.checked)}
                  className="mt-1 accent-plum-700"
                />
                <span className="min-w-0">
                  <span className="block font-medium break-words text-neutral-900">
                    {household.name || t("unnamedHousehold")}
                    {household.id === activeId && (
                      <span className="ml-2 rounded bg-plum-100 px-1.5 py-0.5 text-xs font-semibold text-plum-800">
                        {t("active")}
                      </span>
                    )}
                  </span>
                  <span className="block text-sm break-words text-neutral-800" data-members="">
                    {names(shownNames, hiddenNames)}
                  </span>
                  <span className="block text-sm text-neutral-600" data-counts="">
                    {household.family > household.members
                      ? t("counts", { members: household.members, family: household.family })
                      : t("countsAlone", { members: household.members })}
                  </span>
                </span>
              </label>
            </li>
          );
        })}
      </ul>
      {chosen.length === 0 ? (
        <p className="rounded-md bg-neutral-50 p-3 text-sm text-neutral-800" data-sims4-none="">
          {t("noneChosen")}
        </p>
      ) : (
        <div className="rounded-md bg-neutral-50 p-3 text-sm" data-sims4-preview="">
          <p className="font-medium text-neutral-800">
            {chosen.length === 1
              ? t("whoComesIn", { count: upTo })
              : t("whoComesInSeveral", { count: upTo, households: chosen.length })}
          </p>
          <p className="mt-1 break-words text-neutral-700">{names(preview, more)}</p>
        </div>
      )}
    </fieldset>
  );
}

/** Member names a row shows; the rest are counted (a household holds 8 Sims in the game). */
const MEMBER_NAMES = 12;
