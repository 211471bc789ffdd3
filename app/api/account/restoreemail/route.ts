// POST /api/account/restoreemail - undo an email change from the link mailed to the old address
import { restoreEmailBody } from "@/lib/schemas/account";
import { restoreEmail } from "@/lib/server/account/restore-email";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";

export const POST = withPublic(async ({ req }) =>
  json(await restoreEmail(await parseBody(req, restoreEmailBody))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
