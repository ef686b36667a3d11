#!/usr/bin/env bash
# A chain of three LV2 plug-ins in one `detent live` client against the same three plug-ins
# in three jalv clients connected in series: mda's Overdrive, x42's dynamic range compressor
# (darc, stereo) and swh's DJ EQ, all at their defaults, each subject alone on the same
# private JACK server (dummy driver, 48 kHz, 256 frames, stereo), fed jack_simple_client's
# sine. Three runs a round: the sine alone ("baseline"), Detent hosting the chain ("chain")
# and the three jalv ("jalv-x3", measured together: the sum of their CPU times). Prints the
# server's DSP load (jack_cpu_load) and the clients' own CPU time, and the ratios
# chain / jalv-x3.
#
#   Benchmarks/live-chain-vs-jalv.sh [seconds per run] [rounds]      (defaults 5 and 3)
#
# Needs jackd2 (Scripts/setup installs it), jalv, mda-lv2, x42-plugins and swh-lv2
# (installed here when missing). The runs alternate within each round, the order rotating
# from round to round so a machine that gets busier or quieter affects all alike; the
# summary takes medians over the rounds.
set -euo pipefail
cd "$(dirname "$0")/.."

# `live_chain_needs`, `live_session`, `start`, `start_jack`, `start_subject`, `stop_subject`,
# `wait_for_port`, `cpu_seconds`.
source Benchmarks/live-common.sh
live_chain_needs
# `detent` (release build), `work`, `median`.
source Benchmarks/common.sh
live_session

seconds=${1:-5}
rounds=${2:-3}
# The stages in order: URI, then jalv's JACK ports (symbols) in and out, left then right.
# Detent names their slots overdrive, darc-stereo and dj_eq (see `detent params --plugin …`).
plugins=(
    "http://drobilla.net/plugins/mda/Overdrive left_in right_in left_out right_out"
    "http://gareus.org/oss/lv2/darc#stereo inL inR outL outR"
    "http://plugin.org.uk/swh-plugins/dj_eq left_input right_input left_output right_output"
)

start_jack "detent-chain-$$" 256
# The signal: jack_simple_client's sine, on both its outputs (it also feeds system:playback).
start jack_simple_client >/dev/null 2>&1
wait_for_port jack_simple_client:output2

# CPU seconds the given processes have used so far, together.
cpu_total() {
    local p
    for p in "$@"; do cpu_seconds "$p"; echo; done | awk '{ s += $1 } END { printf "%.6f", s }'
}

# Runs one subject: starts its client(s), connects the sine into the first stage (and, for
# jalv, each stage into the next), measures, stops them. Sets `result_load` (server DSP load,
# %: mean and quietest second) and `result_cpu` (the subject's CPU time, all its processes,
# % of one core).
measure() {
    local kind=$1 pid="" subject=() i uri in_l in_r out_l out_r stage
    local from=(jack_simple_client:output1 jack_simple_client:output2)
    case $kind in
        chain)
            local args=()
            for i in "${!plugins[@]}"; do args+=(--plugin "${plugins[i]%% *}"); done
            start_subject "$detent" live --headless --channels 2 --name subject "${args[@]}"
            subject=("$pid")
            wait_for_port subject:in_2
            jack_connect "${from[0]}" subject:in_1
            jack_connect "${from[1]}" subject:in_2 ;;
        jalv-x3)
            for i in "${!plugins[@]}"; do
                read -r uri in_l in_r out_l out_r <<<"${plugins[i]}"
                stage="stage$((i + 1))"
                start_subject jalv -n "$stage" "$uri"
                subject+=("$pid")
                wait_for_port "$stage:$in_r"
                jack_connect "${from[0]}" "$stage:$in_l"
                jack_connect "${from[1]}" "$stage:$in_r"
                from=("$stage:$out_l" "$stage:$out_r")
            done ;;
    esac
    ((${#subject[@]})) && sleep 1  # settle
    local before=0 after=0 load
    ((${#subject[@]})) && before=$(cpu_total "${subject[@]}")
    load=$(server_load)
    ((${#subject[@]})) && after=$(cpu_total "${subject[@]}")
    # The subject's processes are the last of `pids`: stop them newest first.
    for ((i = ${#subject[@]} - 1; i >= 0; i--)); do
        pid=${subject[i]}
        stop_subject
    done
    result_load=$load
    result_cpu=$(awk -v a="$after" -v b="$before" -v s="$seconds" 'BEGIN { printf "%.3f", 100 * (a - b) / s }')
}

declare -A mean=() quiet=() cpu=() ml=() mq=() mc=()
kinds=(baseline chain jalv-x3)
for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < ${#kinds[@]}; k++)); do
        kind=${kinds[$(((r + k) % ${#kinds[@]}))]}
        measure "$kind"
        read -r m q <<<"$result_load"
        mean[$kind]+="$m " quiet[$kind]+="$q " cpu[$kind]+="$result_cpu "
        echo "round $((r + 1))/$rounds  $kind: server DSP load $m % (quietest second $q %), client CPU $result_cpu %" >&2
    done
done

for kind in "${kinds[@]}"; do
    ml[$kind]=$(echo "${mean[$kind]}" | median)
    mq[$kind]=$(echo "${quiet[$kind]}" | median)
    mc[$kind]=$(echo "${cpu[$kind]}" | median)
done
printf '\nOverdrive > darc > dj_eq, 48 kHz, 256 frames, stereo, %s s per run, medians of %s rounds\n' "$seconds" "$rounds"
printf '%-36s %10s %10s %10s\n' "" baseline chain jalv-x3
printf '%-36s %10.3f %10.3f %10.3f\n' "server DSP load, mean (%)" "${ml[baseline]}" "${ml[chain]}" "${ml[jalv-x3]}"
printf '%-36s %10.3f %10.3f %10.3f\n' "server DSP load, quietest second (%)" "${mq[baseline]}" "${mq[chain]}" "${mq[jalv-x3]}"
printf '%-36s %10s %10.3f %10.3f\n' "client CPU time (% of one core)" "" "${mc[chain]}" "${mc[jalv-x3]}"
awk -v lb="${ml[baseline]}" -v lc="${ml[chain]}" -v lj="${ml[jalv-x3]}" \
    -v qb="${mq[baseline]}" -v qc="${mq[chain]}" -v qj="${mq[jalv-x3]}" \
    -v cc="${mc[chain]}" -v cj="${mc[jalv-x3]}" 'BEGIN {
    if (lj > 0) printf "chain / jalv-x3, server DSP load, mean: %.2f\n", lc / lj
    if (qj > 0) printf "chain / jalv-x3, server DSP load, quietest second: %.2f\n", qc / qj
    if (qj > qb && qc > qb) printf "chain / jalv-x3, quietest second above baseline: %.2f\n", (qc - qb) / (qj - qb)
    if (cj > 0) printf "chain / jalv-x3, client CPU time: %.2f\n", cc / cj
}'
