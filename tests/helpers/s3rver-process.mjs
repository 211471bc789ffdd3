// Runs s3rver in a process of its own for tests/helpers/setup-s3rver.ts, which starts it with
// --openssl-legacy-provider: s3rver makes ListObjectsV2 continuation tokens with DES, which
// OpenSSL 3 only offers from its legacy provider. Sends { port } to the parent once listening,
// and stops when the parent goes away.
import S3rver from "s3rver";

const directory = process.argv[2];
const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory });
const { port } = await server.run();
process.send?.({ port });
process.on("disconnect", () => {
  void server.close().finally(() => process.exit(0));
});
