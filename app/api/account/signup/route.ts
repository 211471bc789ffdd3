// POST /api/account/signup - create an account and sign it in
import { signupBody } from "@/lib/schemas/account";
import { signUp } from "@/lib/server/account/sign-up";
import { clientIp, json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";

export const POST = withPublic(async ({ req }) =>
  json(await signUp(await parseBody(req, signupBody), clientIp(req))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods("POST");
