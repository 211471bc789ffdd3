// tsx --conditions react-server scripts/cleanup-uploads.ts - delete temporary uploads older than a
// day (rows and stored bytes) now, e.g. from cron; the app also does it at most hourly on its own.
import { getDb } from "../lib/server/db";
import { cleanupTemporaryUploads } from "../lib/server/uploads/cleanup-temporary-uploads";

const { deleted, strays } = await cleanupTemporaryUploads(new Date());
console.log(`Deleted ${deleted} temporary upload(s) and ${strays} stray incoming file(s).`);
await getDb().$disconnect();
