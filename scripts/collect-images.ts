// tsx --conditions react-server scripts/collect-images.ts - mark and sweep of used images (ADR 015):
// removes replaced avatars and covers, the images of deleted people and (after 30 days) deleted
// trees, with every variant, and never an image a published snapshot still shows. Run it from
// cron (e.g. nightly) beside `npm run uploads:cleanup`.
import { getDb } from "../lib/server/db";
import { collectUnusedImages } from "../lib/server/uploads/collect-unused-images";

const started = performance.now();
const { deleted } = await collectUnusedImages(new Date());
console.log(
  `Collected ${deleted} unused image(s) in ${Math.round(performance.now() - started)} ms.`,
);
await getDb().$disconnect();
