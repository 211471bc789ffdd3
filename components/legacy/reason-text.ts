"use client";
import { useLocale, useTranslations } from "next-intl";
import { useCallback } from "react";
import type { BloodlineLaw, GenderLaw, HeirLaw, SuccessionReason } from "@/lib/legacy/succession";

/** A law's name in the player's language. */
export function useLawName(): (law: GenderLaw | BloodlineLaw | HeirLaw) => string {
  const tl = useTranslations("LegacyLaws");
  return useCallback(
    (law) => {
      switch (law) {
        case "matriarchy":
          return tl("matriarchy");
        case "strictMatriarchy":
          return tl("strictMatriarchy");
        case "patriarchy":
          return tl("patriarchy");
        case "strictPatriarchy":
          return tl("strictPatriarchy");
        case "equality":
          return tl("equality");
        case "strictEquality":
          return tl("strictEquality");
        case "strictTraditional":
          return tl("strictTraditional");
        case "traditional":
          return tl("traditional");
        case "modern":
          return tl("modern");
        case "foster":
          return tl("foster");
        case "strictFoster":
          return tl("strictFoster");
        case "firstBorn":
          return tl("firstBorn");
        case "lastBorn":
          return tl("lastBorn");
        case "livingWill":
          return tl("livingWill");
        case "merit":
          return tl("merit");
        case "strength":
          return tl("strength");
        case "random":
          return tl("random");
        case "exemplar":
          return tl("exemplar");
        case "democracy":
          return tl("democracy");
      }
    },
    [tl],
  );
}

/**
 * A succession reason (lib/legacy/succession.ts's codes) as a sentence in the player's language:
 * the library gives codes and names, the catalog the words (formatReason is the English reference).
 */
export function useReasonText(): (reason: SuccessionReason) => string {
  const t = useTranslations("LegacyReasons");
  const lawName = useLawName();
  const locale = useLocale();
  return useCallback(
    (reason) => {
      const list = (names: string[]) =>
        new Intl.ListFormat(locale, { style: "long", type: "conjunction" }).format(names);
      switch (reason.code) {
        case "dead":
          return t("dead", { name: reason.name });
        case "noChildren":
          return t("noChildren");
        case "bloodline.adoptedExcluded":
          return t("adoptedExcluded", { law: lawName(reason.law), name: reason.name });
        case "bloodline.naturalExcluded":
          return t("naturalExcluded", { law: lawName(reason.law), name: reason.name });
        case "bloodline.fallback":
          return t("fallback", { law: lawName(reason.law), kept: reason.kept });
        case "gender.excluded":
          return reason.law === "strictEquality"
            ? t("genderAlternate", {
                law: lawName(reason.law),
                wanted: reason.wanted,
                name: reason.name,
              })
            : t("genderExcluded", {
                law: lawName(reason.law),
                wanted: reason.wanted,
                name: reason.name,
              });
        case "gender.fallback":
          return t("genderFallback", { law: lawName(reason.law), wanted: reason.wanted });
        case "gender.unknown":
          return t("genderUnknown", { law: lawName(reason.law), names: list(reason.names) });
        case "gender.keepTrying":
          return t("genderKeepTrying", { law: lawName(reason.law), wanted: reason.wanted });
        case "species.excluded":
          return t("speciesExcluded", {
            mode: reason.mode,
            name: reason.name,
            species: reason.species,
          });
        case "species.fallback":
          return t("speciesFallback", { species: reason.species });
        case "species.keepTrying":
          return t("speciesKeepTrying", { species: reason.species });
        case "noneEligible":
          return t("noneEligible");
        case "heir.firstBorn":
          return t("firstBorn", { name: reason.name });
        case "heir.lastBorn":
          return t("lastBorn", { name: reason.name });
        case "heir.bornTogether":
          return t("bornTogether", { name: reason.name, others: list(reason.others) });
        case "heir.only":
          return t("only", { name: reason.name });
        case "heir.askOwner":
          return t("askOwner", { law: lawName(reason.law) });
        case "heir.random":
          return t("random");
        case "heir.exemplar":
          return t("exemplar", { name: reason.name, trait: reason.trait });
        case "heir.exemplarNone":
          return t("exemplarNone", { trait: reason.trait });
        case "heir.exemplarSeveral":
          return t("exemplarSeveral", { names: list(reason.names), trait: reason.trait });
        case "heir.exemplarNoTrait":
          return t("exemplarNoTrait");
      }
    },
    [t, lawName, locale],
  );
}
