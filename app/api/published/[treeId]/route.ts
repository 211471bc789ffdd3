// GET (anyone), PUT (publish) and DELETE (unpublish) /api/published/[treeId]
import { NextResponse } from "next/server";
import { json, parseBody } from "@/lib/server/http/http";
import { publishBody } from "@/lib/schemas/published";
import { getPublishedTreeJsonParts } from "@/lib/server/published/get-published-tree";
import { publishTree } from "@/lib/server/published/publish-tree";
import { unpublishTree } from "@/lib/server/published/unpublish-tree";
import { otherMethods, withAuth, withPublic } from "@/lib/server/http/route";

type Params = { treeId: string };

// The JSON text as PostgreSQL wrote it, never parsed here: a large publication (100 MB at
// 100,000 Sims) is read in parts of at most 1 MiB and sent a part at a time, as the reader takes
// them (a pull stream: a slow reader holds back the encoding, not the other way round).
export const GET = withPublic<Params>(async ({ params }) => {
  const parts = await getPublishedTreeJsonParts(params.treeId);
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const part = parts[next];
        if (part === undefined) {
          controller.close();
          return;
        }
        parts[next] = "";
        next += 1;
        controller.enqueue(encoder.encode(part));
      },
    },
    { highWaterMark: 0 },
  );
  return new NextResponse(body, { headers: { "content-type": "application/json" } });
});

export const PUT = withAuth<Params>(async ({ req, params, user }) =>
  json(await publishTree(user.id, params.treeId, await parseBody(req, publishBody, 4096))),
);

export const DELETE = withAuth<Params>(async ({ params, user }) => {
  await unpublishTree(user.id, params.treeId);
  return json({ message: "Tree is no longer published" });
});

export const { POST, PATCH, OPTIONS } = otherMethods<Params>("GET", "PUT", "DELETE");
