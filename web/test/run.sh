#!/usr/bin/env bash
# The interactive page's browser test (page.test.mjs): installs what it needs — Debian's chromium and the two npm
# packages pinned in package-lock.json — then runs it with node's test runner. `gjk serve`, which the test starts,
# installs the WebAssembly target and wasm-bindgen-cli on first use and builds the page. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")"

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  echo "== installing Debian's chromium (apt-get)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

echo "== npm ci (playwright-core drives the system's chromium; it downloads no browser)"
npm ci --no-audit --no-fund --loglevel=error

echo "== node --test page.test.mjs"
node --test --test-concurrency=1 page.test.mjs
