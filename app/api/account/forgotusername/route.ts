// POST /api/account/forgotusername - email the usernames registered to an address
import { forgotUsernameBody } from "@/lib/schemas/account";
import { sendUsername } from "@/lib/server/account/send-username";
import { clientIp, json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";

export const POST = withPublic(async ({ req }) =>
  json(await sendUsername(await parseBody(req, forgotUsernameBody), clientIp(req))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
