"use client";
import { useLocale, useTranslations } from "next-intl";
import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Disclosure } from "@/components/ui/disclosure";
import { api } from "@/lib/client/api";
import type { SuggestionAnswer } from "@/lib/legacy/next-heir";
import type { LegacySettings, UpdateLegacyBody } from "@/lib/legacy/settings";
import {
  BLOODLINE_LAWS,
  GENDER_LAWS,
  HEIR_LAWS,
  type SuccessionLaws,
} from "@/lib/legacy/succession";
import { useLawName, useReasonText } from "./reason-text";

const SUGGESTION_ERROR = "Unknown error occurred suggesting the heir";

const DEFAULT_LAWS: SuccessionLaws = { gender: "equality", bloodline: "modern", heir: "firstBorn" };

export interface LegacyPanelProps {
  treeId: string;
  settings: LegacySettings | null;
  save: (change: UpdateLegacyBody) => Promise<boolean>;
  /** The heirs as marked: the suggestion is asked again when they change. */
  heirs: readonly string[];
  nameOf: (personId: string) => string;
  /** Each Sim's generation, as the editor counts it (from the founder). */
  generationOf: (personId: string) => number | undefined;
  /** Marks a Sim as their generation's heir (the owner's confirmation; never done unasked). */
  onChoose: (personId: string) => void;
}

/**
 * The legacy's panel (issue 33): the founder, the succession laws, and the open generation's
 * children with the heir the laws suggest and why. The owner confirms the suggestion or makes
 * another child heir; nothing is marked without their click.
 */
