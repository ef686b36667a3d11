#!/usr/bin/env bash
# What isolation costs live, against what it cannot cost less than. A chain of three LV2
# plug-ins (mda's Overdrive, x42's darc, swh's DJ EQ, at their defaults) in one `detent live`
# client, three ways: in process; with --isolate (each plug-in in a process of its own, woken
# and waited for every period); and with --isolate=together (all three in one process, woken
# and waited for once a period). Each runs alone on the same private JACK server (dummy
# driver, 48 kHz, stereo) fed jack_simple_client's sine, at 256 and at 64 frames a period.
# For each: the server's DSP load, the CPU time of Detent and its slot processes together
# (% of one core) and the xruns Detent counted. Beside them, in the same rounds and so under
# the same conditions, the floor: Benchmarks/futex-floor.c (compiled here), two bare
# processes that make one futex round trip a period and nothing else, for the same seconds
# at the same period; their CPU (% of one core, the waker's own wake-up from its timer
# included) is what one wake-and-answer a period costs. The runs alternate within each
# round, the order rotating from round to round; the summary takes medians over the rounds
# and gives the extra CPU of each isolation over in process, in points of a core and in
# floor round trips (for --isolate, per slot and period).
#
# A subject that cannot start (`detent live` ends before its ports appear: say, a Detent
# without --isolate=together) is reported once with the reason and left out of every later
# round; its column reads n/a.
#
#   Benchmarks/live-isolation-cost.sh [seconds per run] [rounds]      (defaults 10 and 3)
#   BENCH_FRAMES="128" Benchmarks/live-isolation-cost.sh …             (other period sizes)
#
# Needs jackd2, mda-lv2, x42-plugins and swh-lv2 (Scripts/setup installs them) and a C
# compiler (cc, or CC).
set -euo pipefail
cd "$(dirname "$0")/.."

# `live_chain_needs`, `live_session`, `start`, `start_jack`, `stop_subject`, `wait_for_port`,
# `cpu_seconds`, `server_load`.
source Benchmarks/live-common.sh
live_chain_needs
# `detent` (release build), `work`, `median`.
source Benchmarks/common.sh
live_session
"${CC:-cc}" -O2 -o "$work/futex-floor" Benchmarks/futex-floor.c

