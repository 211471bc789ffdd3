"use client";
import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useTransition, type ChangeEvent } from "react";
import { cx } from "@/components/ui/class-names";
import {
  isLocale,
  LANGUAGE_NAMES,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE,
  LOCALES,
} from "@/lib/i18n/locales";

/** Remembers the reader's language for every later request (i18n/request.ts reads it). */
function rememberLocale(locale: string) {
  const secure = window.location.protocol === "https:" ? "; secure" : "";
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=${LOCALE_COOKIE_MAX_AGE}; samesite=lax${secure}`;
}

const TONES = {
  /** On the shell's plum header. */
  dark: "text-white hover:bg-plum-600 focus-within:outline-white",
  /** On a white bar (the public page's). */
  light: "text-plum-900 hover:bg-plum-100 focus-within:outline-plum-500",
};

/**
 * The language menu: a native select (keyboard, screen readers and phones know it) laid over a
 * compact face: a globe on a phone, where the header has no room to spare, and the language's
 * own name beside it from `sm` up. Each language is named in its own words. Choosing one sets the
 * NEXT_LOCALE cookie and renders the page again on the server, so `<html lang>` and every
 * translated text follow at once.
 */
export function LanguageMenu({ tone = "dark" }: { tone?: keyof typeof TONES }) {
  const t = useTranslations("LanguageMenu");
  const locale = useLocale();
  const current = isLocale(locale) ? locale : "en";
  const router = useRouter();
  const [pending, startTransition] = useTransition();

  function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const next = event.target.value;
    if (!isLocale(next) || next === current) return;
    rememberLocale(next);
    startTransition(() => router.refresh());
  }

  return (
    <div
      data-language-menu=""
      className={cx(
        "relative inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md px-1.5 text-sm font-medium focus-within:outline-2 focus-within:outline-offset-2 sm:px-2",
        TONES[tone],
        pending && "opacity-70",
      )}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        className="size-4 shrink-0"
      >
        <circle cx="10" cy="10" r="7.5" />
        <path d="M2.5 10h15M10 2.5c2.2 2.1 3.2 4.6 3.2 7.5s-1 5.4-3.2 7.5c-2.2-2.1-3.2-4.6-3.2-7.5s1-5.4 3.2-7.5Z" />
      </svg>
      <span aria-hidden="true" lang={current} className="hidden sm:inline">
        {LANGUAGE_NAMES[current]}
      </span>
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="currentColor"
        className="size-3.5 shrink-0 opacity-80"
      >
        <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z" />
      </svg>
      <select
        value={current}
        onChange={onChange}
        aria-label={t("label")}
        className="absolute inset-0 cursor-pointer appearance-none opacity-0"
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {LANGUAGE_NAMES[option]}
          </option>
        ))}
      </select>
    </div>
  );
}
