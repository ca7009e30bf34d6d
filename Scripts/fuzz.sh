#!/usr/bin/env bash
# Fuzzes the archive reader with libFuzzer for a fixed time.
#
# Usage: Scripts/fuzz.sh [SECONDS] [extra libFuzzer options...]
#   SECONDS   how long to run (default 600)
#
# Builds Fuzz/ (a separate package) with the fuzzer and address sanitizers, then runs it on a
# working corpus seeded from Fuzz/Corpus/archive-reader (the seeds in the repository are never
# modified). Crashing inputs land in Fuzz/artifacts/; each one belongs in Fuzz/Regressions/ with a
# test once fixed. Every input, seeds and regressions, is also replayed by `swift test`
# (ArchiveCorpusTests), without the fuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
case "$seconds" in
  '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;;
esac

echo "== building Fuzz/ with -sanitize=fuzzer,address (release)"
# SwiftPM can keep a path dependency's old list of source files in Fuzz/.build, so that files
# added to the root package since the last fuzzing build are missing: on a failed build, start
# from a clean build folder once.
if ! swift build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address; then
  echo "== build failed; retrying from a clean Fuzz/.build"
  rm -rf Fuzz/.build
  swift build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address
fi
binary="$(swift build --package-path Fuzz -c release -Xswiftc -sanitize=fuzzer,address --show-bin-path)/archive-reader-fuzzer"

work="Fuzz/artifacts/corpus"
mkdir -p "$work" Fuzz/artifacts/crashes
echo "== fuzzing for ${seconds} s; working corpus $work, crashes in Fuzz/artifacts/crashes/"
# Inputs up to 64 KiB (the seeds are up to 60 KiB: long paths, many records, huge declared
# counts); 2 GiB of memory and 10 s per input are far above what the reader's limits allow, so
# hitting either is a finding. The dictionary holds the format's markers and names.
"$binary" "$work" Fuzz/Corpus/archive-reader Fuzz/Regressions \
  -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
  -dict=Fuzz/archive.dict \
  -artifact_prefix=Fuzz/artifacts/crashes/ -print_final_stats=1 "$@"