seconds=${1:-10}
rounds=${2:-3}
plugins=(--plugin http://drobilla.net/plugins/mda/Overdrive --plugin "http://gareus.org/oss/lv2/darc#stereo"
         --plugin http://plugin.org.uk/swh-plugins/dj_eq)
slots=$((${#plugins[@]} / 2))
subjects=(in-process isolated together)
# Subjects that could not start, with why: left out from then on.
declare -A failed=()

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

# Waits for the subject `pid`'s port PORT, as wait_for_port does; fails (status 1) if the
# subject ends first.
wait_for_subject() {
    for _ in $(seq 200); do
        jack_lsp 2>/dev/null | grep -x "$1" >/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.05
    done
    echo "$bench: port $1 did not appear" >&2
    exit 1
}

# Runs one subject (in-process, isolated or together) on the current server: sets
# `result_load` ("MEAN QUIETEST" DSP load, %), `result_cpu` (% of one core) and
# `result_xruns`. A subject that ends before its ports appear goes into `failed` instead,
# with the first line it wrote on stderr.
measure() {
    local kind=$1 out="$work/out.$1" err="$work/err.$1" flags=() status=0
    case $kind in
        isolated) flags=(--isolate) ;;
        together) flags=(--isolate=together) ;;
    esac
    "$detent" live --headless --json --channels 2 --name subject "${flags[@]}" "${plugins[@]}" \
        <"$work/commands" >"$out" 2>"$err" &
    pid=$!
    pids+=("$pid")
    if ! wait_for_subject subject:in_2; then
        wait "$pid" || status=$?
        unset 'pids[${#pids[@]}-1]'
        failed[$kind]="detent live ${flags[*]} did not start (exit status $status): $(grep -m 1 . "$err" || echo "nothing said")"
        echo "$bench: $kind (n/a from now on): ${failed[$kind]}" >&2
        return 0
    fi
    connect jack_simple_client:output1 subject:in_1
    connect jack_simple_client:output2 subject:in_2
    sleep 2  # settle: plug-ins made, slot processes started, first periods behind
    local before after
    before=$(cpu_family "$pid")
    result_load=$(server_load)
    after=$(cpu_family "$pid")
    if ! kill -0 "$pid" 2>/dev/null; then
        echo "$bench: $kind: detent live ended during its run: $(grep -m 1 . "$err" || echo "nothing said")" >&2
        exit 1
    fi
    echo status >&3
    sleep 0.5
    result_xruns=$(tail -n 1 "$out" | sed -n 's/.*"xruns":\([0-9]*\).*/\1/p')
    stop_subject
    # Gone from the server before the next subject takes its name.
    for _ in $(seq 100); do jack_lsp 2>/dev/null | grep -qx subject:in_1 || break; sleep 0.05; done
    result_cpu=$(awk -v a="$after" -v b="$before" -v s="$seconds" 'BEGIN { printf "%.3f", 100 * (a - b) / s }')
}

# Runs the futex floor for `seconds` at `frames` a period: sets `result_cpu` (% of one core)
# and `result_trip` (µs of CPU per round trip).
measure_floor() {
    local line
    line=$("$work/futex-floor" "$frames" "$seconds")
    result_cpu=$(sed -n 's/.*cpu_percent=\([0-9.]*\).*/\1/p' <<<"$line")
    result_trip=$(sed -n 's/.*us_per_round_trip=\([0-9.]*\).*/\1/p' <<<"$line")
    if [ -z "$result_cpu" ] || [ -z "$result_trip" ]; then
        echo "$bench: futex-floor said: $line" >&2
        exit 1
    fi
}

# The median of a subject's figures (words), or n/a when it has none.
median_of() { if [ -n "$1" ]; then echo "$1" | median; else echo n/a; fi; }

for frames in ${BENCH_FRAMES:-256 64}; do
    start_jack "detent-isolation-$$-$frames" "$frames"
    start jack_simple_client >/dev/null 2>&1
    wait_for_port jack_simple_client:output2
    declare -A load=() quiet=() cpu=() xruns=()
    floor_cpu="" floor_trip=""
    kinds=("${subjects[@]}" floor)
    for ((r = 0; r < rounds; r++)); do
        for ((k = 0; k < ${#kinds[@]}; k++)); do
            kind=${kinds[$(((r + k) % ${#kinds[@]}))]}
            if [ "$kind" = floor ]; then
                measure_floor
                floor_cpu+="$result_cpu " floor_trip+="$result_trip "
                echo "$frames frames, round $((r + 1))/$rounds, floor: CPU $result_cpu %, $result_trip µs per round trip" >&2
                continue
            fi
            [ -n "${failed[$kind]:-}" ] && continue
            measure "$kind"
            [ -n "${failed[$kind]:-}" ] && continue
            read -r m q <<<"$result_load"
            load[$kind]+="$m " quiet[$kind]+="$q " cpu[$kind]+="$result_cpu " xruns[$kind]+="${result_xruns:-0} "
            echo "$frames frames, round $((r + 1))/$rounds, $kind: DSP load $m % (quietest second $q %), CPU $result_cpu %, xruns ${result_xruns:-?}" >&2
        done
    done
    printf '\nOverdrive > darc > dj_eq, 48 kHz, %s frames, stereo, %s s per run, medians of %s rounds\n' "$frames" "$seconds" "$rounds"
    printf '%-40s %12s %12s %12s\n' "" "${subjects[@]}"
    for row in "server DSP load, mean (%):load" "server DSP load, quietest second (%):quiet" \
               "Detent and slots, CPU (% of one core):cpu" "xruns:xruns"; do
        label=${row%%:*} name=${row##*:}
        declare -n values=$name
        printf '%-40s' "$label"
        for kind in "${subjects[@]}"; do printf ' %12s' "$(median_of "${values[$kind]:-}")"; done
        printf '\n'
        unset -n values
    done
    awk -v p="$(median_of "${cpu[in-process]:-}")" -v i="$(median_of "${cpu[isolated]:-}")" \
        -v t="$(median_of "${cpu[together]:-}")" -v f="$(median_of "$floor_cpu")" \
        -v u="$(median_of "$floor_trip")" -v slots="$slots" '
        function trips(points) { return f > 0 ? sprintf("%.2f", points / f) : "n/a" }
        BEGIN {
            if (p == "n/a" || i == "n/a") print "isolated - in-process: n/a"
            else printf "isolated - in-process: %+.2f points of a core; per slot per period: %s floor round trips\n", i - p, trips((i - p) / slots)
            if (p == "n/a" || t == "n/a") print "together - in-process: n/a"
            else printf "together - in-process: %+.2f points of a core (%s floor round trips per period)\n", t - p, trips(t - p)
            printf "floor: one futex round trip a period costs %.2f points of a core (%.2f µs of CPU per round trip)\n", f, u
        }'
    # This server and its sine go before the next period size's.
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null || true; wait "${pids[i]}" 2>/dev/null || true; done
    pids=()
    unset load quiet cpu xruns
done
