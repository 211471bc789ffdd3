// GET /api/published/[treeId]/snapshot/[version] - one publication's tree and people, immutable
import { NextResponse } from "next/server";
import { getPublishedSnapshotJson } from "@/lib/server/published/get-published-tree";
import { SNAPSHOT_CACHE_CONTROL } from "@/lib/server/published/snapshot-url";
import { otherMethods, withPublic } from "@/lib/server/http/route";

type Params = { treeId: string; version: string };

// A republish gives a new address, so this one may be cached for a year (ADR 014).
export const GET = withPublic<Params>(
  async ({ params }) =>
    new NextResponse(await getPublishedSnapshotJson(params.treeId, params.version), {
      headers: { "content-type": "application/json", "cache-control": SNAPSHOT_CACHE_CONTROL },
    }),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
