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
