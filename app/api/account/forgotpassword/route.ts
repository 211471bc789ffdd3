// POST /api/account/forgotpassword - email a one-time password reset link
import { forgotPasswordBody } from "@/lib/schemas/account";
import { requestPasswordReset } from "@/lib/server/account/request-password-reset";
import { clientIp, json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";

export const POST = withPublic(async ({ req }) =>
  json(await requestPasswordReset(await parseBody(req, forgotPasswordBody), clientIp(req))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
