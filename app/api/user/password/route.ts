// PUT /api/user/password - change the password; the calling session stays, all others are revoked
import { updatePasswordBody } from "@/lib/schemas/account";
import { updatePassword } from "@/lib/server/account/update-password";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const PUT = withAuth(async ({ req, user }) =>
  json(await updatePassword(user, await parseBody(req, updatePasswordBody))),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods("PUT");
