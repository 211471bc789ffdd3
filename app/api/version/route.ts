// GET /api/version - the running version and deploy color
import { getEnv } from "@/lib/env";
import { json } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";
import pkg from "@/package.json" with { type: "json" };

export const GET = withPublic(async () =>
  json({ version: pkg.version, color: getEnv().DEPLOY_COLOR }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
