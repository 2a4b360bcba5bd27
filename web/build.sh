#!/usr/bin/env bash
# The page's WebAssembly module: crates/gjk-web compiled for wasm32-unknown-unknown, with its JavaScript bindings
# (wasm-bindgen), in web/pkg/. web/pkg is checked in, so `gjk serve` (which embeds web/) needs no build; this
# script rebuilds it and writes web/pkg/STAMP, the record of what it was built from and what came out.
#
#   bash web/build.sh            rebuild web/pkg from the source (run it after changing the library, the CLI's
#                                library or their dependencies, then commit web/pkg)
#   bash web/build.sh --check    about a second, no build (what CI runs): the toolchain, every input file (as the
#                                stamp lists them, each with its SHA-256), the registry crates and every output
#                                file must be the stamp's
#   bash web/build.sh --verify   --check, then compile the module again and compare its bytes with the stamp's
#                                (and the bindings too, when wasm-bindgen-cli at the stamp's version is at hand)
#
# The stamp records what the module is built from, and no more, so that unrelated changes (a test, a benchmark, a
# new workspace member or its dependencies in Cargo.lock) leave it valid:
#   - the files cargo read to compile the module (its dep-info, restricted to this repository: the library's and
#     the CLI library's sources, not their tests, benches or binaries), and this script;
#   - the manifests of the workspace, gjk, gjk-cli and gjk-web, without what cannot reach the module (the member
#     lists, [dev-dependencies]);
#   - the registry crates compiled into it, name and version (`cargo tree -p gjk-web --target wasm32-...`), which
#     is what Cargo.lock decides for it.
# The build is reproducible across checkout folders, target folders and cargo homes: those paths are remapped
# (--remap-path-prefix), so the module's bytes depend on the source and the toolchain alone.
#
# Needs: the wasm32-unknown-unknown target (installed with rustup if missing) and, to rebuild, wasm-bindgen-cli at
# exactly the version of the wasm-bindgen crate in Cargo.lock (installed with `cargo install` if missing: several
# minutes of compiling, once).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$root"
mode=${1:-build}
case "$mode" in
  build | --check | --verify) ;;
  *)
    echo "usage: bash web/build.sh [--check | --verify]" >&2
    exit 2
    ;;
esac

target_triple=wasm32-unknown-unknown
pkg=web/pkg
stamp=$pkg/STAMP
target_dir=${CARGO_TARGET_DIR:-$root/target}
mkdir -p "$target_dir"
target_dir=$(cd "$target_dir" && pwd -P)
cargo_home=${CARGO_HOME:-$HOME/.cargo}
module=$target_dir/$target_triple/wasm/gjk_web.wasm
rebuild_hint="run \`bash web/build.sh\` to rebuild the page, then commit web/pkg"

toolchain() { rustc -V; }

# The wasm-bindgen version Cargo.lock records (the CLI must be exactly it).
bindgen_locked() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

sha() { sha256sum "$1" | cut -d' ' -f1; }

# The hash of an input: a manifest without its member lists, dev-dependency sections, blank lines and comments
# (none reaches the module), any other file as it is.
digest() {
  case "$1" in
    Cargo.toml | */Cargo.toml)
      awk '
        /^\[/ { skip = ($0 ~ /^\[(target\..*\.)?dev-dependencies(\.|\])/) }
        skip || /^[ \t]*(#|$)/ || /^(default-)?members *=/ { next }
        { print }
      ' "$1" | sha256sum | cut -d' ' -f1
      ;;
    *) sha "$1" ;;
  esac
}

# The registry crates compiled into the module, one "name version" a line, sorted (path crates are inputs above).
crates() {
  cargo tree -q -p gjk-web --target "$target_triple" -e normal,build --prefix none --locked --offline \
    | grep -v ' (/' | sed 's/ (.*)$//' | LC_ALL=C sort -u
}

# Compiles the module, reproducibly: every path that differs between machines is remapped.
compile() {
  if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$target_triple"; then
    echo "== rustup target add $target_triple"
    rustup target add "$target_triple"
  fi
  local sep=$'\x1f'
  local flags="--remap-path-prefix=$root=/gjk${sep}--remap-path-prefix=$cargo_home=/cargo"
  flags+="${sep}--remap-path-prefix=$target_dir=/target"
  echo "== cargo build -p gjk-web --profile wasm --target $target_triple --locked"
  CARGO_ENCODED_RUSTFLAGS="$flags" CARGO_TARGET_DIR="$target_dir" \
    cargo build -q -p gjk-web --profile wasm --target "$target_triple" --locked
}

# The repository's files cargo read to compile the module (from its dep-info), then the manifests and this
# script, as paths relative to the root, sorted.
inputs() {
  local dep=${module%.wasm}.d
  {
    sed -n '1s/^[^:]*: //p' "$dep" | tr ' ' '\n' | sed -n "s|^$root/||p"
    printf '%s\n' Cargo.toml crates/gjk/Cargo.toml crates/gjk-cli/Cargo.toml crates/gjk-web/Cargo.toml \
      web/build.sh
  } | grep -v '^$' | LC_ALL=C sort -u
}

# Runs wasm-bindgen on the module into the folder $1.
bindings() {
  wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section --out-dir "$1" "$module"
}

