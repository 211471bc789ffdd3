// DELETE /api/account - delete the signed-in account (the body carries its password)
import { deleteAccountBody } from "@/lib/schemas/account";
import { deleteAccount } from "@/lib/server/account/delete-account";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const DELETE = withAuth(async ({ req, user }) =>
  json(await deleteAccount(user, await parseBody(req, deleteAccountBody))),
);

export const { GET, POST, PUT, PATCH, OPTIONS } = otherMethods("DELETE");
