#!/usr/bin/env bash
# Idle CPU of a host whose plug-in has an LV2 worker: `detent live --plugin` against jalv
# with the same plug-in (LSP's Artistic Delay, mono, whose worker allocates its delay lines),
# each alone on the same private JACK server (dummy driver, 48 kHz, 256 frames), inputs left
# unconnected and controls untouched, so the plug-in never asks its worker for anything.
# The figure is each process's CPU time (all its threads) over the run, in % of one core, and
# the ratio detent / jalv; Detent's worker thread (`lv2-worker`) is also shown alone, with
# how often it woke (voluntary context switches).
#
#   Benchmarks/idle-worker-vs-jalv.sh [seconds per run] [rounds]      (defaults 10 and 5)
#
# Needs jackd2 (Scripts/setup installs it), lsp-plugins-lv2 and jalv (installed here when
# missing). The subjects alternate within each round, the order rotating from round to
# round; the summary takes medians over the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."

# `live_needs`, `live_session`, `start_jack`, `start_subject`, `stop_subject`, `wait_for_port`.
source Benchmarks/live-common.sh
live_needs lsp-plugins-lv2 /usr/lib/lv2/lsp-plugins.lv2
# `detent` (release build), `work`, `median`.
source Benchmarks/common.sh
live_session

seconds=${1:-10}
rounds=${2:-5}
plugin="http://lsp-plug.in/plugins/lv2/art_delay_mono"
start_jack "detent-idle-$$" 256

# CPU nanoseconds the given threads have used so far (schedstat's first field: time on a CPU).
cpu_ns() { cat "$@" 2>/dev/null | awk '{ s += $1 } END { printf "%d", s }'; }
# Voluntary context switches of the given threads so far (each one a sleep that blocked).
sleeps() { cat "$@" 2>/dev/null | awk '/^voluntary_ctxt_switches/ { s += $2 } END { printf "%d", s }'; }
# The task folders of PID's threads called NAME.
threads_named() { grep -lx "$2" /proc/"$1"/task/*/comm 2>/dev/null | xargs -r -n1 dirname; }

# Runs one subject for `seconds` once it has settled. Sets `result_cpu` (the process, % of
# one core), and for detent `result_worker` (its lv2-worker thread, %) and `result_wakes`
# (the worker's wake-ups per second).
measure() {
    local kind=$1 pid port
    case $kind in
        detent)
            start_subject "$detent" live --headless --channels 1 --name subject --plugin "$plugin"
            port=subject:in_1 ;;
        jalv)
            start_subject jalv -n subject "$plugin"
            port=subject:in ;;
    esac
    wait_for_port "$port"
    sleep 1  # settle: start-up work (and any first worker request) is over
    local worker=()
    [ "$kind" = detent ] && mapfile -t worker < <(threads_named "$pid" lv2-worker)
    if [ "$kind" = detent ] && [ ${#worker[@]} -ne 1 ]; then
        echo "$bench: detent has ${#worker[@]} lv2-worker threads, not 1" >&2
        exit 1
    fi
    local before after wbefore wafter sbefore safter
    before=$(cpu_ns /proc/"$pid"/task/*/schedstat)
    [ "$kind" = detent ] && { wbefore=$(cpu_ns "${worker[0]}/schedstat"); sbefore=$(sleeps "${worker[0]}/status"); }
    sleep "$seconds"
    after=$(cpu_ns /proc/"$pid"/task/*/schedstat)
    [ "$kind" = detent ] && { wafter=$(cpu_ns "${worker[0]}/schedstat"); safter=$(sleeps "${worker[0]}/status"); }
    stop_subject
    result_cpu=$(awk -v a="$after" -v b="$before" -v s="$seconds" 'BEGIN { printf "%.4f", 100 * (a - b) / 1e9 / s }')
    if [ "$kind" = detent ]; then
        result_worker=$(awk -v a="$wafter" -v b="$wbefore" -v s="$seconds" 'BEGIN { printf "%.4f", 100 * (a - b) / 1e9 / s }')
        result_wakes=$(awk -v a="$safter" -v b="$sbefore" -v s="$seconds" 'BEGIN { printf "%.1f", (a - b) / s }')
    fi
}

declare -A cpu=()
worker_cpu="" worker_wakes=""
subjects=(detent jalv)
for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#subjects[@]}; k++)); do
        kind=${subjects[$(((r + k) % ${#subjects[@]}))]}
        measure "$kind"
        cpu[$kind]+="$result_cpu "
        line="round $((r + 1))/$rounds  $kind: $result_cpu % of a core"
        if [ "$kind" = detent ]; then
            worker_cpu+="$result_worker "
            worker_wakes+="$result_wakes "
            line+=" (lv2-worker $result_worker %, $result_wakes wake-ups/s)"
        fi
        echo "$line" >&2
    done
done

d=$(echo "${cpu[detent]}" | median)
j=$(echo "${cpu[jalv]}" | median)
w=$(echo "$worker_cpu" | median)
wk=$(echo "$worker_wakes" | median)
printf '\nIdle, %s, 48 kHz, 256 frames, %s s per run, medians of %s rounds\n' "${plugin##*/}" "$seconds" "$rounds"
printf '%-40s %10s\n' "detent live --plugin (% of one core)" "$d"
printf '%-40s %10s\n' "  its lv2-worker thread (% of one core)" "$w"
printf '%-40s %10s\n' "  its lv2-worker thread (wake-ups / s)" "$wk"
printf '%-40s %10s\n' "jalv (% of one core)" "$j"
awk -v d="$d" -v j="$j" 'BEGIN { if (j > 0) printf "detent / jalv, idle CPU: %.2f\n", d / j }'
