#!/usr/bin/env bash
# What isolation costs live: a chain of three LV2 plug-ins (mda's Overdrive, x42's darc, swh's
# DJ EQ, at their defaults) in one `detent live` client, in process and with --isolate (each
# plug-in in a process of its own, woken and waited for every period), each alone on the same
# private JACK server (dummy driver, 48 kHz, stereo) fed jack_simple_client's sine, at 256 and
# at 64 frames a period. For each: the server's DSP load, the CPU time of Detent and its slot
# processes together (% of one core), and the xruns Detent counted; then the ratios
# isolated / in-process. The runs alternate within each round, the order rotating from
# round to round; the summary takes medians over the rounds.
#
#   Benchmarks/live-isolation-cost.sh [seconds per run] [rounds]      (defaults 10 and 3)
#
# Needs jackd2, mda-lv2, x42-plugins and swh-lv2 (Scripts/setup installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

# `live_chain_needs`, `live_session`, `start`, `start_jack`, `stop_subject`, `wait_for_port`,
# `cpu_seconds`, `server_load`.
source Benchmarks/live-common.sh
live_chain_needs
# `detent` (release build), `work`, `median`.
source Benchmarks/common.sh
live_session

seconds=${1:-10}
rounds=${2:-3}
plugins=(--plugin http://drobilla.net/plugins/mda/Overdrive --plugin "http://gareus.org/oss/lv2/darc#stereo"
         --plugin http://plugin.org.uk/swh-plugins/dj_eq)

# CPU seconds a process and its children (the slot processes) have used so far.
cpu_family() {
    local p
    for p in "$1" $(pgrep -P "$1" || true); do cpu_seconds "$p"; echo; done | awk '{ s += $1 } END { printf "%.6f", s }'
}

# jack_connect, tried again when its own client cannot open at once (a busy server).
connect() {
    for _ in $(seq 20); do jack_connect "$1" "$2" 2>/dev/null && return 0; sleep 0.1; done
    echo "$bench: cannot connect $1 to $2" >&2
    exit 1
}

# Runs one subject (in-process or isolated) on the current server: sets `result_load`
# ("MEAN QUIETEST" DSP load, %), `result_cpu` (% of one core) and `result_xruns`.
measure() {
    local kind=$1 out="$work/out.$1" flags=()
    [ "$kind" = isolated ] && flags=(--isolate)
    "$detent" live --headless --json --channels 2 --name subject "${flags[@]}" "${plugins[@]}" \
        <"$work/commands" >"$out" 2>/dev/null &
    pid=$!
    pids+=("$pid")
    wait_for_port subject:in_2
    connect jack_simple_client:output1 subject:in_1
    connect jack_simple_client:output2 subject:in_2
    sleep 2  # settle: plug-ins made, slot processes started, first periods behind
    local before after
    before=$(cpu_family "$pid")
    result_load=$(server_load)
    after=$(cpu_family "$pid")
    echo status >&3
    sleep 0.5
    result_xruns=$(tail -n 1 "$out" | sed -n 's/.*"xruns":\([0-9]*\).*/\1/p')
    stop_subject
    # Gone from the server before the next subject takes its name.
    for _ in $(seq 100); do jack_lsp 2>/dev/null | grep -qx subject:in_1 || break; sleep 0.05; done
    result_cpu=$(awk -v a="$after" -v b="$before" -v s="$seconds" 'BEGIN { printf "%.3f", 100 * (a - b) / s }')
}

for frames in ${BENCH_FRAMES:-256 64}; do
    start_jack "detent-isolation-$$-$frames" "$frames"
    start jack_simple_client >/dev/null 2>&1
    wait_for_port jack_simple_client:output2
    declare -A load=() quiet=() cpu=() xruns=()
    kinds=(in-process isolated)
    for ((r = 0; r < rounds; r++)); do
        for ((k = 0; k < ${#kinds[@]}; k++)); do
            kind=${kinds[$(((r + k) % ${#kinds[@]}))]}
            measure "$kind"
            read -r m q <<<"$result_load"
            load[$kind]+="$m " quiet[$kind]+="$q " cpu[$kind]+="$result_cpu " xruns[$kind]+="${result_xruns:-0} "
            echo "$frames frames, round $((r + 1))/$rounds, $kind: DSP load $m % (quietest second $q %), CPU $result_cpu %, xruns ${result_xruns:-?}" >&2
        done
    done
    printf '\nOverdrive > darc > dj_eq, 48 kHz, %s frames, stereo, %s s per run, medians of %s rounds\n' "$frames" "$seconds" "$rounds"
    printf '%-40s %12s %12s\n' "" in-process isolated
    for row in "server DSP load, mean (%):load" "server DSP load, quietest second (%):quiet" \
               "Detent and slots, CPU (% of one core):cpu" "xruns:xruns"; do
        label=${row%%:*} name=${row##*:}
        declare -n values=$name
        printf '%-40s %12s %12s\n' "$label" "$(echo "${values[in-process]}" | median)" "$(echo "${values[isolated]}" | median)"
        unset -n values
    done
    awk -v a="$(echo "${cpu[isolated]}" | median)" -v b="$(echo "${cpu[in-process]}" | median)" 'BEGIN {
        printf "isolated - in-process, CPU: %+.2f %% of one core", a - b
        if (b > 0) printf " (ratio %.2f)", a / b
        printf "\n"
    }'
    # This server and its sine go before the next period size's.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; wait "${pids[i]}" 2>/dev/null || true; done
    pids=()
    unset load quiet cpu xruns
done
