// PUT /api/user/password - change the password; answers a fresh token, other sessions are revoked
import { updatePasswordBody } from "@/lib/schemas/account";
import { updatePassword } from "@/lib/server/account/update-password";
import { json, parseBody } from "@/lib/server/http";
import { otherMethods, withAuth } from "@/lib/server/route";

export const PUT = withAuth(async ({ req, user }) =>
  json(await updatePassword(user.id, await parseBody(req, updatePasswordBody))),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods("PUT");
