#!/usr/bin/env bash
# Formats every Swift file in place, then lints strictly; exits non-zero on any lint finding.
# Usage: Scripts/format.sh          format, then lint
#        Scripts/format.sh --lint   lint only (what CI runs)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--lint" ]; then
  git ls-files -z --cached --others --exclude-standard '*.swift' | xargs -0 swift format format --parallel --in-place
fi
git ls-files -z --cached --others --exclude-standard '*.swift' | xargs -0 swift format lint --strict --parallel
