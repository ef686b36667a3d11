#!/usr/bin/env bash
# Chains: `detent render` hosting three LV2 plug-ins from three packages in one chain, against
# ecasound running the same chain with the same control values, and Detent's built-in lowpass
# + gain against SoX; then what the chain machinery itself costs.
#
#   detent render IN -o OUT --plugin od=OVERDRIVE --plugin comp=DARC --plugin eq=DJ_EQ --set od.drive=0.4 …
#   ecasound -f:f32_le,2,48000 -i IN -o OUT -elv2:OVERDRIVE,0.4,… -elv2:DARC,… -elv2:DJ_EQ,…
#   detent render IN -o OUT --set cutoff=1000 --set gain=-6
#   sox IN OUT lowpass 1000 gain -6
#
# The chain is mda's Overdrive (mda-lv2) → x42's darc compressor (x42-plugins) → swh's DJ EQ
# (swh-lv2). ecasound hosts only plug-ins that need no LV2 features (its -elv2 passes none):
# x42's fil4 EQ requires urid:map, and every zam plug-in (DPF) stops with "Options feature
# missing", so neither can be compared here. ecasound takes a plug-in's input control ports in
# port order (lv2info), the order of `detent params --plugin URI` without its bypass row.
#
# 1. Agreement: both outputs of the chain, sample by sample, the largest absolute difference.
#    Two things differ by design and are taken out: Detent removes the chain's latency (the
#    DJ EQ reports 3 frames; it runs last so that nothing after it sees the delay) where
#    ecasound leaves it in, so the outputs are compared 3 frames apart; and darc moves its
#    internal gain once per run() call, so its output depends on how many frames each run()
#    gets: the check gives Detent's plug-ins ecasound's blocks of 1024 frames (--block 1024).
#    The difference at each tool's own block size is printed too.
# 2. Wall time of 30-second and 2-second 32-bit float stereo noise files at 48 kHz, each tool
#    at its defaults; the tools run in turn within each round (the order rotates), medians of
#    the rounds. ecasound loads every installed LV2 bundle before it starts (lilv's
#    load_all: seconds of CPU with LSP's and the others' descriptions installed), so it is
#    timed twice: as installed, and with LV2_PATH naming only the three bundles the chain
#    needs ("lean"), which leaves its processing, its I/O and a wait of its own: its batch
#    mode ends about 0.5 s after it starts whatever the length (the audio is processed
#    within that wait), so its wall time says little about its processing. Each run's CPU
#    time (user + system, all threads, /usr/bin/time) is therefore printed too: the work
#    each tool does, start-up included.
# 3. The chain machinery's cost, in valgrind callgrind instructions of the engine's process
#    function (inclusive of the plug-ins' run, which it calls), on the 2-second file: a chain
#    of N slots against the sum of each slot rendered alone on the audio it receives in the
#    chain (the previous slot's output, so data-dependent plug-ins do the same work), for
#    three built-ins (--plugin a=builtin --plugin b=builtin --plugin c=builtin) and the three
#    LV2 plug-ins. The same count on every run whatever else the machine is doing.
#
# Usage: Benchmarks/chain-vs-ecasound.sh [ROUNDS]      (default 5)
# Needs: mda-lv2, x42-plugins, swh-lv2 (Scripts/setup installs them), sox, ecasound (installed
# here when missing), valgrind (Debian `valgrind`) for part 3, a C compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-5}"

if ! command -v ecasound > /dev/null; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "chain-vs-ecasound: installing ecasound" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends ecasound
fi

source Benchmarks/common.sh

overdrive=http://drobilla.net/plugins/mda/Overdrive
darc=http://gareus.org/oss/lv2/darc#stereo
djeq=http://plugin.org.uk/swh-plugins/dj_eq
# Each slot's values, as Detent's ids and as ecasound's list (every input control port in
# port order; darc's first two are enable and hold).
od_set=(drive=0.4 muffle=0.2 output=0.5)         od_eca=0.4,0.2,0.5
comp_set=(inputgain=6 threshold=-25 Ratio=0.6 attack=0.01 release=0.3)
comp_eca=1,0,6,-25,0.6,0.01,0.3
eq_set=(lo=3 mid=-4 hi=2)                          eq_eca=3,-4,2
prefixed() {  # prefixed SLOT ID=VALUE… → --set SLOT.ID=VALUE …
    local slot=$1
    shift
    for v in "$@"; do printf -- '--set\n%s.%s\n' "$slot" "$v"; done
}
sets() { for v in "$@"; do printf -- '--set\n%s\n' "$v"; done; }
mapfile -t chain_args < <(printf -- '--plugin\n%s\n' "od=$overdrive" "comp=$darc" "eq=$djeq"
    prefixed od "${od_set[@]}"; prefixed comp "${comp_set[@]}"; prefixed eq "${eq_set[@]}")
