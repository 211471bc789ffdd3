// PUT /api/upload/confirm - check and keep the file the browser sent to a presigned bucket URL
import { confirmBody } from "@/lib/schemas/upload";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { confirmUpload } from "@/lib/server/uploads/confirm-upload";

export const PUT = withAuth(async ({ req, user }) => {
  const { image } = await parseBody(req, confirmBody);
  return json(await confirmUpload({ ownerId: user.id, image }));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods("PUT");
