#!/usr/bin/env bash
# Renders through LV2 plug-ins: Detent against the LV2 tools people use, in one run, and the
# cost and benefit of Detent's control smoothing.
#
# 1. Fixed controls, 2 minutes of 32-bit float stereo noise at 48 kHz:
#      detent render IN --plugin URI -o OUT      against   lv2file -i IN -o OUT URI
#    for two stereo plug-ins (mda Overdrive, x42's dynamic range compressor) and a mono one
#    (zam's EQ2) on the mono file, and against lilv's lv2apply, which hosts only plug-ins
#    that need no features (swh's Butterworth lowpass), on the mono file.
#    The tools run in turn within each round (the order rotates), medians of the rounds.
# 2. A control gliding over the whole file against the same render at fixed controls, at
#    control intervals of 8 (the default) and 32 frames, for swh's lowpass (cheap to
#    change) and LSP's 16-band graphic EQ (which recomputes its filters on every change).
# 3. Zipper: a 20 Hz → 10 kHz cutoff sweep over 2 s of noise through swh's lowpass, written
#    on Detent's grid of N frames, and stepped once per 256-frame period (what a JACK host
#    does live), each against a render whose control moves at every frame; the figure is
#    how far below the stepped render's error each grid's error lies, in dB.
# 4. The same comparisons in instructions (valgrind's callgrind, 10 s files): the same count
#    on every run whatever else the machine is doing, where wall times on a busy machine drift.
#
# Usage: Benchmarks/plugins-vs-lv2file.sh [ROUNDS]      (default 5)
# Needs: the plug-in packages, lv2file and lilv-utils (Scripts/setup installs them), sox,
# valgrind (Debian `valgrind`).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"

source Benchmarks/common.sh

overdrive=http://drobilla.net/plugins/mda/Overdrive
lowpass=http://plugin.org.uk/swh-plugins/buttlow_iir
graphic=http://lsp-plug.in/plugins/lv2/graph_equalizer_x16_stereo
darc=http://gareus.org/oss/lv2/darc#stereo
eq2=urn:zamaudio:ZamEQ2

echo "making test files (2 minutes of float noise, stereo and mono)…" >&2
sox -R -n -r 48000 -c 2 -b 32 -e floating-point "$work/stereo.wav" synth 120 whitenoise vol 0.5
sox -R -n -r 48000 -c 1 -b 32 -e floating-point "$work/mono.wav" synth 120 whitenoise vol 0.5

timed() { "run_$1" > /dev/null 2>&1; }

run_detent_overdrive() { "$detent" render "$work/stereo.wav" --plugin "$overdrive" -o "$work/out.wav" --subtype float --quiet; }
run_lv2file_overdrive() { lv2file -i "$work/stereo.wav" -o "$work/out.wav" --ignore-clipping "$overdrive"; }
run_detent_darc() { "$detent" render "$work/stereo.wav" --plugin "$darc" -o "$work/out.wav" --subtype float --quiet; }
run_lv2file_darc() { lv2file -i "$work/stereo.wav" -o "$work/out.wav" --ignore-clipping "$darc"; }
run_detent_eq2() { "$detent" render "$work/mono.wav" --plugin "$eq2" -o "$work/out.wav" --subtype float --quiet; }
run_lv2file_eq2() { lv2file -i "$work/mono.wav" -o "$work/out.wav" --ignore-clipping "$eq2"; }
run_detent_mono() { "$detent" render "$work/mono.wav" --plugin "$lowpass" -o "$work/out.wav" --subtype float --quiet; }
run_lv2apply_mono() { lv2apply -i "$work/mono.wav" -o "$work/out.wav" "$lowpass"; }

echo "fixed controls…" >&2
time_rounds "$rounds" detent_overdrive lv2file_overdrive detent_darc lv2file_darc detent_eq2 lv2file_eq2 detent_mono lv2apply_mono

echo
echo "Fixed controls, 2 minutes of float noise at 48 kHz, median of $rounds rotating rounds:"
awk -v a="$median_detent_overdrive" -v b="$median_lv2file_overdrive" -v c="$median_detent_darc" \
    -v d="$median_lv2file_darc" -v g="$median_detent_eq2" -v h="$median_lv2file_eq2" \
    -v e="$median_detent_mono" -v f="$median_lv2apply_mono" 'BEGIN {
    printf "  mda Overdrive, stereo      detent %6.3f s   lv2file  %6.3f s   %.2f×\n", a / 1e6, b / 1e6, a / b
    printf "  x42 darc, stereo           detent %6.3f s   lv2file  %6.3f s   %.2f×\n", c / 1e6, d / 1e6, c / d
    printf "  zam EQ2, mono              detent %6.3f s   lv2file  %6.3f s   %.2f×\n", g / 1e6, h / 1e6, g / h
    printf "  swh lowpass, mono          detent %6.3f s   lv2apply %6.3f s   %.2f×\n", e / 1e6, f / 1e6, e / f
}'

# A glide over the whole file.
printf '0 cutoff 20 Hz ramp 0\n0 cutoff 10k ramp 120s\n' > "$work/lowpass-glide.txt"
printf '0 g_3 0.1 ramp 0\n0 g_3 4 ramp 120s\n' > "$work/graphic-glide.txt"
run_lowpass_fixed() { "$detent" render "$work/stereo.wav" --plugin "$lowpass" -o "$work/out.wav" --subtype float --quiet; }
run_lowpass_8() { "$detent" render "$work/stereo.wav" --plugin "$lowpass" --automation "$work/lowpass-glide.txt" --control-interval 8 -o "$work/out.wav" --subtype float --quiet; }
run_lowpass_32() { "$detent" render "$work/stereo.wav" --plugin "$lowpass" --automation "$work/lowpass-glide.txt" --control-interval 32 -o "$work/out.wav" --subtype float --quiet; }
run_graphic_fixed() { "$detent" render "$work/stereo.wav" --plugin "$graphic" -o "$work/out.wav" --subtype float --quiet; }
run_graphic_8() { "$detent" render "$work/stereo.wav" --plugin "$graphic" --automation "$work/graphic-glide.txt" --control-interval 8 -o "$work/out.wav" --subtype float --quiet; }
run_graphic_32() { "$detent" render "$work/stereo.wav" --plugin "$graphic" --automation "$work/graphic-glide.txt" --control-interval 32 -o "$work/out.wav" --subtype float --quiet; }