eca_chain=("-elv2:$overdrive,$od_eca" "-elv2:$darc,$comp_eca" "-elv2:$djeq,$eq_eca")
# The lean ecasound's LV2_PATH: a folder of links to the three plug-ins' bundles.
mkdir "$work/lv2"
for uri in "$overdrive" "$darc" "$djeq"; do
    bundle=$(lv2info "$uri" | sed -n 's|^[[:space:]]*Bundle:[[:space:]]*file://\(.*\)/$|\1|p' | head -n 1)
    ln -sfn "$bundle" "$work/lv2/$(basename "$bundle")"
done

cc="${CC:-$(command -v cc || command -v clang)}"
cat > "$work/maxdiff.c" <<'C'
#include <sndfile.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
/* maxdiff A B SHIFT: the largest |A[i] - B[i + SHIFT]| over the frames both hold. */
int main(int argc, char **argv) {
    if (argc != 4) return 64;
    long shift = atol(argv[3]);
    SF_INFO ia = {0}, ib = {0};
    SNDFILE *a = sf_open(argv[1], SFM_READ, &ia), *b = sf_open(argv[2], SFM_READ, &ib);
    if (!a || !b || ia.channels != ib.channels) { fprintf(stderr, "maxdiff: cannot compare\n"); return 66; }
    int c = ia.channels;
    float *x = malloc(sizeof(float) * ia.frames * c), *y = malloc(sizeof(float) * ib.frames * c);
    if (sf_readf_float(a, x, ia.frames) != ia.frames || sf_readf_float(b, y, ib.frames) != ib.frames) return 74;
    double m = 0;
    for (long i = 0; i < ia.frames; i++) {
        long j = i + shift;
        if (j < 0 || j >= ib.frames) continue;
        for (int k = 0; k < c; k++) { double d = fabs((double)x[i * c + k] - y[j * c + k]); if (d > m) m = d; }
    }
    printf("%.3g\n", m);
    return 0;
}
C
"$cc" -O2 -o "$work/maxdiff" "$work/maxdiff.c" $(pkg-config --cflags --libs sndfile) -lm

echo "making test files (30 s and 2 s of float stereo noise)…" >&2
sox -R -n -r 48000 -c 2 -b 32 -e floating-point "$work/long.wav" synth 30 whitenoise vol 0.5
sox -R -n -r 48000 -c 2 -b 32 -e floating-point "$work/short.wav" synth 2 whitenoise vol 0.5

cpu=(/usr/bin/time -f '%U %S' -o "$work/cpu")  # each run's CPU time, into $work/cpu
run() {  # run TOOL IN OUT [EXTRA DETENT OPTIONS…]
    local tool=$1 in=$2 out=$3
    shift 3
    case "$tool" in
        detent_chain) "${cpu[@]}" "$detent" render "$in" -o "$out" "${chain_args[@]}" --quiet --force "$@" ;;
        ecasound) "${cpu[@]}" ecasound -q -f:f32_le,2,48000 -i "$in" -o "$out" "${eca_chain[@]}" > /dev/null ;;
        ecasound_lean) LV2_PATH="$work/lv2" "${cpu[@]}" ecasound -q -f:f32_le,2,48000 -i "$in" -o "$out" "${eca_chain[@]}" > /dev/null ;;
        detent_builtin) "${cpu[@]}" "$detent" render "$in" -o "$out" --set cutoff=1000 --set gain=-6 --quiet --force ;;
        sox) "${cpu[@]}" sox "$in" "$out" lowpass 1000 gain -6 ;;
    esac
}

# 1. Agreement.
latency=$(run detent_chain "$work/short.wav" "$work/detent.wav" --json | sed -n 's/.*"latency":\([0-9]*\).*/\1/p')
run ecasound "$work/short.wav" "$work/ecasound.wav"
run ecasound_lean "$work/short.wav" "$work/lean.wav"
lean=$("$work/maxdiff" "$work/lean.wav" "$work/ecasound.wav" 0)
at_defaults=$("$work/maxdiff" "$work/detent.wav" "$work/ecasound.wav" "$latency")
run detent_chain "$work/short.wav" "$work/detent.wav" --block 1024
matched=$("$work/maxdiff" "$work/detent.wav" "$work/ecasound.wav" "$latency")
unaligned=$("$work/maxdiff" "$work/detent.wav" "$work/ecasound.wav" 0)

# 2. Wall time.
timed() {
    case "$1" in
        *_long) run "${1%_long}" "$work/long.wav" "$work/out.wav" ;;
        *_short) run "${1%_short}" "$work/short.wav" "$work/out.wav" ;;
    esac > /dev/null
    cat "$work/cpu" >> "$work/cpu.$1"
}
cpu_median() { awk '{ print 1e6 * ($1 + $2) }' "$work/cpu.$1" | median; }  # microseconds
tools=(detent_chain ecasound ecasound_lean detent_builtin sox)
echo "30-second file…" >&2
time_rounds "$rounds" "${tools[@]/%/_long}"
echo "2-second file…" >&2
time_rounds "$rounds" "${tools[@]/%/_short}"

