// POST /api/account/resetpassword - set a new password from an emailed reset link
import { resetPasswordBody } from "@/lib/schemas/account";
import { resetPassword } from "@/lib/server/account/reset-password";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";

export const POST = withPublic(async ({ req }) =>
  json(await resetPassword(await parseBody(req, resetPasswordBody))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
