#!/usr/bin/env bash
# Start-up: what a script that calls a renderer once per file pays per call. Times, side by
# side in each round, `detent --version` against `sox --version`, and rendering a 1-second
# stereo 48 kHz file against SoX doing the same (a lowpass and a gain):
#
#   detent render one.wav -o out.wav --set cutoff=1000 --set gain=-6 --quiet
#   sox one.wav out.wav lowpass 1000 gain -6
#
# and, in the same rounds, `/bin/true`: what starting any program at all costs here.
#
# Each figure is the mean of CALLS calls in a row; each round runs the five in turn (the
# order rotates), and the report gives each one's median over the rounds and Detent's ratio
# to SoX.
#
# Usage: Benchmarks/startup-vs-sox.sh [ROUNDS] [CALLS]      (default 7 rounds of 50 calls)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-7}"
calls="${2:-50}"

source Benchmarks/common.sh

sox -R -n -r 48000 -c 2 -b 16 "$work/one.wav" synth 1 sine 440 vol 0.5

subjects=(detent-version sox-version detent-render sox-render true)
run() {  # run SUBJECT: one call
    case "$1" in
        detent-version) "$detent" --version ;;
        sox-version) sox --version ;;
        detent-render) "$detent" render "$work/one.wav" -o "$work/d.wav" --set cutoff=1000 --set gain=-6 --quiet --force ;;
        sox-render) sox "$work/one.wav" "$work/s.wav" lowpass 1000 gain -6 ;;
        true) /bin/true ;;
    esac >/dev/null
}
mean_ms() {  # mean_ms SUBJECT: milliseconds per call over CALLS calls
    local start end
    start=$(date +%s%N)
    for ((i = 0; i < calls; i++)); do run "$1"; done
    end=$(date +%s%N)
    awk -v ns=$((end - start)) -v n="$calls" 'BEGIN { printf "%.3f", ns / n / 1e6 }' 
}

declare -A times
for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#subjects[@]}; k++)); do
        s=${subjects[$(((k + r) % ${#subjects[@]}))]}
        times[$s]+="$(mean_ms "$s") "
    done
done
for s in "${subjects[@]}"; do
    printf '%-15s %8.2f ms per call (median of %d rounds of %d)\n' "$s" "$(median <<<"${times[$s]}")" "$rounds" "$calls"
done
for what in version render; do
    d=$(median <<<"${times[detent-$what]}") x=$(median <<<"${times[sox-$what]}")
    printf '%-7s detent / sox: %.2f×\n' "$what" "$(awk -v d="$d" -v x="$x" 'BEGIN { print d / x }')"
done
