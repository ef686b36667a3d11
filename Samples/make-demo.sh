#!/usr/bin/env bash
# Makes Samples/demo.wav: 8 seconds (four bars at 120 BPM) of bright synthesised material —
# a sawtooth bass line, sawtooth chords and noise hi-hats — stereo, 48 kHz, 16-bit. Bright on
# purpose: every harmonic the lowpass removes is audible when it goes.
#
# Uses only SoX (installed by Scripts/setup). Repeatable: the same file every run (-R fixes
# SoX's random noise and dither). Usage: Samples/make-demo.sh [OUTPUT]
set -euo pipefail
out="$(realpath -m "${1:-$(dirname "$0")/demo.wav}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sox=(sox -R -q)
rate=48000
eighth=0.25     # seconds per eighth note at 120 BPM
bar=2           # seconds per bar

# Bass: eighth notes of a sawtooth with a short decay, one pitch per bar (A1 F1 C2 G1).
bass=()
for hz in 55 43.65 65.41 49; do
    "${sox[@]}" -n -r $rate -c 1 "$work/bass-$hz.wav" synth $eighth sawtooth $hz fade 0.005 $eighth 0.08 vol 0.5
    for _ in 1 2 3 4 5 6 7 8; do bass+=("$work/bass-$hz.wav"); done
done
"${sox[@]}" "${bass[@]}" "$work/bass.wav"

# Chords: a sawtooth triad per bar (Am F C G), each voice slightly detuned between left and
# right for width.
chord() {  # chord NAME HZ HZ HZ
    local name=$1; shift
    local voices=()
    for hz in "$@"; do
        "${sox[@]}" -n -r $rate -c 2 "$work/$name-$hz.wav" synth $bar sawtooth "$hz" sawtooth "$(awk "BEGIN { print $hz * 1.004 }")" \
            fade 0.01 $bar 0.3 vol 0.12
        voices+=("$work/$name-$hz.wav")
    done
    "${sox[@]}" -m "${voices[@]}" "$work/$name.wav"
}
chord am 220 261.63 329.63
chord f 174.61 220 261.63
chord c 196 261.63 329.63
chord g 196 246.94 293.66
"${sox[@]}" "$work/am.wav" "$work/f.wav" "$work/c.wav" "$work/g.wav" "$work/chords.wav"

# Hi-hats: a 40 ms burst of high-passed noise on every eighth, alternating left and right,
# accented on the off-beats.
"${sox[@]}" -n -r $rate -c 1 "$work/tick.wav" synth 0.04 whitenoise vol 0.5 highpass 7000 fade 0 0.04 0.035 pad 0 0.21 vol 0.7
"${sox[@]}" "$work/tick.wav" "$work/soft.wav" vol 0.5
"${sox[@]}" -M "$work/soft.wav" "$work/tick.wav" "$work/left.wav" remix 1 2v0.3
"${sox[@]}" -M "$work/tick.wav" "$work/soft.wav" "$work/right.wav" remix 1v0.3 2
"${sox[@]}" "$work/left.wav" "$work/right.wav" "$work/pair.wav"
"${sox[@]}" "$work/pair.wav" "$work/hats.wav" repeat 15

# Mix, normalise to −1 dBFS, write 16-bit.
"${sox[@]}" "$work/bass.wav" -c 2 "$work/bass2.wav"
"${sox[@]}" -m "$work/bass2.wav" "$work/chords.wav" "$work/hats.wav" -b 16 "$out" gain -n -1
soxi "$out" >&2
