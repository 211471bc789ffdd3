// GET /api/health - 200 when the app and its database answer, 503 otherwise
import { checkHealth } from "@/lib/server/health/check-health";
import { json } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";

export const GET = withPublic(async () => {
  const health = await checkHealth();
  return json(health, health.status === "ok" ? 200 : 503);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
