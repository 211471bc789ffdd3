import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import { Toaster } from "sonner";
import { SessionProvider } from "@/lib/client/session";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Heirloom", template: "%s · Heirloom" },
  description: "Create dynamic family trees for your Sims legacies, then publish and share them.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request, so Next can put this request's CSP nonce on its scripts.
  await connection();
  return (
    <html lang="en">
      <body>
        <SessionProvider>
          {children}
          <Toaster position="top-center" duration={8000} richColors closeButton />
        </SessionProvider>
      </body>
    </html>
  );
}
