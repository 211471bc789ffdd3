// GET /api/user - the signed-in user's email and username
import { getUser } from "@/lib/server/account/get-user";
import { json } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";

export const GET = withAuth(async ({ user }) => json(await getUser(user.id)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
