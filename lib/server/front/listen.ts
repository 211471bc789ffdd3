// Taking the server's port: a port another program holds is an error that ends the start
// (#32 finding 8). Before, listen's error had no listener to reach, so the server logged
// EADDRINUSE and stayed alive without serving, holding the embedded database's lock: the next
// start was refused.
import type { Server } from "node:http";

/** The port could not be taken: in use, or not allowed. The message is a sentence for the player. */
export class PortUnavailableError extends Error {
  constructor(
    readonly port: number,
    readonly code: string,
  ) {
    super(
      code === "EADDRINUSE"
        ? `Port ${port} is already in use by another program. Stop that program, or set PORT to a free port.`
        : code === "EACCES"
          ? `This account may not serve port ${port}. Set PORT to a port above 1023.`
          : `Could not serve port ${port} (${code}).`,
    );
    this.name = "PortUnavailableError";
  }
}

/** Listens on `port`, or rejects with PortUnavailableError (the server is then not listening). */
export function listenOn(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      server.off("listening", listening);
      reject(new PortUnavailableError(port, error.code ?? "unknown"));
    };
    const listening = () => {
      server.off("error", failed);
      resolve();
    };
    server.once("error", failed);
    server.once("listening", listening);
    server.listen(port);
  });
}
