// Any /api path no route handles: the API's 404 in its error shape, with the API's headers
// (lib/server/route.ts sets them; proxy.ts does not run for /api). Next answers HEAD from GET.
import { ApiError } from "@/lib/server/http/errors";
import { withPublic } from "@/lib/server/http/route";

type Params = { path: string[] };

const notFound = withPublic<Params>(async () => {
  throw new ApiError(404, "Not found");
});

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
// Not Next's automatic OPTIONS (204, every method): no route is here. scripts/lib/methods.ts asks
// OPTIONS for the Allow of a method no route takes, and answers this path 404 from it.
export const OPTIONS = notFound;
