#!/usr/bin/env bash
# One plug-in in every format: the cost of the same Zam plug-ins through Detent as LV2 (the
# reference), CLAP, VST3 and VST2, side by side in one run, and the listing's time with its
# index against lilv's own `lv2ls`.
#
#   a. render: float noise (mono for the mono plug-ins, stereo for the others) at 48 kHz
#      through each build of ZamComp, ZamEQ2, ZamTube, ZamDelay and ZaMultiCompX2, `detent
#      render --quiet --in-process` at their defaults, 1 s and 121 s of it. The processing is
#      the difference of the two (120 s of audio); the start, the 1 s render (finding the
#      plug-in, making it). Each format's processing / the LV2 build's is the figure (the goal:
#      ≤ 1.05: a format's host code costs nothing next to the plug-in's own work, which is the
#      same code in every format).
#   b. listing: `detent plugins` (every format, 900-odd plug-ins, from the index) against
#      `lv2ls` (LV2 alone, lilv reading every bundle's description). The goal: ≤ 0.3 s.
#
# Each figure is the median of ROUNDS runs, the names' order rotating from round to round.
# The figures are the package's goals, not assertions: the script exits 0 once it has measured.
#
# Usage: Benchmarks/formats-vs-lv2.sh [ROUNDS]      (default 5; about two minutes on 2 cores)
# Needs: sox, lilv-utils (lv2ls), the plug-in packages Scripts/setup installs.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"
source Benchmarks/common.sh

# The index, filled before anything is timed.
"$detent" plugins > /dev/null

for length in 1 121; do
    sox -n -r 48000 -c 1 -b 32 -e floating-point "$work/mono-$length.wav" synth $length whitenoise vol 0.3 2> /dev/null
    sox -n -r 48000 -c 2 -b 32 -e floating-point "$work/stereo-$length.wav" synth $length whitenoise vol 0.3 2> /dev/null
done

# The LV2 identifier of a Zam plug-in (its URI), from the listing.
lv2_of() {
    "$detent" plugins --json --format lv2 "$1" | python3 -c '
import json, sys
name = sys.argv[1]
print(next(o["identifier"] for o in map(json.loads, sys.stdin) if o["name"] == name))' "$1"
}

declare -A reference=() input=()
plugins=(ZamComp ZamEQ2 ZamTube ZamDelay ZaMultiCompX2)
for p in "${plugins[@]}"; do
    reference[$p]=$(lv2_of "$p")
    channels=$("$detent" plugins --json --format lv2 "$p" | python3 -c '
import json, sys
print(next(o["audioInputs"] for o in map(json.loads, sys.stdin) if o["name"] == sys.argv[1]))' "$p")
    input[$p]=$([ "$channels" = 1 ] && echo mono || echo stereo)
done

# NAME is LENGTH-FORMAT-PLUGIN.
timed() {
    local length=${1%%-*} rest=${1#*-}
    local format=${rest%%-*} plugin=${rest#*-} id
    case $format in
        lv2) id=${reference[$plugin]} ;;
        *) id="$format:$plugin" ;;
    esac
    "$detent" render "$work/${input[$plugin]}-$length.wav" -o "$work/out.wav" --quiet --force --in-process --plugin "$id"
}

names=()
for p in "${plugins[@]}"; do for f in lv2 clap vst3 vst2; do names+=("1-$f-$p" "121-$f-$p"); done; done
time_rounds "$rounds" "${names[@]}"

# processing FORMAT PLUGIN: the median 121 s render less the median 1 s one, in microseconds.
processing() { echo "$(eval echo "\$median_121_$1_$2") - $(eval echo "\$median_1_$1_$2")" | bc; }

echo
echo "a. 120 s of processing through each build, median of $rounds (format / LV2; goal ≤ 1.05); the start (a 1 s render) beside it"
printf '%-15s %9s %9s %9s %9s   %s\n' plugin "LV2 (s)" CLAP VST3 VST2 "start (ms): LV2 CLAP VST3 VST2"
for p in "${plugins[@]}"; do
    base=$(processing lv2 "$p")
    row=$(printf '%-15s %9.3f' "$p" "$(echo "$base / 1000000" | bc -l)")
    for f in clap vst3 vst2; do
        row+=$(printf ' %8.3f×' "$(echo "$(processing $f "$p") / $base" | bc -l)")
    done
    row+="  "
    for f in lv2 clap vst3 vst2; do row+=$(printf ' %5.0f' "$(echo "$(eval echo "\$median_1_${f}_$p") / 1000" | bc -l)"); done
    echo "$row"
done

timed() {
    case $1 in
        detent) "$detent" plugins > /dev/null ;;
        lv2ls) lv2ls > /dev/null ;;
    esac
}
time_rounds "$rounds" detent lv2ls
echo
echo "b. listing, median of $rounds (goal ≤ 0.3 s)"
printf 'detent plugins (every format, from the index)  %.3f s\n' "$(echo "$median_detent / 1000000" | bc -l)"
printf 'lv2ls (LV2 alone)                              %.3f s   ratio %.2f×\n' \
    "$(echo "$median_lv2ls / 1000000" | bc -l)" "$(echo "$median_detent / $median_lv2ls" | bc -l)"
