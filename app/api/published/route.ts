// GET /api/published?page[number]=N&search=Q&sort=newest|views (anyone): the Gallery (issue 25).
import { NextResponse } from "next/server";
import { clientIp } from "@/lib/server/http/http";
import { otherMethods, withPublic } from "@/lib/server/http/route";
import { GALLERY_CACHE_CONTROL, etagMatches } from "@/lib/server/gallery/http-cache";
import { listGallery, parseGalleryQuery } from "@/lib/server/gallery/list-gallery";

export const GET = withPublic(async ({ req }) => {
  const page = await listGallery(parseGalleryQuery(req.nextUrl.searchParams), clientIp(req));
  const headers = { "cache-control": GALLERY_CACHE_CONTROL, etag: page.etag };
  if (etagMatches(req.headers.get("if-none-match"), page.etag)) {
    return new NextResponse(null, { status: 304, headers });
  }
  return new NextResponse(page.json, {
    headers: { ...headers, "content-type": "application/json" },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods("GET");