echo "gliding controls…" >&2
time_rounds "$rounds" lowpass_fixed lowpass_8 lowpass_32 graphic_fixed graphic_8 graphic_32
echo
echo "A control gliding over the whole file, against fixed controls (cost of the sub-blocks):"
awk -v f="$median_lowpass_fixed" -v a="$median_lowpass_8" -v b="$median_lowpass_32" \
    -v g="$median_graphic_fixed" -v c="$median_graphic_8" -v d="$median_graphic_32" 'BEGIN {
    printf "  swh lowpass          fixed %6.3f s   grid 8: %.2f×   grid 32: %.2f×\n", f / 1e6, a / f, b / f
    printf "  LSP graphic EQ x16   fixed %6.3f s   grid 8: %.2f×   grid 32: %.2f×\n", g / 1e6, c / g, d / g
}'

# Zipper against the grid.
sox -R -n -r 48000 -c 1 -b 32 -e floating-point "$work/sweep-in.wav" synth 2 whitenoise vol 0.25
printf '0 resonance 1.2 ramp 0\n0 cutoff 20 Hz ramp 0\n0 cutoff 10k ramp 96000smp\n' > "$work/sweep.txt"
awk 'BEGIN { print "0 resonance 1.2 ramp 0"
    for (s = 0; s < 96000; s += 256) printf "%dsmp cutoff %.6f Hz ramp 0\n", s, 20 * (500 ^ ((s + 128) / 96000)) }' > "$work/steps.txt"
render_sweep() {  # INTERVAL AUTOMATION OUT
    "$detent" render "$work/sweep-in.wav" --plugin "$lowpass" --automation "$2" --control-interval "$1" \
        --block-frames 256 -o "$3" --subtype float --quiet --force
}
render_sweep 1 "$work/sweep.txt" "$work/ideal.wav"
render_sweep 1 "$work/steps.txt" "$work/stepped.wav"
error_rms() { sox -m -v 1 "$1" -v -1 "$work/ideal.wav" -n stat 2>&1 | awk '/RMS +amplitude/ { print $3 }'; }
stepped=$(error_rms "$work/stepped.wav")
echo
echo "Zipper of a 20 Hz → 10 kHz sweep over 2 s through swh's lowpass, below one step per 256 frames:"
for n in 2 4 8 16 32 64; do
    render_sweep "$n" "$work/sweep.txt" "$work/grid.wav"
    awk -v s="$stepped" -v g="$(error_rms "$work/grid.wav")" -v n="$n" \
        'BEGIN { printf "  grid of %2d frames   %5.1f dB%s\n", n, 20 * log(s / g) / log(10), (n == 8 ? "   (the default)" : "") }'
done

# Instructions: valgrind reads the binary without its debug information.
if command -v valgrind > /dev/null; then
    cp "$detent" "$work/detent" && strip --strip-debug "$work/detent"
    sox -R -n -r 48000 -c 2 -b 32 -e floating-point "$work/s10.wav" synth 10 whitenoise vol 0.5
    sox -R -n -r 48000 -c 1 -b 32 -e floating-point "$work/m10.wav" synth 10 whitenoise vol 0.5
    instructions() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 > /dev/null | awk '/Collected :/ { print $NF }'; }
    echo
    echo "Instructions for 10 s of float noise (callgrind), detent against lv2file:"
    for case in "$overdrive s10" "$darc s10" "$eq2 m10"; do
        set -- $case
        d=$(instructions "$work/detent" render "$work/$2.wav" --plugin "$1" -o "$work/out.wav" --subtype float --force --quiet --jobs 1)
        l=$(instructions lv2file -i "$work/$2.wav" -o "$work/out.wav" --ignore-clipping "$1")
        awk -v d="$d" -v l="$l" -v u="$1" 'BEGIN { printf "  %-45s %.2f×\n", u, d / l }'
    done
    printf '0 cutoff 20 Hz ramp 0\n0 cutoff 10k ramp 10s\n' > "$work/lowpass-glide10.txt"
    printf '0 g_3 0.1 ramp 0\n0 g_3 4 ramp 10s\n' > "$work/graphic-glide10.txt"
    echo "Instructions of a whole-file glide against fixed controls:"
    for case in "$lowpass lowpass-glide10.txt" "$graphic graphic-glide10.txt"; do
        set -- $case
        f=$(instructions "$work/detent" render "$work/s10.wav" --plugin "$1" -o "$work/out.wav" --subtype float --force --quiet --jobs 1)
        g8=$(instructions "$work/detent" render "$work/s10.wav" --plugin "$1" --automation "$work/$2" --control-interval 8 -o "$work/out.wav" --subtype float --force --quiet --jobs 1)
        g32=$(instructions "$work/detent" render "$work/s10.wav" --plugin "$1" --automation "$work/$2" --control-interval 32 -o "$work/out.wav" --subtype float --force --quiet --jobs 1)
        awk -v f="$f" -v a="$g8" -v b="$g32" -v u="$1" 'BEGIN { printf "  %-55s grid 8: %.2f×   grid 32: %.2f×\n", u, a / f, b / f }'
    done
fi
