// npm run gallery:hide -- <treeId>          hide a published tree from the Gallery
// npm run gallery:hide -- --undo <treeId>   let it back in (if its owner still lists it)
// The owner's tree, its publication and their choice to be listed are left as they are. A running
// app sees the change within 2 s (GALLERY_CACHE_MS); a CDN within its s-maxage (30 s).
import { parseArgs } from "node:util";
import { getDb } from "../lib/server/db";
import { setGalleryHidden } from "../lib/server/gallery/hide-tree";

const USAGE = "Usage: npm run gallery:hide -- [--undo] <treeId>";
let parsed;
try {
  parsed = parseArgs({ options: { undo: { type: "boolean" } }, allowPositionals: true });
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  process.exit(2);
}
const treeId = parsed.positionals[0];
if (!treeId || parsed.positionals.length > 1) {
  console.error(USAGE);
  process.exit(2);
}
const undo = parsed.values.undo === true;
const result = await setGalleryHidden(treeId, !undo);
await getDb().$disconnect();
if (!result) {
  console.error(`No published tree has the id ${treeId}.`);
  process.exit(1);
}
if (!undo) console.log(`Tree ${treeId} is hidden from the Gallery.`);
else if (result.shown) console.log(`Tree ${treeId} is back in the Gallery.`);
else console.log(`Tree ${treeId} is no longer hidden; its owner does not list it in the Gallery.`);
