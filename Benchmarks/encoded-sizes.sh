#!/usr/bin/env bash
# What the lossy and FLAC settings give: the size of `detent render` outputs of one 3-second
# 48 kHz 16-bit stereo file (sox: pink noise and two tones), built-in at its defaults, for
# each --quality of Vorbis, Opus and MP3 and without one, for --bitrate 128, and for FLAC's
# --compression 0, 5 and 8, each beside the input WAV's size in the same run. Sizes are
# the same on every run (the encoders are deterministic for the same input), so one run
# is the figure.
#
# Usage: Benchmarks/encoded-sizes.sh
# Needs: sox.
set -euo pipefail
cd "$(dirname "$0")/.."

source Benchmarks/common.sh

sox -R -n -r 48000 -c 2 -b 16 "$work/in.wav" synth 3 pinknoise sine mix 440 sine mix 1320 vol 0.5
wav=$(stat -c %s "$work/in.wav")
size() {  # size EXT OPTION…: the output's size in kB (1000 bytes)
    local ext=$1
    shift
    "$detent" render "$work/in.wav" -o "$work/out.$ext" --quiet --force "$@"
    awk -v b="$(stat -c %s "$work/out.$ext")" 'BEGIN { printf "%.1f kB", b / 1000 }'
}

printf 'the input WAV: %.1f kB\n\n' "$(echo "$wav / 1000" | bc -l)"
echo "| --quality | 0 | 0.25 | 0.5 | 0.75 | 1 | not given |"
echo "|---|---|---|---|---|---|---|"
for format in ogg:Vorbis opus:Opus mp3:MP3; do
    ext=${format%%:*}
    row="| ${format#*:} |"
    for q in 0 0.25 0.5 0.75 1; do row+=" $(size "$ext" --quality "$q") |"; done
    row+=" $(size "$ext") |"
    echo "$row"
done
echo
echo "--bitrate 128: MP3 $(size mp3 --bitrate 128), Opus $(size opus --bitrate 128)"
echo "FLAC: --compression 0 $(size flac --compression 0), 5 $(size flac --compression 5), 8 $(size flac --compression 8)"
