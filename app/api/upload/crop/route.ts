// PUT /api/upload/crop - crop one of the caller's uploads into a new one
import { cropBody } from "@/lib/schemas/upload";
import { json, parseBody } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { cropImage } from "@/lib/server/uploads/crop-image";

export const PUT = withAuth(async ({ req, user }) => {
  const { cropData, image } = await parseBody(req, cropBody);
  return json(await cropImage({ ownerId: user.id, image, cropData }));
});

export const { GET, POST, PATCH, DELETE, OPTIONS } = otherMethods("PUT");
