#!/usr/bin/env bash
# The engine's cost in instructions, this tree against an earlier revision: valgrind callgrind
# counts of the engine's process function (inclusive: smoothers, filter, gain, meters) while
# `detent render` renders 10 s of 32-bit float stereo noise at 48 kHz through the built-in
# lowpass + gain,
#
#   fixed     --set cutoff=1000 --set resonance=0.9 --set gain=-6
#   gliding   an automation file gliding cutoff 150 Hz → 12 kHz, resonance 0.7 → 4 and
#             gain −12 dB → 0 dB over the whole file
#
# and through two built-ins, in series (chain) and in parallel, summed (graph), all
# with --jobs 1 --io-threads 1 --in-process (a chain would otherwise render in a worker
# process, which valgrind does not follow), built in release mode from the working tree and from
# BASE_REV (checked out in a temporary `git worktree` under /tmp, removed at the end).
# Instruction counts are the same on every run whatever else the machine is doing, so one run
# of each is the figure. The project's rule: a refactor of the engine stays within 3 % of
# the engine it replaces (this tree / BASE_REV ≤ 1.03).
#
# Usage: Benchmarks/engine-instructions.sh [BASE_REV]      (default HEAD~2)
# Needs: valgrind (Debian `valgrind`), sox.
set -euo pipefail
cd "$(dirname "$0")/.."
base_rev="${1:-HEAD~2}"
base_commit=$(git rev-parse --verify "$base_rev^{commit}")

source Benchmarks/common.sh

# The base revision's tree, built in release mode as common.sh builds this one. Its
# dependencies' checkouts are copied from this tree's build folder, so that the build needs
# no network when both revisions pin the same versions.
base_dir="$(mktemp -d -p /tmp detent-engine-base.XXXXXX)"
cleanup() {
    git worktree remove --force "$base_dir/tree" 2> /dev/null || true
    rm -rf "$base_dir" "$work"
    git worktree prune
}
trap cleanup EXIT
git worktree add --detach "$base_dir/tree" "$base_commit" >&2
mkdir -p "$base_dir/tree/.build"
for part in checkouts repositories workspace-state.json; do
    if [ -e ".build/$part" ]; then cp -a ".build/$part" "$base_dir/tree/.build/"; fi
done
echo "building $base_rev ($(git rev-parse --short "$base_commit")) in release mode…" >&2
(cd "$base_dir/tree" && swift build -c release --static-swift-stdlib --product detent >&2)
base_detent="$(cd "$base_dir/tree" && swift build -c release --static-swift-stdlib --show-bin-path)/detent"

# valgrind reads the binaries without their debug information.
cp "$detent" "$work/current" && strip --strip-debug "$work/current"
cp "$base_detent" "$work/base" && strip --strip-debug "$work/base"

echo "making a test file (10 s of float stereo noise)…" >&2
sox -R -n -r 48000 -c 2 -b 32 -e floating-point "$work/in.wav" synth 10 whitenoise vol 0.5
cat > "$work/glide.txt" <<'AUTOMATION'
0  cutoff     150 Hz  ramp 0
0  resonance  0.7     ramp 0
0  gain       -12 dB  ramp 0
0  cutoff     12k     ramp 10s
0  resonance  4       ramp 10s
0  gain       0 dB    ramp 10s
AUTOMATION

# The engine's process function, inclusive of what it calls (mangled as the module's name with
# "Engine" taken from it: `11AudioEngine0B0C7process`). Several functions match (the
# public entry points and the private loop they call, when not inlined); the largest
# inclusive count is the outermost one, which holds the others.
instructions() {  # instructions BINARY OPTION… → the count
    rm -f "$work/callgrind.out"
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
        "$1" render "$work/in.wav" -o "$work/out.wav" "${@:2}" --jobs 1 --io-threads 1 --in-process --quiet --force > /dev/null 2>&1
    callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.out" |
        awk '/11AudioEngine0B0C7process/ { v = $1; gsub(",", "", v); if (v + 0 > m) m = v + 0 } END { print m + 0 }'
}
cat > "$work/parallel.json" <<'JSON'
{"slots": {"lo": {"plugin": "builtin", "values": {"cutoff": 300, "gain": -6}},
           "hi": {"plugin": "builtin", "values": {"cutoff": 5000, "gain": -6}}},
 "connections": [["input", "lo"], ["input", "hi"], ["lo", "output"], ["hi", "output"]]}
JSON
fixed=(--set cutoff=1000 --set resonance=0.9 --set gain=-6)
gliding=(--automation "$work/glide.txt")
# The same two built-ins in series (a chain) and in parallel, summed (a graph).
chain=(--plugin lo=builtin --plugin hi=builtin --set lo.cutoff=300 --set lo.gain=-6 --set hi.cutoff=5000 --set hi.gain=-6)
graph=(--graph "$work/parallel.json")
cases=(fixed gliding chain graph)

echo "counting instructions (eight renders under valgrind)…" >&2
for case in "${cases[@]}"; do
    declare -n options=$case
    declare "current_$case=$(instructions "$work/current" "${options[@]}")"
    declare "base_$case=$(instructions "$work/base" "${options[@]}")"
    unset -n options
done

echo
echo "Instructions of Engine.process (callgrind, inclusive), 10 s of float stereo noise: the built-in lowpass + gain"
echo "(fixed, gliding), two built-ins in series (chain) and in parallel, summed (graph):"
printf '  %-8s %15s %15s   %s\n' "" "this tree" "$base_rev ($(git rev-parse --short "$base_commit"))" "ratio"
for case in "${cases[@]}"; do
    c="current_$case" b="base_$case"
    awk -v k="$case" -v c="${!c}" -v b="${!b}" 'BEGIN {
        if (c == 0 || b == 0) { printf "  %-8s no count: the process function was not found\n", k; exit }
        printf "  %-8s %15.0f %15.0f   %.4f×   (goal ≤ 1.03×)\n", k, c, b, c / b
    }'
done
