#!/usr/bin/env bash
# DSP load of `detent live` next to jalv running an LV2 lowpass (swh-lv2's buttlow_iir),
# each alone on the same private JACK server (dummy driver, 48 kHz, 64 frames), fed the same
# signal. Three subjects: Detent's built-in lowpass ("detent"), Detent hosting the same LV2
# plug-in as jalv ("plugin": the like-for-like comparison of two hosts), and jalv. Prints the
# server's DSP load (jack_cpu_load) and each client's own CPU time, and the ratios to jalv.
#
#   Benchmarks/live-vs-jalv.sh [seconds per run] [rounds]
#
# Needs jackd2 (Scripts/setup installs it), jalv and swh-lv2 (installed here when missing:
# jalv brings GTK and Qt, too heavy for every set-up). The runs alternate
# (baseline, detent, jalv, …) so a machine that gets busier or quieter affects all alike.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-10}
rounds=${2:-3}
plugin="http://plugin.org.uk/swh-plugins/buttlow_iir"

# `live_needs`, `live_session`, `start`, `start_jack`, `start_subject`, `stop_subject`,
# `wait_for_port`, `cpu_seconds`.
source Benchmarks/live-common.sh
live_needs swh-lv2 /usr/lib/lv2/butterworth-swh.lv2 jack_cpu_load jack_simple_client jack_connect
swift build -c release --product detent >/dev/null
detent="$(swift build -c release --show-bin-path)/detent"
work=$(mktemp -d)
live_session

start_jack "detent-bench-$$" 64
# The signal: jack_simple_client's sine (it also feeds system:playback).
start jack_simple_client >/dev/null 2>&1
wait_for_port jack_simple_client:output1

# Runs one subject: starts it, connects the sine, measures, stops it. Sets `result_load`
# (server DSP load, %: mean and quietest second) and `result_cpu` (the subject's CPU time,
# % of one core).
measure() {
    local kind=$1 pid="" port=""
    case $kind in
        detent)
            start_subject "$detent" live --headless --channels 1 --name subject
            port=subject:in_1 ;;
        plugin)
            start_subject "$detent" live --headless --channels 1 --name subject --plugin "$plugin" --set cutoff=1000
            port=subject:in_1 ;;
        jalv)
            # cutoff is a fraction of the sample rate: 1 kHz, detent's default.
            start_subject jalv -n subject -c cutoff=0.0208333 "$plugin"
            port=subject:input ;;
    esac
    if [ -n "$pid" ]; then
        wait_for_port "$port"
        jack_connect jack_simple_client:output1 "$port"
        sleep 1  # settle
    fi
    local before=0 after=0
    [ -n "$pid" ] && before=$(cpu_seconds "$pid")
    local load
    load=$(server_load)
    [ -n "$pid" ] && after=$(cpu_seconds "$pid")
    [ -n "$pid" ] && stop_subject
    result_load=$load
    result_cpu=$(awk -v a="$after" -v b="$before" -v s="$seconds" 'BEGIN { printf "%.3f", 100 * (a - b) / s }')
}

# Per round: the server's load with each subject, and each subject's CPU time. The summary
# takes medians over the rounds (one busy moment on a shared machine moves a mean a lot).
results=()
for round in $(seq "$rounds"); do
    for kind in baseline detent plugin jalv; do
        measure "$kind"
        read -r mean quietest <<<"$result_load"
        echo "round $round  $kind: server DSP load $mean % (quietest second $quietest %), client CPU $result_cpu %" >&2
        results+=("$kind $mean $quietest $result_cpu")
    done
done

printf '%s\n' "${results[@]}" | awk -v r="$rounds" '
    function median(list, n,    i, j, t, a) {
        for (i = 1; i <= n; i++) a[i] = list[i]
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    { n[$1]++; load[$1, n[$1]] = $2; quiet[$1, n[$1]] = $3; cpu[$1, n[$1]] = $4 }
    END {
        for (k in n) {
            delete l; delete q; delete c
            for (i = 1; i <= n[k]; i++) { l[i] = load[k, i]; q[i] = quiet[k, i]; c[i] = cpu[k, i] }
            ml[k] = median(l, n[k]); mq[k] = median(q, n[k]); mc[k] = median(c, n[k])
        }
        printf "\n48 kHz, 64 frames, one channel, medians of %d rounds\n", r
        printf "%-36s %10s %10s %10s %10s\n", "", "baseline", "detent", "plugin", "jalv"
        printf "%-36s %10.3f %10.3f %10.3f %10.3f\n", "server DSP load, mean (%)", ml["baseline"], ml["detent"], ml["plugin"], ml["jalv"]
        printf "%-36s %10.3f %10.3f %10.3f %10.3f\n", "server DSP load, quietest second (%)", mq["baseline"], mq["detent"], mq["plugin"], mq["jalv"]
        printf "%-36s %10s %10.3f %10.3f %10.3f\n", "client CPU time (% of one core)", "", mc["detent"], mc["plugin"], mc["jalv"]
        split("detent plugin", subjects, " ")
        for (s = 1; s <= 2; s++) {
            k = subjects[s]
            if (ml["jalv"] > 0) printf "%s / jalv, server DSP load, mean: %.2f\n", k, ml[k] / ml["jalv"]
            if (mq["jalv"] > 0) printf "%s / jalv, server DSP load, quietest second: %.2f\n", k, mq[k] / mq["jalv"]
            if (mq["jalv"] > mq["baseline"] && mq[k] > mq["baseline"])
                printf "%s / jalv, quietest second above baseline: %.2f\n", k, (mq[k] - mq["baseline"]) / (mq["jalv"] - mq["baseline"])
            if (mc["jalv"] > 0) printf "%s / jalv, client CPU time: %.2f\n", k, mc[k] / mc["jalv"]
        }
    }'
