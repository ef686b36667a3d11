#!/usr/bin/env bash
# A shard of a long manifest: 100 jobs (0.05 s mono files through the built-in) out of
# manifests of 100,000 and 1,000,000 lines, `--shard 0/N` with N chosen so that the shard owns
# 100 jobs of each. The difference between the two, over the 900,000 lines more, is the cost
# of a line another shard renders; `wc -l` over the longer manifest, in the same rounds, is
# the floor of reading it at all.
#
# Usage: Benchmarks/manifest-shard.sh [ROUNDS]      (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"

source Benchmarks/common.sh

sox -R -n -r 48000 -c 1 "$work/one.wav" synth 0.05 sine 440
for lines in 100000 1000000; do
    awk -v n="$lines" 'BEGIN { for (i = 0; i < n; i++) printf "{\"input\": \"one.wav\", \"output\": \"out/%07d.wav\", \"set\": [\"cutoff=%d\"]}\n", i, 200 + i % 5000 }' \
        >"$work/jobs-$lines.jsonl"
done

declare -A rss=()
timed() {
    local command
    rm -rf "$work/out"
    case "$1" in
        short) command=("$detent" render --manifest "$work/jobs-100000.jsonl" --shard 0/1000 --quiet) ;;
        long) command=("$detent" render --manifest "$work/jobs-1000000.jsonl" --shard 0/10000 --quiet) ;;
        wc) command=(wc -l "$work/jobs-1000000.jsonl") ;;
    esac
    /usr/bin/time -f %M -o "$work/rss" "${command[@]}" >/dev/null
    local kb
    kb=$(tail -n 1 "$work/rss")
    if (( kb > ${rss[$1]:-0} )); then rss[$1]=$kb; fi
}
time_rounds "$rounds" short long wc

printf '%-34s %10s %10s\n' "" "median ms" "max MB"
awk -v us="$median_short" -v kb="${rss[short]}" 'BEGIN { printf "%-34s %10.1f %10.1f\n", "100 jobs of 100,000 lines", us / 1000, kb / 1024 }'
awk -v us="$median_long" -v kb="${rss[long]}" 'BEGIN { printf "%-34s %10.1f %10.1f\n", "100 jobs of 1,000,000 lines", us / 1000, kb / 1024 }'
awk -v us="$median_wc" -v kb="${rss[wc]}" 'BEGIN { printf "%-34s %10.1f %10.1f\n", "wc -l of 1,000,000 lines", us / 1000, kb / 1024 }'
awk -v a="$median_short" -v b="$median_long" -v w="$median_wc" \
    'BEGIN { printf "per line of another shard: %.3f us (goal <= 2); the long shard / wc -l: %.2fx\n", (b - a) / 900000, b / w }'
