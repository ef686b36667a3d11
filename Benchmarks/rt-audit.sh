#!/usr/bin/env bash
# Audits every installed, hostable LV2 plug-in with `detent plugins --check` and counts the
# verdicts: real-time safe in this run, unsafe (by kind: allocation, lock, blocking call;
# and how many only in their first block), crashed or hung, or not run. One line per
# plug-in goes to rt-audit.txt in the current folder (RESULTS=NAME: another name).
#
#   Benchmarks/rt-audit.sh [seconds of audio per plug-in]      (default 1)
#
# DETENT=PATH audits with that binary instead of a fresh release build.
set -euo pipefail
results=$(pwd)/${RESULTS:-rt-audit.txt}
cd "$(dirname "$0")/.."

seconds=${1:-1}
if [ -n "${DETENT:-}" ]; then
    detent=$DETENT
else
    swift build -c release --product detent >&2
    detent="$(swift build -c release --show-bin-path)/detent"
fi
: >"$results"

safe=0 unsafe=0 first_only=0 allocation=0 lock=0 blocking=0 crashed=0 failed=0 total=0
while IFS= read -r uri; do
    total=$((total + 1))
    status=0
    json=$("$detent" plugins --check "$uri" --seconds "$seconds" --json 2>"$results.err") || status=$?
    case $status in
    0)
        safe=$((safe + 1))
        echo "safe        $uri" >>"$results" ;;
    1)
        unsafe=$((unsafe + 1))
        kinds=$(grep -o '"kind":"[^"]*"' <<<"$json" | sort -u | sed 's/"kind":"\(.*\)"/\1/' | paste -sd, -)
        grep -q '"kind":"allocation"' <<<"$json" && allocation=$((allocation + 1))
        grep -q '"kind":"lock"' <<<"$json" && lock=$((lock + 1))
        grep -q '"kind":"blocking call"' <<<"$json" && blocking=$((blocking + 1))
        grep -q '"afterFirstBlock":true' <<<"$json" || first_only=$((first_only + 1))
        echo "unsafe      $uri  $kinds  $(grep -o '"function":"[^"]*"' <<<"$json" | sed 's/"function":"\(.*\)"/\1/' | sort -u | paste -sd' ' -)" >>"$results" ;;
    70)
        crashed=$((crashed + 1))
        echo "crashed     $uri  $(head -n 1 "$results.err")" >>"$results" ;;
    *)
        failed=$((failed + 1))
        echo "not run     $uri  $(head -n 1 "$results.err")" >>"$results" ;;
    esac
done < <("$detent" plugins --json | grep '"hostable":true' | sed 's/.*"uri":"\([^"]*\)".*/\1/')
rm -f "$results.err"

echo "$total hostable plug-ins audited for $seconds s of audio each (results: $results)"
echo "real-time safe in this run: $safe"
echo "unsafe calls in run():      $unsafe (allocation $allocation, lock $lock, blocking call $blocking; in the first block only: $first_only)"
echo "crashed or hung:            $crashed"
echo "not run:                    $failed"
