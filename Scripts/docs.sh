#!/usr/bin/env bash
# Builds the documentation catalogs with the toolchain's docc, warnings as errors, so that a
# broken symbol link fails. Usage: Scripts/docs.sh [OUTPUT-FOLDER] (default .build/docs)
set -euo pipefail
cd "$(dirname "$0")/.."
output="${1:-.build/docs}"
mkdir -p "$output"
swift package dump-symbol-graph >/dev/null
graphs="$(swift build --show-bin-path)/../symbolgraph"
for module in StateRestoration StateRestorationUI StateRestorationTesting StoryboardImport \
  RestorationLint RestorationLintInterfaceBuilder RestorationLintSwift RestorationLintCommand; do
  echo "== $module"
  # Each module's graphs alone: docc documents one module per catalog.
  own="$(mktemp -d)"
  cp "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json "$own/" 2>/dev/null || true
  docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$own" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.swift-state-restoration.$module" \
    --warnings-as-errors --output-dir "$output/$module"
  rm -rf "$own"
done
