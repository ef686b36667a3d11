#!/usr/bin/env bash
# Times `detent render` against SoX and against a plain libsndfile copy, on a 10-minute
# 24-bit stereo 48 kHz noise file, and measures peak memory on 10-second and 10-minute files.
#
#   detent render IN -o OUT --set cutoff=1000 --set gain=-6      (release build)
#   sox IN OUT lowpass 1000 gain -6                              (a biquad lowpass and gain)
#   copy IN OUT                                                  (the I/O floor, see below)
#
# The I/O floor is a 20-line C program compiled here: it reads the file as floats with
# libsndfile and writes it back in the same format, in blocks of 8192 frames, with no DSP —
# exactly the decoding and encoding a render cannot avoid. It is a copy and claims nothing else.
#
# The three run in turn within each round (the order rotates from round to round), so drifts
# in machine load hit all three alike; each figure is the median of its rounds. Every run
# writes a fresh output file; the input stays in the page cache for all.
#
# Usage: Benchmarks/render-vs-sox.sh [ROUNDS]      (default 7; BENCH_TMPDIR=DIR to choose
# where the ~700 MB of test files go)
# Needs: sox, libsndfile, a C compiler (the Swift toolchain's clang will do), /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-7}"

source Benchmarks/common.sh

cc="${CC:-$(command -v cc || command -v clang)}"
cat > "$work/copy.c" <<'C'
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
/* copy IN OUT: the same audio, same format, through libsndfile's float interface. */
int main(int argc, char **argv) {
    if (argc != 3) return 64;
    SF_INFO in = {0};
    SNDFILE *a = sf_open(argv[1], SFM_READ, &in);
    if (!a) { fprintf(stderr, "copy: %s\n", sf_strerror(NULL)); return 66; }
    SF_INFO out = in;
    SNDFILE *b = sf_open(argv[2], SFM_WRITE, &out);
    if (!b) { fprintf(stderr, "copy: %s\n", sf_strerror(NULL)); return 73; }
    sf_command(b, SFC_SET_CLIPPING, NULL, SF_TRUE);
    enum { BLOCK = 8192 };
    float *buffer = malloc(sizeof(float) * BLOCK * in.channels);
    sf_count_t n;
    while ((n = sf_readf_float(a, buffer, BLOCK)) > 0)
        if (sf_writef_float(b, buffer, n) != n) return 74;
    sf_close(a);
    return sf_close(b) ? 74 : 0;
}
C
"$cc" -O2 -o "$work/copy" "$work/copy.c" $(pkg-config --cflags --libs sndfile)

echo "making test files (10 min and 10 s of 24-bit stereo noise at 48 kHz)…" >&2
sox -R -n -r 48000 -c 2 -b 24 "$work/long.wav" synth 600 whitenoise vol 0.5
sox -R -n -r 48000 -c 2 -b 24 "$work/short.wav" synth 10 whitenoise vol 0.5

run() {  # run TOOL IN OUT
    case "$1" in
        detent) "$detent" render "$2" -o "$3" --set cutoff=1000 --set gain=-6 --quiet ;;
        sox) sox "$2" "$3" lowpass 1000 gain -6 ;;
        copy) "$work/copy" "$2" "$3" ;;
    esac
}

timed() { run "$1" "$work/long.wav" "$work/out.wav"; }
time_rounds "$rounds" detent sox copy

peak() {  # peak TOOL IN → max resident set in kB
    rm -f "$work/out.wav"
    /usr/bin/time -f %M -o "$work/rss" bash -c "$(declare -f run); detent='$detent' work='$work' run $1 '$2' '$work/out.wav'"
    cat "$work/rss"
}

echo
echo "10-minute 24-bit stereo 48 kHz file, median of $rounds alternating rounds:"
awk -v d="$median_detent" -v s="$median_sox" -v c="$median_copy" 'BEGIN {
    printf "  detent render  %7.3f s\n  sox            %7.3f s\n  libsndfile copy%7.3f s\n", d / 1e6, s / 1e6, c / 1e6
    printf "  detent / sox   %.2f×   (goal ≤ 0.60×)\n", d / s
    printf "  detent / copy  %.2f×   (goal ≤ 1.15×)\n", d / c
}'
echo "peak memory (max RSS):"
for tool in detent sox copy; do
    printf "  %-15s 10 s: %6s kB   10 min: %6s kB\n" "$tool" "$(peak "$tool" "$work/short.wav")" "$(peak "$tool" "$work/long.wav")"
done
