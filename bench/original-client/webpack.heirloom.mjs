// The original client's own webpack configuration (TrueKuehli/PruneTree at e51ba87, checked out
// outside this project in PRUNETREE_DIR), changed only where it must be to run against Heirloom:
// its dev server proxies /api to HEIRLOOM_URL (its own config says http://localhost:3000) and
// listens on PRUNETREE_PORT, and the favicon plugin is left out (it needs sharp's native binary,
// which its install downloads from GitHub). None of PruneTree's code is copied here.
// Used by bench/original-client/run.sh:
//   npx webpack serve --mode development --config <this file>   (cwd: PRUNETREE_DIR)
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);

const dir = process.env.PRUNETREE_DIR || "/tmp/prunetree";
const target = process.env.HEIRLOOM_URL || "http://127.0.0.1:3305";
const config = require(path.join(dir, "webpack.config.js"));

export default {
  ...config,
  context: dir,
  plugins: config.plugins.filter((plugin) => plugin.constructor.name !== "FaviconsWebpackPlugin"),
  devServer: {
    ...config.devServer,
    host: "127.0.0.1",
    port: Number(process.env.PRUNETREE_PORT || 3306),
    proxy: { "/api": { target, changeOrigin: false } },
    client: { overlay: false },
  },
};
