import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `npm run check` type-checks the whole project; the build need not do it again.
  typescript: { ignoreBuildErrors: true },
  // Native and wasm packages are loaded by Node at run time, never bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "argon2",
    "sharp",
    "nodemailer",
    "pg",
  ],
};

export default nextConfig;
