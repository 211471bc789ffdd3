import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // Metadata (title, og:*) goes in <head> for every user agent, so any link-preview fetcher sees it.
  htmlLimitedBots: /.*/,
  // Lets parallel e2e runs build into separate directories (HEIRLOOM_DIST_DIR); default .next.
  distDir: process.env.HEIRLOOM_DIST_DIR || ".next",
  // `npm run check` type-checks the whole project; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  // Native and wasm packages are loaded by Node at run time, never bundled.
  serverExternalPackages: [
    "piscina",
    "@aws-sdk/s3-request-presigner",
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "argon2",
    "sharp",
    "nodemailer",
    "pg",
    "pino",
  ],
  // The spec's image addresses; served by the upload route handlers.
  async rewrites() {
    return [
      { source: "/uploads/:path*", destination: "/api/upload/orig/:path*" },
      { source: "/uploads-orig/:path*", destination: "/api/upload/orig/:path*" },
    ];
  },
};

// next-intl finds each request's locale and messages in i18n/request.ts (ADR 041).
export default createNextIntlPlugin("./i18n/request.ts")(nextConfig);
