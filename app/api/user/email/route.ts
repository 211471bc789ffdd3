// PUT /api/user/email - change the signed-in user's email address (password or a fresh sign-in)
import { updateEmailBody } from "@/lib/schemas/account";
import { updateEmail } from "@/lib/server/account/update-email";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const PUT = withAuth(async ({ req, user }) =>
  json(await updateEmail(user, await parseBody(req, updateEmailBody))),
);

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods("PUT");
