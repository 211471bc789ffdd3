// GET /api/published/[treeId]/og - the published tree's Open Graph image (1200×630 PNG)
import { renderTreeOgImage } from "@/components/tree-export/og-image";
import { getPublishedTree } from "@/lib/server/published/get-published-tree";
import { otherMethods, withPublic } from "@/lib/server/route";

type Params = { treeId: string };

export const GET = withPublic<Params>(async ({ params }) =>
  renderTreeOgImage(await getPublishedTree(params.treeId)),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