write_stamp() {
  {
    echo "# web/pkg was built by web/build.sh from the inputs below; \`bash web/build.sh --check\` compares them with"
    echo "# the tree. Generated: do not edit."
    echo "toolchain $(toolchain)"
    echo "wasm-bindgen $(bindgen_locked)"
    echo "module $(sha "$module") (cargo's output, before wasm-bindgen)"
    for f in $(cd "$pkg" && ls | LC_ALL=C sort); do
      [ "$f" = STAMP ] || echo "output $(sha "$pkg/$f") $f"
    done
    inputs | while read -r f; do echo "input $(digest "$f") $f"; done
    crates | while read -r name version; do echo "crate $version $name"; done
  } >"$stamp"
}

# Compares the tree with the stamp; prints each difference and returns 1 if there is any.
check() {
  [ -f "$stamp" ] || { echo "$stamp is missing: $rebuild_hint" >&2; return 1; }
  local bad=0 kind hash file
  local want_tc
  want_tc=$(sed -n 's/^toolchain //p' "$stamp")
  if [ "$want_tc" != "$(toolchain)" ]; then
    echo "toolchain: web/pkg was built with $want_tc, this is $(toolchain)" >&2
    bad=1
  fi
  if [ "$(sed -n 's/^wasm-bindgen //p' "$stamp")" != "$(bindgen_locked)" ]; then
    echo "wasm-bindgen: the stamp says $(sed -n 's/^wasm-bindgen //p' "$stamp"), Cargo.lock $(bindgen_locked)" >&2
    bad=1
  fi
  while read -r kind hash file; do
    case "$kind" in
      input)
        if [ ! -f "$file" ]; then
          echo "input $file: gone" >&2
          bad=1
        elif [ "$(digest "$file")" != "$hash" ]; then
          echo "input $file: changed since web/pkg was built" >&2
          bad=1
        fi
        ;;
      output)
        if [ ! -f "$pkg/$file" ] || [ "$(sha "$pkg/$file")" != "$hash" ]; then
          echo "output web/pkg/$file: not the file the build wrote" >&2
          bad=1
        fi
        ;;
    esac
  done <"$stamp"
  local want_crates have_crates
  want_crates=$(sed -n 's/^crate \([^ ]*\) \(.*\)/\2 \1/p' "$stamp")
  if ! have_crates=$(crates); then
    echo "cargo tree failed (is Cargo.lock up to date?)" >&2
    bad=1
  elif [ "$want_crates" != "$have_crates" ]; then
    echo "the registry crates compiled into the module changed (Cargo.lock):" >&2
    diff <(echo "$want_crates") <(echo "$have_crates") | sed -n 's/^\([<>]\)/  \1/p' >&2 || true
    bad=1
  fi
  for f in "$pkg"/*; do
    f=${f#"$pkg"/}
    if [ "$f" != STAMP ] && ! grep -q "^output [0-9a-f]* $f$" "$stamp"; then
      echo "web/pkg/$f: not written by the build" >&2
      bad=1
    fi
  done
  if [ "$bad" != 0 ]; then
    echo "web/pkg does not match the source: $rebuild_hint" >&2
    return 1
  fi
  echo "web/pkg matches the source ($(grep -c '^input ' "$stamp") input files, $(grep -c '^crate ' "$stamp") registry crates, $want_tc)"
}

case "$mode" in
  --check)
    check
    ;;
  --verify)
    check
    compile
    want=$(sed -n 's/^module \([0-9a-f]*\).*/\1/p' "$stamp")
    if [ "$(sha "$module")" != "$want" ]; then
      echo "the module compiled from this source is not the one web/pkg was built from: $rebuild_hint" >&2
      exit 1
    fi
    echo "the module compiled again is byte for byte the stamp's ($(wc -c <"$module") bytes)"
    if wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $(bindgen_locked)"; then
      out=$(mktemp -d)
      trap 'rm -rf "$out"' EXIT
      bindings "$out"
      for f in "$out"/*; do
        cmp -s "$f" "$pkg/$(basename "$f")" || {
          echo "web/pkg/$(basename "$f") differs from what wasm-bindgen writes now: $rebuild_hint" >&2
          exit 1
        }
      done
      echo "and wasm-bindgen writes the same web/pkg, byte for byte"
    else
      echo "(wasm-bindgen $(bindgen_locked) is not installed: the bindings were not written again)"
    fi
    ;;
  build)
    version=$(bindgen_locked)
    if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
      echo "== cargo install wasm-bindgen-cli --version $version --locked (several minutes, once)"
      # The tool's own lock file can name a dependency release the registry no longer offers (webpki-roots 1.0.11
      # was not there on 2026-11-26): then its dependencies are resolved afresh. The tool's version, which is
      # what must match the crate's, is pinned either way.
      cargo install wasm-bindgen-cli --version "$version" --locked ||
        cargo install wasm-bindgen-cli --version "$version"
    fi
    compile
    rm -rf "$pkg"
    mkdir -p "$pkg"
    echo "== wasm-bindgen --target web into $pkg"
    bindings "$pkg"
    write_stamp
    echo "web/pkg rebuilt: $(wc -c <"$pkg/gjk_web_bg.wasm") bytes of WebAssembly, $(wc -c <"$pkg/gjk_web.js") of JavaScript"
    ;;
esac
