// GET /api/upload/url?type=&dir= - reserve a file name and a signed URL to PUT the file to
import { uploadUrlQuery } from "@/lib/schemas/upload";
import { json, parseQuery } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { createUploadUrl } from "@/lib/server/uploads/create-upload-url";

export const GET = withAuth(async ({ req, user }) => {
  const { type, dir } = parseQuery(req, uploadUrlQuery);
  return json(await createUploadUrl({ ownerId: user.id, type, dir }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
