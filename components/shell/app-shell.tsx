"use client";
import Image from "next/image";
import { useTranslations } from "next-intl";
import { IntentLink } from "@/components/ui/intent-link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from "react";
import { setSessionExpiredHandler } from "@/lib/client/api";
import { Button } from "@/components/ui/button";
import { cx, focusRing } from "@/components/ui/class-names";
import { LanguageMenu } from "@/components/language-menu/language-menu";
import { AccountMenu } from "./account-menu";
import { SideNav } from "./side-nav";

const MOBILE_MENU_ID = "mobile-menu";

function MobileMenu({ onClose }: { onClose: () => void }) {
  const t = useTranslations("Shell");
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    closeRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.body.style.overflow = overflow;
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [onClose]);

  // Choosing a link closes the menu; the page underneath changes.
  function onPanelClick(event: MouseEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).closest("a")) onClose();
  }

  return (
    <div className="md:hidden">
      <div
        data-testid="menu-mask"
        aria-hidden="true"
        onClick={onClose}
        className="fixed inset-0 z-40 bg-black/50"
      />
      <div
        id={MOBILE_MENU_ID}
        role="dialog"
        aria-modal="true"
        aria-label={t("menu")}
        onClick={onPanelClick}
        className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto bg-white shadow-xl"
      >
        <div className="flex items-center justify-between border-b border-plum-100 px-4 py-3">
          <span className="font-semibold text-plum-900">Heirloom</span>
          <Button ref={closeRef} variant="secondary" size="sm" onClick={onClose}>
            {t("close")}
          </Button>
        </div>
        <SideNav />
      </div>
    </div>
  );
}

/** The main layout: header, side navigation (a drawer on small screens) and the page. */
export function AppShell({ children }: { children: ReactNode }) {
  const router = useRouter();
  const t = useTranslations("Shell");
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    setSessionExpiredHandler(() => router.push("/login"));
  }, [router]);

  // Focus goes back to the Menu button once the drawer has closed (and the page is no longer inert).
  useEffect(() => {
    if (wasOpen.current && !menuOpen) menuButtonRef.current?.focus();
    wasOpen.current = menuOpen;
  }, [menuOpen]);

  const closeMenu = useCallback(() => setMenuOpen(false), []);

  return (
    <>
      <div inert={menuOpen} className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 text-plum-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          {t("skipToContent")}
        </a>
        <header className="sticky top-0 z-30 flex h-14 items-center gap-1 bg-plum-700 px-3 text-white shadow sm:gap-2 sm:px-4">
          <button
            ref={menuButtonRef}
            type="button"
            aria-expanded={menuOpen}
            aria-controls={MOBILE_MENU_ID}
            onClick={() => setMenuOpen(true)}
            className={cx(
              "rounded-md px-2 py-2 text-sm font-medium hover:bg-plum-600 sm:px-3 md:hidden",
              focusRing,
              "focus-visible:outline-white",
            )}
          >
            {t("menu")}
          </button>
          <IntentLink
            href="/"
            className={cx(
              "flex items-center gap-2 rounded-md px-1 text-lg font-bold tracking-tight",
              focusRing,
              "focus-visible:outline-white",
            )}
          >
            <Image src="/assets/logo.svg" alt="" width={32} height={32} unoptimized priority />
            Heirloom
          </IntentLink>
          <div className="ml-auto flex items-center sm:gap-1">
            <LanguageMenu />
            <AccountMenu />
          </div>
        </header>
        <div className="flex flex-1">
          <aside className="sticky top-14 hidden h-[calc(100dvh-3.5rem)] w-64 shrink-0 overflow-y-auto border-r border-plum-100 bg-white md:block">
            <SideNav />
          </aside>
          <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 sm:px-8 sm:py-8">
            {children}
          </main>
        </div>
      </div>
      {menuOpen && <MobileMenu onClose={closeMenu} />}
    </>
  );
}
