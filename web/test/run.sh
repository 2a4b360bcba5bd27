#!/usr/bin/env bash
# The live pages' browser test (page.test.mjs, the 2D and the 3D page): installs what it needs — Debian's chromium
# and the two npm packages pinned in package-lock.json — then runs it with node's test runner. The test starts
# `gjk serve`, which serves the page built into the binary (web/pkg is prebuilt: nothing is compiled to
# WebAssembly here): the binary GJK_BIN names when set (scripts/test-all.sh sets it), else `cargo run -p gjk-cli`.
# Run from anywhere.
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
