// GET /api/upload/{W}x{H}/{image} and /api/upload/orig/{image} - serve images (public);
// PUT /api/upload/file/{image}?expires=&signature= - the signed upload URL's one PUT
import { ApiError } from "@/lib/server/http/errors";
import { json } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";
import { getImage, imageResponse } from "@/lib/server/uploads/get-image";
import { getResizedImage } from "@/lib/server/uploads/get-resized-image";
import { negotiateFormat } from "@/lib/server/uploads/image-files";
import { receiveUpload } from "@/lib/server/uploads/receive-upload";

type Params = { path: string[] };

export const GET = withPublic<Params>(async ({ req, params }) => {
  const [first, ...rest] = params.path;
  const name = rest.join("/");
  // AVIF or WebP for a browser that accepts it, else the name's PNG or JPEG (ADR 015).
  const format = negotiateFormat(req.headers.get("accept"));
  if (first === "orig") return imageResponse(await getImage(name, format));
  if (first && /^\d+x\d+$/.test(first)) {
    return imageResponse(await getResizedImage(first, name, format));
  }
  throw new ApiError(404, "Not found");
});

export const PUT = withPublic<Params>(async ({ req, params }) => {
  const [first, ...rest] = params.path;
  if (first !== "file") throw new ApiError(404, "Not found");
  return json(await receiveUpload(rest.join("/"), req));
});

export const { POST, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET", "PUT");
