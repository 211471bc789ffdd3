// Settings of one e2e run. Each can be overridden so that parallel runs (different build
// directories, ports and databases) do not collide.
export const e2e = {
  port: Number(process.env.E2E_PORT ?? 3200),
  smtpPort: Number(process.env.E2E_SMTP_PORT ?? 2525),
  database: process.env.E2E_DB ?? "heirloom_e2e",
  postgresUrl: process.env.E2E_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432",
  get baseURL() {
    return `http://127.0.0.1:${this.port}`;
  },
  get mailDir() {
    return `.data/e2e-mail-${this.port}`;
  },
  get databaseUrl() {
    return `${this.postgresUrl}/${this.database}`;
  },
};

/** Debian's Chromium without its background work (updates, sync, QUIC, GPU); the benches use it too. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
