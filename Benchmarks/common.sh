# Sourced by the benchmark scripts (from the package root): builds Detent in release mode (as
# Scripts/setup does: the Swift runtime linked in statically, which starts faster) and
# sets `detent` (its path) and `work` (a scratch folder removed on exit). Files live in
# memory (/dev/shm) where possible, so that the figures are the programs' work rather than
# the disk's write-back, which would run beside them on the same cores; BENCH_TMPDIR=DIR
# chooses another place.
swift build -c release --static-swift-stdlib --product detent >&2
detent="$(swift build -c release --static-swift-stdlib --show-bin-path)/detent"
tmp="${BENCH_TMPDIR:-$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo /tmp )}"
work="$(mktemp -d -p "$tmp")"
trap 'rm -rf "$work"' EXIT

# median: the median of the numbers on standard input (spaces or lines between them).
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_rounds ROUNDS NAME…: calls `timed NAME` (a function the script defines) once per name in
# each of ROUNDS rounds, in an order that rotates from round to round so that drifts in the
# machine's load fall on every name alike, with "$work/out.wav" removed before each call.
# Appends each call's wall time in microseconds to times[NAME] and sets median_NAME (its
# median; - in NAME becomes _).
time_rounds() {
    local rounds=$1
    shift
    local names=("$@") n=$# r k name start end
    declare -gA times=()
    for ((r = 0; r < rounds; r++)); do
        for ((k = 0; k < n; k++)); do
            name="${names[$(((r + k) % n))]}"
            rm -f "$work/out.wav"
            start=$(date +%s%N)
            timed "$name"
            end=$(date +%s%N)
            times[$name]+="$(((end - start) / 1000)) "
        done
        echo "round $((r + 1))/$rounds done" >&2
    done
    for name in "${names[@]}"; do declare -g "median_${name//-/_}=$(echo "${times[$name]}" | median)"; done
}
