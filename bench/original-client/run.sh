#!/usr/bin/env bash
# The original client (TrueKuehli/PruneTree at e51ba87) against Heirloom's Gallery (issue 25).
# Not part of npm test. Nothing of PruneTree is kept in this project: it is checked out, installed
# and served from PRUNETREE_DIR (default /tmp/prunetree).
#
# 1. Check it out (any git clone; here from a mirror's git directory, skipping the two guide GIFs
#    the mirror does not hold) and make it a git repository (its webpack config reads the commit):
#      git -C <mirror> ls-tree -r e51ba87 | while read -r mode type sha path; do
#        mkdir -p "/tmp/prunetree/$(dirname "$path")"
#        git -C <mirror> cat-file blob "$sha" > "/tmp/prunetree/$path" || echo "missing $path"
#      done
#      (cd /tmp/prunetree && git init -q && git add -A && git commit -qm e51ba87)
# 2. Install its locked dependencies from the registry, without install scripts (sharp's downloads
#    from GitHub; the favicon plugin that needs it is left out by webpack.heirloom.mjs):
#      (cd /tmp/prunetree && npm install --no-audit --no-fund --ignore-scripts)
# 3. Heirloom on HEIRLOOM_URL, e.g. in this checkout:
#      PORT=3305 APP_URL=http://127.0.0.1:3305 DATABASE_URL=postgresql://…/heirloom_e2e_gscale \
#        DATA_DIR=/tmp/gscale/oc-data NODE_ENV=production npm start
# 4. This script: serves the client with its own webpack dev server (its /api proxied to
#    Heirloom), runs bench/original-client/gallery.ts (Chromium), and stops the dev server.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export PRUNETREE_DIR="${PRUNETREE_DIR:-/tmp/prunetree}"
export HEIRLOOM_URL="${HEIRLOOM_URL:-http://127.0.0.1:3305}"
export PRUNETREE_PORT="${PRUNETREE_PORT:-3395}"
export PRUNETREE_URL="http://127.0.0.1:${PRUNETREE_PORT}"

if curl -s -o /dev/null "$PRUNETREE_URL/"; then
  echo "Something already answers on $PRUNETREE_URL: choose another PRUNETREE_PORT" >&2
  exit 1
fi
# Its own process group, so that the dev server (npx's child) stops with it.
setsid bash -c 'cd "$PRUNETREE_DIR" && exec npx webpack serve --mode development --config "$0"' \
  "$here/webpack.heirloom.mjs" > "${TMPDIR:-/tmp}/prunetree-webpack.log" 2>&1 &
dev=$!
trap 'kill -- -"$dev" 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  curl -sf -o /dev/null "$PRUNETREE_URL/gallery" && break
  sleep 1
done
(cd "$here/../.." && npx tsx bench/original-client/gallery.ts)
