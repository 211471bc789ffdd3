// GET /api/trees/[treeId]/legacy/suggestion - the open generation's children and the heir the
// legacy's laws suggest, with the reasons (issue 33). Nothing is written: the owner confirms the
// heir with PUT /api/trees/{id}/heirs.
import { json } from "@/lib/server/http/http";
import { otherMethods, withAuth } from "@/lib/server/http/route";
import { suggestNextHeir } from "@/lib/server/legacy/legacy";

type Params = { treeId: string };

export const GET = withAuth<Params>(async ({ params, user }) =>
  json(await suggestNextHeir(user.id, params.treeId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
