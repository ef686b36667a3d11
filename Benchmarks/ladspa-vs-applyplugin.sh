#!/usr/bin/env bash
# Renders through LADSPA plug-ins: Detent against ladspa-sdk's applyplugin and sox's ladspa
# effect, on the same plug-in and file, in one run (the programs take turns within each round,
# the order rotating; medians of the rounds).
#
#   detent render IN -o OUT --plugin ladspa:ID --set …
#   applyplugin IN OUT FILE.so LABEL CONTROLS…         (writes 16-bit PCM whatever it reads)
#   sox IN OUT ladspa FILE.so LABEL CONTROLS…          (writes the input's format: float)
#
# on 2 minutes of 32-bit float mono noise at 48 kHz, for swh's Butterworth lowpass (cheap per
# sample, so the hosts' own costs show) and tap's TubeWarmth (dearer per sample); and the
# lowpass on a 0.1-second file, where what each program costs to start is most of its time.
#
# Usage: Benchmarks/ladspa-vs-applyplugin.sh [ROUNDS]      (default 5)
# Needs: ladspa-sdk, sox, swh-plugins, tap-plugins (Scripts/setup installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"

source Benchmarks/common.sh
export LADSPA_PATH=/usr/lib/ladspa

echo "making the test file (2 minutes of float noise, mono)…" >&2
sox -R -n -r 48000 -c 1 -b 32 -e floating-point "$work/mono.wav" synth 120 whitenoise vol 0.5
sox -R -n -r 48000 -c 1 -b 32 -e floating-point "$work/short.wav" synth 0.1 whitenoise vol 0.5

plugin=lowpass input=mono.wav
run_detent() {
    case $plugin in
    lowpass) "$detent" render "$work/$input" -o "$work/out.wav" --quiet --plugin ladspa:1903 \
                 --set cutoff_frequency=800 --set resonance=0.755 ;;
    warmth) "$detent" render "$work/$input" -o "$work/out.wav" --quiet --plugin ladspa:2158 \
                 --set drive=5 --set tape_tube_blend=3 ;;
    esac
}
run_applyplugin() {
    case $plugin in
    lowpass) applyplugin "$work/$input" "$work/out.wav" butterworth_1902.so buttlow_iir 800 0.755 ;;
    warmth) applyplugin "$work/$input" "$work/out.wav" tap_tubewarmth.so tap_tubewarmth 5 3 ;;
    esac
}
run_sox() {
    case $plugin in
    lowpass) sox -R "$work/$input" "$work/out.wav" ladspa butterworth_1902.so buttlow_iir 800 0.755 ;;
    warmth) sox -R "$work/$input" "$work/out.wav" ladspa tap_tubewarmth.so tap_tubewarmth 5 3 ;;
    esac
}
timed() { "run_$1" > /dev/null 2>&1; }

echo "| plug-in | Detent | applyplugin | sox | Detent / applyplugin | Detent / sox |"
echo "|---|---|---|---|---|---|"
for row in lowpass:mono.wav warmth:mono.wav lowpass:short.wav; do
    plugin=${row%%:*} input=${row#*:}
    time_rounds "$rounds" detent applyplugin sox
    printf "| %s, %s | %.3f s | %.3f s | %.3f s | %.2f× | %.2f× |\n" "$plugin" \
        "$([ "$input" = mono.wav ] && echo "2 min" || echo "0.1 s")" \
        "$(echo "$median_detent / 1000000" | bc -l)" "$(echo "$median_applyplugin / 1000000" | bc -l)" \
        "$(echo "$median_sox / 1000000" | bc -l)" \
        "$(echo "$median_detent / $median_applyplugin" | bc -l)" "$(echo "$median_detent / $median_sox" | bc -l)"
done
