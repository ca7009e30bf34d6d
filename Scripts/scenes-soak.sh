#!/usr/bin/env bash
# Two processes of the Restorer demo save their windows in a loop while a third lists them, for
# a given time; then every window that was saved and not closed must still be listed and
# restore its own screen.
#
# Usage: Scripts/scenes-soak.sh [SECONDS]   (default 60; the documented run is 1800)
#   RESTORER=path   use this restorer binary instead of building .build/debug/restorer
#
# Each writer, in a loop: opens a new window on a country chosen at random and goes home;
# reconnects one of its earlier windows and checks that its country came back; and past 40
# windows closes its oldest one (`w`). The lister runs `restorer --windows`, which launches the
# app and so reads the index and removes the folders it has provably left over, as any launch
# does. Every failed run, every window that does not come back, is counted and reported; the
# exit status is 1 if there was any.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
case "$seconds" in
  '' | *[!0-9]*) echo "scenes-soak.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;;
esac
if [ -z "${RESTORER:-}" ]; then
  swift build --product restorer >/dev/null || exit 2
  RESTORER="$(swift build --show-bin-path)/restorer"
fi
state="$(mktemp -d -t scenes-soak.XXXXXX)"
work="$(mktemp -d -t scenes-soak-work.XXXXXX)"
trap 'rm -rf "$state" "$work"' EXIT
deadline=$(($(date +%s) + seconds))
restorer() { "$RESTORER" --state-dir "$state" "$@"; }

# The session of the window a run saved, from the path it printed, and its country.
saved_session() { sed -n 's|.*/Scenes/\([^/]*\)/data\.data$|\1|p' "$1" | head -n 1; }
country() { sed -n 's/^ *Country:  *\(.*[^ ]\) *$/\1/p' "$1" | head -n 1; }

writer() {
  local name="$1" ledger="$work/$1.ledger" out="$work/$1.out"
  local saves=0 reconnects=0 closes=0 failures=0
  : >"$ledger"
  while [ "$(date +%s)" -lt "$deadline" ]; do
    local rows=$((RANDOM % 200 + 1))
    if restorer --new-window --keys "down*$rows enter h" >"$out" 2>&1 \
      && grep -q "Home: state preserved" "$out"; then
      local session shown
      session="$(saved_session "$out")"
      shown="$(country "$out")"
      if [ -n "$session" ] && [ -n "$shown" ]; then
        printf '%s\t%s\n' "$session" "$shown" >>"$ledger"
        saves=$((saves + 1))
      else
        echo "$name: a save printed no session or country" >&2
        failures=$((failures + 1))
      fi
    else
      echo "$name: a new window was not saved: $(tail -n 2 "$out")" >&2
      failures=$((failures + 1))
    fi
    local count
    count=$(wc -l <"$ledger")
    if [ "$count" -gt 1 ]; then
      local line session shown
      line="$(sed -n "$((RANDOM % (count - 1) + 1))p" "$ledger")"
      session="${line%%$'\t'*}"
      shown="${line#*$'\t'}"
      if restorer --window "$session" --keys h >"$out" 2>&1 \
        && grep -qF "Country:  $shown" "$out" && grep -q "Home: state preserved" "$out"; then
        reconnects=$((reconnects + 1))
      else
        echo "$name: window $session ($shown) did not come back: $(tail -n 2 "$out")" >&2
        failures=$((failures + 1))
      fi
    fi
    if [ "$count" -gt 40 ]; then
      local session
      session="$(head -n 1 "$ledger" | cut -f 1)"
      if restorer --window "$session" --keys w >"$out" 2>&1 && grep -q "Closed window" "$out"; then
        sed -i 1d "$ledger"
        closes=$((closes + 1))
      else
        echo "$name: window $session could not be closed: $(tail -n 2 "$out")" >&2
        failures=$((failures + 1))
      fi
    fi
  done
  echo "$saves $reconnects $closes $failures" >"$work/$name.counts"
}

lister() {
  local listings=0 failures=0
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if restorer --windows >"$work/lister.out" 2>&1; then
      listings=$((listings + 1))
    else
      echo "lister: --windows failed: $(tail -n 2 "$work/lister.out")" >&2
      failures=$((failures + 1))
    fi
  done
  echo "$listings $failures" >"$work/lister.counts"
}

echo "== two writers and a lister for ${seconds} s in $state"
writer A &
writer B &
lister &
wait

# Every window a writer kept must be listed, hold its archive and restore its country.
restorer --windows >"$work/final" 2>&1
lost=0
kept=0
for ledger in "$work/A.ledger" "$work/B.ledger"; do
  while IFS=$'\t' read -r session shown; do
    kept=$((kept + 1))
    if ! grep -q "^  $session " "$work/final" \
      || ! restorer --window "$session" --keys h >"$work/check" 2>&1 \
      || ! grep -qF "Country:  $shown" "$work/check"; then
      echo "lost: window $session ($shown)" >&2
      lost=$((lost + 1))
    fi
  done <"$ledger"
done
read -r saves_a reconnects_a closes_a failures_a <"$work/A.counts"
read -r saves_b reconnects_b closes_b failures_b <"$work/B.counts"
read -r listings failures_l <"$work/lister.counts"
saves=$((saves_a + saves_b))
failures=$((failures_a + failures_b + failures_l))
echo "windows saved: $saves; reconnected and checked: $((reconnects_a + reconnects_b));" \
  "closed: $((closes_a + closes_b)); listings: $listings"
echo "windows kept at the end: $kept; lost: $lost; failed runs: $failures"
[ "$lost" -eq 0 ] && [ "$failures" -eq 0 ]
