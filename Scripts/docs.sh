#!/usr/bin/env bash
# Builds the documentation catalogs with swift-docc-plugin, warnings as errors, so that a broken
# symbol link fails. Usage: Scripts/docs.sh [OUTPUT-FOLDER] (the archives are also copied there)
# Preview one: swift package --disable-sandbox preview-documentation --target StateRestoration
set -euo pipefail
cd "$(dirname "$0")/.."
modules=(StateRestoration StateRestorationStorage StateRestorationUI StateRestorationTesting
  StoryboardImport RestorationLint RestorationLintInterfaceBuilder RestorationLintSwift
  RestorationLintCommand)
targets=()
for module in "${modules[@]}"; do targets+=(--target "$module"); done
swift package generate-documentation "${targets[@]}" --warnings-as-errors
if [ $# -gt 0 ]; then
  mkdir -p "$1"
  for module in "${modules[@]}"; do
    rm -rf "${1:?}/$module.doccarchive"
    cp -R ".build/plugins/Swift-DocC/outputs/$module.doccarchive" "$1/"
  done
fi
