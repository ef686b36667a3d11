#!/usr/bin/env bash
# What a graph's routing costs: two built-in branches in parallel, summed (a graph), against
# the same two built-ins in series (a chain), on the same 10-minute file, and the two branches
# rendered as separate files with their sum made by sox. The graph does as much filtering as
# the chain, plus a sum at the output and a copy of the input into each branch; the goal is
# ≤ 1.2× the chain's time.
#
#   detent render long.wav --graph parallel.json               (lo ∥ hi → output)
#   detent render long.wav --plugin lo=builtin --plugin hi=builtin --set …
#
# Usage: Benchmarks/graph-vs-chain.sh [ROUNDS]   (default 5)
# Needs: sox (Scripts/setup installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
source Benchmarks/common.sh

sox -R -n -r 48000 -c 2 -b 32 -e floating-point "$work/long.wav" synth 600 pinknoise vol 0.5
cat > "$work/parallel.json" <<'JSON'
{"slots": {"lo": {"plugin": "builtin", "values": {"cutoff": 300, "gain": -6}},
           "hi": {"plugin": "builtin", "values": {"cutoff": 5000, "gain": -6}}},
 "connections": [["input", "lo"], ["input", "hi"], ["lo", "output"], ["hi", "output"]]}
JSON
settings=(--set lo.cutoff=300 --set lo.gain=-6 --set hi.cutoff=5000 --set hi.gain=-6)

timed() {
    case "$1" in
        graph) "$detent" render "$work/long.wav" -o "$work/out.wav" --graph "$work/parallel.json" --quiet --force ;;
        chain) "$detent" render "$work/long.wav" -o "$work/out.wav" --plugin lo=builtin --plugin hi=builtin "${settings[@]}" \
                   --quiet --force ;;
    esac
}
# The graph equals its branches summed (checked once, outside the timing).
"$detent" render "$work/long.wav" -o "$work/lo.wav" --set cutoff=300 --set gain=-6 --subtype float --quiet
"$detent" render "$work/long.wav" -o "$work/hi.wav" --set cutoff=5000 --set gain=-6 --subtype float --quiet
"$detent" render "$work/long.wav" -o "$work/graph.wav" --graph "$work/parallel.json" --subtype float --quiet
difference=$(sox -m -v 1 "$work/lo.wav" -v 1 "$work/hi.wav" -v -1 "$work/graph.wav" -n stats 2>&1 | awk '/Max level/ { print $3 }')

time_rounds "$rounds" graph chain
echo
echo "A graph of two parallel built-ins against the same two in series, 10-minute 32-bit float stereo file:"
echo "  max |graph − (lo + hi rendered apart)|  $difference"
awk -v g="$median_graph" -v c="$median_chain" -v r="$rounds" 'BEGIN {
    printf "  graph %6.3f s   chain %6.3f s   %5.2f×   (median of %d rotating rounds; goal ≤ 1.20×)\n", g / 1e6, c / 1e6, g / c, r
}'
