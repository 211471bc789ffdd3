// The local channel `npm run backup` asks a running server through (ADR 033). On the embedded
// default only the server's process may open the database (ADR 013), so the backup's snapshot is
// taken here, through the process's one PGlite, and the archive streamed back. The channel is a
// unix-domain socket inside DATA_DIR, in a folder only the owner may enter (0700) and itself 0600:
// no network route, and no one but the account that owns the data can connect.
import fs from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import type { Logger } from "pino";
import type { Env } from "@/lib/env";
import {
  adminSocketPath,
  BackupError,
  imageStoreOf,
  MAX_SOCKET_PATH,
  prepareBackup,
} from "../backup/archive";
import { pgliteBackupDatabase } from "../backup/database";
import type { EmbeddedDatabase } from "./pglite-thread";

export interface AdminSocket {
  close(): Promise<void>;
}

const answerError = (res: ServerResponse, status: number, detail: string) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ errors: [{ detail }] }));
};

/**
 * Serves POST /backup on DATA_DIR/run/admin.sock: a .tar.gz of the database (one snapshot through
 * `pglite`) and the local uploads. One backup at a time. Null when the path is too long for a
 * socket (the backup command then says to stop the server and back up without it).
 */
export async function startAdminSocket(options: {
  env: Pick<Env, "DATA_DIR" | "UPLOADS_DIR" | "S3_BUCKET" | "BLOB_READ_WRITE_TOKEN">;
  pglite: () => EmbeddedDatabase;
  logger: Logger;
}): Promise<AdminSocket | null> {
  const { env } = options;
  const imageStore = imageStoreOf(env);
  const socketPath = adminSocketPath(env.DATA_DIR);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    options.logger.warn(
      { socketPath },
      "DATA_DIR's path is too long for the backup socket: npm run backup needs the server stopped",
    );
    return null;
  }
  const folder = path.dirname(socketPath);
  await fs.mkdir(folder, { recursive: true, mode: 0o700 });
  await fs.chmod(folder, 0o700);
  // This process holds the folder's lock (ADR 013), so a socket file left here is a dead one's.
  await fs.rm(socketPath, { force: true });

  let running = false;
  const server: Server = createServer((req, res) => {
    // `?uploads=none`: the database alone (npm run backup -- --no-uploads).
    const omitUploads = req.url === "/backup?uploads=none";
    if (req.method !== "POST" || (req.url !== "/backup" && !omitUploads)) {
      answerError(res, 404, "Not found");
      return;
    }
    if (running) {
      answerError(res, 409, "A backup is running already; try again when it has finished");
      return;
    }
    running = true;
    void (async () => {
      const started = performance.now();
      try {
        const prepared = await prepareBackup({
          db: pgliteBackupDatabase(options.pglite()),
          uploadsDir: imageStore === "local" ? env.UPLOADS_DIR : null,
          imageStore,
          tmpDir: path.join(env.DATA_DIR, "tmp"),
          omitUploads,
        });
        try {
          res.writeHead(200, { "content-type": "application/gzip" });
          await prepared.write(res);
        } finally {
          await prepared.dispose();
        }
        options.logger.info(
          {
            counts: prepared.manifest.counts,
            snapshotMs: prepared.manifest.snapshotMs,
            ms: Math.round(performance.now() - started),
          },
          "backup written",
        );
      } catch (error) {
        options.logger.error({ err: error }, "backup failed");
        if (!res.headersSent) {
          answerError(
            res,
            500,
            error instanceof BackupError ? error.message : `The backup failed: ${String(error)}`,
          );
        } else {
          res.destroy(error as Error);
        }
      } finally {
        running = false;
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  await fs.chmod(socketPath, 0o600);
  return {
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(socketPath, { force: true });
    },
  };
}
