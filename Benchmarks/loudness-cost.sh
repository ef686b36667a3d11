#!/usr/bin/env bash
# Times what measuring loudness costs a render: `detent render` of a 10-minute 24-bit stereo
# 48 kHz noise file with its meter measuring nothing, integrated loudness only, and
# integrated loudness with true peak (the default, 4× oversampled), and with --normalize
# (two passes). The meter runs on the writer's thread beside the engine.
#
#   detent render IN -o OUT --set cutoff=1000 --set gain=-6 --measure none|integrated|true-peak
#   detent render IN -o OUT --set cutoff=1000 --set gain=-6 --normalize -23
#
# The four run in turn within each round (the order rotates from round to round), so drifts
# in machine load hit all alike; each figure is the median of its rounds.
#
# Usage: Benchmarks/loudness-cost.sh [ROUNDS]      (default 7; BENCH_TMPDIR=DIR to choose
# where the ~350 MB of test files go)
# Needs: sox.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-7}"

source Benchmarks/common.sh

echo "making a test file (10 min of 24-bit stereo noise at 48 kHz)…" >&2
sox -R -n -r 48000 -c 2 -b 24 "$work/long.wav" synth 600 whitenoise vol 0.5

run() {  # run VARIANT IN OUT
    local sound=(--set cutoff=1000 --set gain=-6 --quiet)
    case "$1" in
        normalize) "$detent" render "$2" -o "$3" "${sound[@]}" --normalize -23 ;;
        *) "$detent" render "$2" -o "$3" "${sound[@]}" --measure "$1" ;;
    esac
}

variants=(none integrated true-peak normalize)
timed() { run "$1" "$work/long.wav" "$work/out.wav"; }
time_rounds "$rounds" "${variants[@]}"
echo
echo "10-minute 24-bit stereo 48 kHz file, median of $rounds alternating rounds:"
for variant in "${variants[@]}"; do
    m="median_${variant//-/_}"
    awk -v v="$variant" -v m="${!m}" -v n="$median_none" 'BEGIN { printf "  %-11s %7.3f s   %.2f× the render measuring nothing\n", v, m / 1e6, m / n }'
done
