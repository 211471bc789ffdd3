import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { Toaster } from "sonner";
import { SessionProvider } from "@/lib/client/session";
import "./globals.css";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("Meta");
  return {
    title: { default: "Heirloom", template: "%s · Heirloom" },
    description: t("description"),
  };
}

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, so Next can put this request's CSP nonce on its scripts.
  await connection();
  // The request's language (i18n/request.ts): the cookie, else the browser's, else English.
  const locale = await getLocale();
  return (
    <html lang={locale}>
      <body>
        {/* Client components read the request's locale and catalog from here (ADR 041). */}
        <NextIntlClientProvider>
          <SessionProvider>
            {children}
            <Toaster position="top-center" duration={8000} richColors closeButton />
          </SessionProvider>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
