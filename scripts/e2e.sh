#!/usr/bin/env bash
# `npm run test:e2e`: every user journey in a real VS Code (code-server) driven by
# Playwright in Debian Chromium, with the packaged extension and the reference server.
# Ends with `N passed, N failed`; exits non-zero on any failure. Screenshots go to
# test-results/screenshots/, a failure's screenshot and logs to test-results/failures/.
# Extra arguments go to mocha (e.g. --grep "Journey 3"). UPDATE_SCREENSHOTS=1 copies the
# README's screenshots to media/screenshots/ after a passing run.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-system.sh
bash scripts/ensure-toolchain.sh >/dev/null

if [ "${E2E_SKIP_BUILD:-}" != "1" ]; then
  echo "Building and packaging the extension..."
  npm run --silent package >/dev/null   # vscode:prepublish builds both bundles first
fi
export E2E_SKIP_BUILD=1

status=0
npx mocha --config test/e2e/.mocharc.json "$@" || status=$?

# UPDATE_SCREENSHOTS=1 refreshes the README's pictures from this run (when it passed).
if [ "${UPDATE_SCREENSHOTS:-}" = "1" ] && [ "$status" -eq 0 ]; then
  mkdir -p media/screenshots
  for name in side-bar-chat-dark side-bar-chat-light code-block-toolbar model-pick status-bar-tooltip; do
    cp "test-results/screenshots/$name.png" "media/screenshots/$name.png"
  done
  echo "Updated media/screenshots/ (side bar dark and light, code block toolbar, model pick, status bar tooltip)."
fi
exit "$status"
