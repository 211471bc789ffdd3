// tsx --conditions react-server scripts/cleanup-uploads.ts - delete temporary uploads older than a
// day (rows and stored bytes) now, e.g. from cron; the app also does it at most hourly on its own.
import { getDb } from "../lib/server/db";
import { cleanupTemporaryUploads } from "../lib/server/uploads/cleanup-temporary-uploads";

const { deleted } = await cleanupTemporaryUploads(new Date());
console.log(`Deleted ${deleted} temporary upload(s).`);
await getDb().$disconnect();