export function LegacyPanel({
  treeId,
  settings,
  save,
  heirs,
  nameOf,
  generationOf,
  onChoose,
}: LegacyPanelProps) {
  const t = useTranslations("Legacy");
  const locale = useLocale();
  const lawName = useLawName();
  const reasonText = useReasonText();
  // the laws being chosen; null: the stored ones (or the defaults) as they are
  const [draft, setLaws] = useState<SuccessionLaws | null>(null);
  const [suggestion, setSuggestion] = useState<SuggestionAnswer | null>(null);
  const [savedNote, setSavedNote] = useState(false);
  const ids = useId();
  const storedLaws = settings?.laws;
  const laws = draft ?? storedLaws ?? DEFAULT_LAWS;

  const heirsKey = heirs.join();
  const settingsKey = JSON.stringify(settings);
  useEffect(() => {
    let live = true;
    api<SuggestionAnswer>(`/api/trees/${encodeURIComponent(treeId)}/legacy/suggestion`, {
      fallback: SUGGESTION_ERROR,
    })
      .then((answer) => live && setSuggestion(answer))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [treeId, heirsKey, settingsKey]);

  // heirs stored under other numbers that now share a generation (kept until the owner picks one)
  const shared = new Map<number, string[]>();
  for (const id of heirs) {
    const generation = generationOf(id);
    if (generation !== undefined) shared.set(generation, [...(shared.get(generation) ?? []), id]);
  }
  const twice = [...shared].filter(([, ids]) => ids.length > 1);
  const result = suggestion?.result ?? null;
  const eligible = new Set(result?.eligible ?? []);
  const lawSelect = <K extends "gender" | "bloodline" | "heir">(
    key: K,
    label: string,
    options: readonly SuccessionLaws[K][],
  ) => (
    <label className="block text-sm">
      <span className="text-neutral-700">{label}</span>
      <select
        className="mt-0.5 block w-full rounded border border-plum-200 bg-white px-2 py-1"
        value={laws[key]}
        data-law={key}
        onChange={(event) => setLaws({ ...laws, [key]: event.target.value })}
      >
        {options.map((law) => (
          <option key={law} value={law}>
            {lawName(law)}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <div className="space-y-4 text-sm" data-legacy-panel="">
      {twice.map(([generation, ids]) => (
        <p
          key={generation}
          role="status"
          data-shared-generation={generation}
          className="rounded border border-amber-300 bg-amber-50 p-2 text-amber-900"
        >
          {t("sharedGeneration", {
            generation,
            names: new Intl.ListFormat(locale, { type: "conjunction" }).format(ids.map(nameOf)),
          })}
        </p>
      ))}
      <section className="space-y-1">
        <p className="font-semibold text-plum-900" data-founder={suggestion?.founder ?? ""}>
          {t("founder", { name: suggestion?.founder ? nameOf(suggestion.founder) : "…" })}
        </p>
        <p className="text-neutral-600">{t("founderHint")}</p>
        {settings?.founder && (
          <Button variant="secondary" size="sm" onClick={() => void save({ founder: null })}>
            {t("founderRoot")}
          </Button>
        )}
      </section>

      <form
        className="space-y-2"
        aria-labelledby={`${ids}-laws`}
        onSubmit={(event) => {
          event.preventDefault();
          const sent: SuccessionLaws = { ...laws };
          if (sent.heir !== "exemplar" || !sent.exemplarTrait?.trim()) delete sent.exemplarTrait;
          // a species law without a species is no species law
          if (!sent.species?.species.trim()) sent.species = null;
          void save({ laws: sent }).then((ok) => {
            setSavedNote(ok);
            if (ok) setLaws(null);
          });
        }}
      >
        <p id={`${ids}-laws`} className="font-semibold text-plum-900">
          {t("laws")}
        </p>
        {!storedLaws && <p className="text-neutral-600">{t("notChosen")}</p>}
        {lawSelect("gender", t("gender"), GENDER_LAWS)}
        {lawSelect("bloodline", t("bloodline"), BLOODLINE_LAWS)}
        {lawSelect("heir", t("heir"), HEIR_LAWS)}
        {laws.heir === "exemplar" && (
          <label className="block">
            <span className="text-neutral-700">{t("exemplarTrait")}</span>
            <input
              className="mt-0.5 block w-full rounded border border-plum-200 px-2 py-1"
              maxLength={60}
              value={laws.exemplarTrait ?? ""}
              onChange={(event) => setLaws({ ...laws, exemplarTrait: event.target.value })}
            />
          </label>
        )}
        <label className="block">
          <span className="text-neutral-700">{t("speciesLaw")}</span>
          <select
            className="mt-0.5 block w-full rounded border border-plum-200 bg-white px-2 py-1"
            value={laws.species?.mode ?? ""}
            data-law="species"
            onChange={(event) => {
              const mode = event.target.value;
              setLaws({
                ...laws,
                species:
                  mode === "prefer" || mode === "require" || mode === "exclude"
                    ? { mode, species: laws.species?.species ?? "" }
                    : null,
              });
            }}
          >
            <option value="">{t("speciesNone")}</option>
            <option value="prefer">{t("speciesPrefer")}</option>
            <option value="require">{t("speciesRequire")}</option>
            <option value="exclude">{t("speciesExclude")}</option>
          </select>
        </label>
        {laws.species && (
          <label className="block">
            <span className="text-neutral-700">{t("speciesName")}</span>
            <input
              className="mt-0.5 block w-full rounded border border-plum-200 px-2 py-1"
              maxLength={60}
              value={laws.species.species}
              onChange={(event) =>
                setLaws({
                  ...laws,
                  species: { mode: laws.species!.mode, species: event.target.value },
                })
              }
            />
          </label>
        )}
        <div className="flex items-center gap-2">
          <Button type="submit" size="sm">
            {t("save")}
          </Button>
          {savedNote && (
            <span role="status" className="text-emerald-700">
              {t("saved")}
            </span>
          )}
        </div>
      </form>

      <section className="space-y-2" aria-live="polite" data-suggestion="">
        {!suggestion ? (
          <p className="text-neutral-600">{t("loading")}</p>
        ) : (
          <>
            <p className="font-semibold text-plum-900">
              {t("openGeneration", {
                generation: suggestion.generation,
                name: nameOf(suggestion.current),
              })}
            </p>
            {suggestion.candidates.length === 0 && (
              <p className="text-neutral-600">{t("noChildren")}</p>
            )}
            {!result && suggestion.candidates.length > 0 && (
              <p className="text-neutral-600">{t("noLaws")}</p>
            )}
            {result?.suggested && (
              <p className="font-medium" data-suggested={result.suggested}>
                {t("suggested", { name: nameOf(result.suggested) })}
              </p>
            )}
            {result?.offer && <p>{t("offer", { name: nameOf(result.offer) })}</p>}
            {result && result.reasons.length > 0 && (
              <ul className="list-disc space-y-0.5 pl-5 text-neutral-800" data-reasons="">
                {result.reasons.map((reason, index) => (
                  <li key={index}>{reasonText(reason)}</li>
                ))}
              </ul>
            )}
            {result?.suggested && (
              <Button size="sm" onClick={() => onChoose(result.suggested!)}>
                {t("confirm", { name: nameOf(result.suggested) })}
              </Button>
            )}
            <ul className="divide-y divide-plum-100 rounded border border-plum-100">
              {suggestion.candidates.map((child) => (
                <li key={child.id} className="flex items-center gap-2 px-2 py-1.5">
                  <span className="min-w-0 flex-1 truncate">
                    {child.name}
                    {child.adopted && (
                      <span className="ml-1 text-neutral-500">{`(${t("adopted")})`}</span>
                    )}
                    {result && !eligible.has(child.id) && (
                      <span className="ml-1 text-neutral-500">{`· ${t("mayNot")}`}</span>
                    )}
                  </span>
                  <Button variant="secondary" size="sm" onClick={() => onChoose(child.id)}>
                    {t("choose")}
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </div>
  );
}

/**
 * The "Legacy" button over the canvas and its panel (the editor only: the settings are the owner's).
 */
export function LegacyButton(props: LegacyPanelProps) {
  const t = useTranslations("Legacy");
  return (
    <Disclosure
      label={t("open")}
      title={t("title")}
      panelClassName="absolute top-10 left-0 z-30 max-h-[70vh] w-[min(22rem,calc(100vw-1.5rem))] overflow-y-auto rounded-lg border border-plum-100 bg-white p-4 shadow-xl"
    >
      {(close) => (
        <>
          <div className="mb-3 flex items-center justify-between">
            <h2 className="font-semibold text-plum-900">{t("title")}</h2>
            <Button variant="secondary" size="sm" onClick={close}>
              {t("close")}
            </Button>
          </div>
          <LegacyPanel {...props} />
        </>
      )}
    </Disclosure>
  );
}

/**
 * In a Sim's panel in the editor: make them the legacy's founder (Generation 1), or say that they
 * are. Nothing where it cannot be changed (a read-only view).
 */
export function FounderButton({
  isFounder,
  onMakeFounder,
}: {
  isFounder: boolean;
  onMakeFounder?: () => void;
}) {
  const t = useTranslations("Legacy");
  // only where the settings are known: the public copy does not carry the owner's founder yet
  if (!onMakeFounder) return null;
  if (isFounder) return <p className="text-plum-800 text-sm font-medium">{t("isFounder")}</p>;
  return (
    <Button variant="secondary" size="sm" onClick={onMakeFounder}>
      {t("makeFounder")}
    </Button>
  );
}
