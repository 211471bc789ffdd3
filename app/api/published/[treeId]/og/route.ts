// GET /api/published/[treeId]/og - the published tree's Open Graph image (1200×630 PNG)
import { getOgImage } from "@/lib/server/published/get-og-image";
import { otherMethods, withPublic } from "@/lib/server/http/route";

type Params = { treeId: string };

// The card is drawn and stored when the tree is published; this serves the stored file.
export const GET = withPublic<Params>(async ({ params }) => getOgImage(params.treeId));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods<Params>("GET");
