#!/usr/bin/env bash
# `npm start`: builds and packages the extension, installs code-server into a cache
# folder the first time, starts the reference server and code-server with the
# extension, and prints the URL to open. Ctrl+C stops everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system.sh
[ -d node_modules ] || { echo "Run 'npm ci' first." >&2; exit 1; }
# exec: one Node process receives Ctrl+C and stops what it started.
exec node --import tsx test/e2e/start.ts