echo
echo "Chain: mda Overdrive → x42 darc → swh DJ EQ (3 frames of latency), Detent against ecasound:"
printf '  max |detent − ecasound|, runs of 1024 frames, %s frames apart           %s\n' "$latency" "$matched"
printf '  the same, each at its default (Detent --block 4096, ecasound 1024)      %s\n' "$at_defaults"
printf '  (the same, not aligned for the latency                                  %s)\n' "$unaligned"
printf '  max |lean ecasound − ecasound as installed|                             %s\n' "$lean"
for length in long short; do
    [ "$length" = long ] && label="30-second" || label="2-second"
    a="median_detent_chain_$length" b="median_ecasound_$length" e="median_ecasound_lean_$length"
    c="median_detent_builtin_$length" d="median_sox_$length"
    echo "$label 32-bit float stereo 48 kHz file, median of $rounds rotating rounds, wall time (CPU time):"
    awk -v a="${!a}" -v b="${!b}" -v e="${!e}" -v c="${!c}" -v d="${!d}" \
        -v ca="$(cpu_median "detent_chain_$length")" -v cb="$(cpu_median "ecasound_$length")" \
        -v ce="$(cpu_median "ecasound_lean_$length")" -v cc="$(cpu_median "detent_builtin_$length")" \
        -v cd="$(cpu_median "sox_$length")" 'BEGIN {
        # /usr/bin/time counts CPU time in hundredths of a second.
        f = "  %-9s detent %6.3f s   %-13s %6.3f s   %5.2f×   (CPU %5.2f s against %5.2f s, %s)   %s\n"
        printf f, "LV2 chain", a / 1e6, "ecasound", b / 1e6, a / b, ca / 1e6, cb / 1e6, ratio(ca, cb), "goal ≤ 0.50×"
        printf f, "LV2 chain", a / 1e6, "ecasound lean", e / 1e6, a / e, ca / 1e6, ce / 1e6, ratio(ca, ce), ""
        printf f, "built-in", c / 1e6, "sox", d / 1e6, c / d, cc / 1e6, cd / 1e6, ratio(cc, cd), "goal ≤ 0.60×"
    }
    function ratio(x, y) { return y > 0 ? sprintf("%5.2f×", x / y) : "  –  "
    }'
done

# 3. The chain machinery, in instructions: valgrind reads the binary without its debug information.
if command -v valgrind > /dev/null; then
    cp "$detent" "$work/detent" && strip --strip-debug "$work/detent"
    # The engine's process function, inclusive of what it calls. Several functions match (the
    # public entry points and the private loop they call, when not inlined); the largest
    # inclusive count is the outermost one, which holds the others.
    instructions() {
        rm -f "$work/callgrind.out"
        valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" > /dev/null 2>&1
        callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out" |
            awk '/3DSP6EngineC7process/ { v = $1; gsub(",", "", v); if (v + 0 > m) m = v + 0 } END { print m + 0 }'
    }
    render() { instructions "$work/detent" render "$@" --quiet --force --jobs 1 --io-threads 1; }
    chain_vs_alone() {  # chain_vs_alone LABEL CHAIN-INSTRUCTIONS ALONE-INSTRUCTIONS…
        local label=$1 chain=$2
        shift 2
        awk -v l="$label" -v c="$chain" -v list="$*" 'BEGIN {
            n = split(list, v, " "); for (i = 1; i <= n; i++) s += v[i]
            if (c == 0 || s == 0) { printf "  %-16s no count: the process function was not found\n", l; exit }
            printf "  %-16s chain %13.0f   sum of %d alone %13.0f   %.3f×   (goal ≤ 1.05×)\n", l, c, n, s, c / s
        }'
    }
    echo "Chain machinery, callgrind instructions of Engine.process on the 2-second file:"
    in="$work/short.wav"
    b_a=(cutoff=8k gain=-2) b_b=(cutoff=3k resonance=1.5) b_c=(cutoff=1k gain=-6)
    c=$(render "$in" -o "$work/out.wav" --plugin a=builtin --plugin b=builtin --plugin c=builtin \
        $(prefixed a "${b_a[@]}") $(prefixed b "${b_b[@]}") $(prefixed c "${b_c[@]}"))
    a1=$(render "$in" -o "$work/a.wav" --plugin builtin $(sets "${b_a[@]}"))
    a2=$(render "$work/a.wav" -o "$work/b.wav" --plugin builtin $(sets "${b_b[@]}"))
    a3=$(render "$work/b.wav" -o "$work/c.wav" --plugin builtin $(sets "${b_c[@]}"))
    chain_vs_alone "3 built-ins" "$c" "$a1" "$a2" "$a3"
    c=$(render "$in" -o "$work/out.wav" "${chain_args[@]}")
    a1=$(render "$in" -o "$work/a.wav" --plugin "$overdrive" $(sets "${od_set[@]}"))
    a2=$(render "$work/a.wav" -o "$work/b.wav" --plugin "$darc" $(sets "${comp_set[@]}"))
    a3=$(render "$work/b.wav" -o "$work/c.wav" --plugin "$djeq" $(sets "${eq_set[@]}"))
    chain_vs_alone "3 LV2 plug-ins" "$c" "$a1" "$a2" "$a3"
fi
