#!/usr/bin/env bash
# What rendering through plug-ins in worker processes costs: a batch of 200 one-second files
# through one LADSPA plug-in (swh's Butterworth lowpass, cheap per sample, so the host's own
# costs show), rendered as Detent renders it (each batch thread's jobs in a worker process,
# so that a plug-in that crashes fails its file alone) and with the hidden --in-process (the
# plug-in in Detent's own process, as before), side by side in rotating rounds; medians.
#
#   detent render 200 × 1 s files --out-dir OUT --force --plugin ladspa:1903 …
#
# Usage: Benchmarks/plugin-isolation-cost.sh [ROUNDS]      (default 7)
# Needs: sox, swh-plugins (Scripts/setup installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-7}"

source Benchmarks/common.sh
export LADSPA_PATH=/usr/lib/ladspa

echo "making the batch (200 one-second stereo files)…" >&2
mkdir -p "$work/in" "$work/out"
sox -R -n -r 48000 -c 2 -b 24 "$work/one.wav" synth 1 whitenoise vol 0.5
for i in $(seq -w 1 200); do cp "$work/one.wav" "$work/in/take$i.wav"; done

export detent work
render() {
    "$detent" render "$work"/in/*.wav --out-dir "$work/out" --force --quiet --plugin ladspa:1903 \
        --set cutoff_frequency=800 --set resonance=0.755 "$@"
}
run_isolated() { render; }
run_in-process() { render --in-process; }
# Each call's CPU time (user + system, every process of the batch) goes to cpu-NAME.
timed() { /usr/bin/time -f "%U %S" -a -o "$work/cpu-$1" bash -c "$(declare -f render run_$1); run_$1" > /dev/null 2>&1; }
cpu() { awk '{ print $1 + $2 }' "$work/cpu-$1" | median; }

time_rounds "$rounds" isolated in-process
cpu_isolated=$(cpu isolated)
cpu_in_process=$(cpu in-process)
echo "| batch of 200 × 1 s through ladspa:1903 | wall time | CPU time |"
echo "|---|---|---|"
printf "| plug-ins in worker processes (the default) | %.2f s | %.2f s |\n" \
    "$(echo "$median_isolated / 1000000" | bc -l)" "$cpu_isolated"
printf "| plug-in in Detent's process (--in-process) | %.2f s | %.2f s |\n" \
    "$(echo "$median_in_process / 1000000" | bc -l)" "$cpu_in_process"
printf "| worker processes / in process | %.3f× | %.3f× |\n" \
    "$(echo "$median_isolated / $median_in_process" | bc -l)" "$(echo "$cpu_isolated / $cpu_in_process" | bc -l)"
