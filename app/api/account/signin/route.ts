// POST /api/account/signin - exchange a username and password for a token
import { signinBody } from "@/lib/schemas/account";
import { signIn } from "@/lib/server/account/sign-in";
import { clientIp, json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";

export const POST = withPublic(async ({ req }) =>
  json(await signIn(await parseBody(req, signinBody), clientIp(req))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
