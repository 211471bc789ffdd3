"use client";
import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useId, useState, useTransition, type ChangeEvent } from "react";
import { api } from "@/lib/client/api";
import type { AccountLocale } from "@/lib/i18n/account-locale";
import { isLocale, LANGUAGE_NAMES, LOCALES, type Locale } from "@/lib/i18n/locales";
import { Panel } from "@/components/ui/card";

/** The select's value for "no setting: follow this browser". */
const BROWSER = "";

/**
 * The account's language (issue 36, ADR 041): kept with the account, so every device it signs in
 * on speaks it, before the NEXT_LOCALE cookie and the browser's languages. The API's answer sets
 * the cookie (pages are rendered without the token), and the page is rendered again in it.
 */
export function AccountLanguage() {
  const t = useTranslations("AccountLanguage");
  const current = useLocale();
  const router = useRouter();
  const selectId = useId();
  const hintId = useId();
  const [chosen, setChosen] = useState<Locale | null | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  // said in the panel, not in a toast: the page is rendered again in the new language, and the
  // sentence with it (a toast would stay in the language it was raised in)
  const [saved, setSaved] = useState(false);
  const [refreshing, startTransition] = useTransition();

  useEffect(() => {
    let live = true;
    api<AccountLocale>("/api/user/locale", { silent: true }).then(
      ({ locale }) => {
        if (!live) return;
        setChosen(locale);
        // the answer set the cookie: a page in another language follows the account at once
        if (locale && locale !== current) startTransition(() => router.refresh());
      },
      () => live && setChosen(null),
    );
    return () => {
      live = false;
    };
    // read once per page: a change made here refreshes the page itself
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const value = event.target.value;
    const locale = isLocale(value) ? value : null;
    setSaving(true);
    setSaved(false);
    try {
      await api<AccountLocale>("/api/user/locale", {
        method: "PUT",
        body: { locale },
        fallback: t("failed"),
      });
    } catch {
      setSaving(false);
      return;
    }
    setChosen(locale);
    setSaving(false);
    setSaved(true);
    startTransition(() => router.refresh());
  }

  return (
    <Panel title={t("title")}>
      <label htmlFor={selectId} className="block text-sm font-medium text-neutral-800">
        {t("label")}
      </label>
      <select
        id={selectId}
        aria-describedby={hintId}
        value={chosen ?? BROWSER}
        disabled={chosen === undefined || saving || refreshing}
        onChange={(event) => void onChange(event)}
        className="mt-1 block w-full max-w-sm rounded-md border border-neutral-300 bg-white px-3 py-2 text-neutral-900 focus:outline-2 focus:outline-offset-1 focus:outline-plum-500 disabled:opacity-60"
      >
        <option value={BROWSER}>{t("browser")}</option>
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {LANGUAGE_NAMES[option]}
          </option>
        ))}
      </select>
      <p id={hintId} className="mt-1 text-sm text-neutral-600">
        {t("hint")}
      </p>
      <p aria-live="polite" className="mt-2 min-h-5 text-sm font-medium text-plum-800">
        {saved && !refreshing ? t("saved") : null}
      </p>
    </Panel>
  );
}
