#!/usr/bin/env bash
# Detent's Python package (`import detent`) against Spotify's pedalboard, side by side in one
# run, on the built-in lowpass + gain and pedalboard's LowpassFilter + Gain (a first-order,
# 6 dB/octave filter: less work per sample than Detent's resonant biquad). The work:
#
#   a. in memory: 60 s of stereo float32 noise at 48 kHz, cutoff 1 kHz, gain -6 dB:
#        chain.process(x)   vs   Pedalboard([LowpassFilter(1000), Gain(-6)])(x, 48000)
#   b. augmentation: 2,000 one-second stereo float WAVs (made once, in
#      .build-python-bench/files), each read, given a random cutoff (seeded, log-uniform
#      200 … 8000 Hz) and written, in a plain Python loop: one Chain reused with the cutoff set
#      per file, against one Pedalboard whose LowpassFilter's cutoff is set per file. Both read
#      and write with pedalboard.io.AudioFile, so the difference is the processing. The same
#      jobs also go to Detent's command line as a manifest:
#        detent render --manifest jobs.jsonl --quiet --force      (--jobs: every core)
#      and, to show where a loop's time goes, the same processing over the files already in
#      memory, and the reading and writing alone.
#   c. two threads: two chains, 30 s of stereo each, each in its own threading.Thread, against
#      the same two calls one after the other (ctypes lets go of the GIL); pedalboard alike.
#   d. peak memory (VmHWM) of a fresh process doing row a once, each library.
#
# Every time is the best of REPS runs (4×REPS for the in-memory rows a and c); the peers of a
# row run in turn in each repetition, the order rotating. Ratios are Detent / peer; the goals
# are the package's, not assertions: the script always exits 0 once it has measured.
#
# It makes its own virtual environment in .build-python-bench/venv (numpy, pedalboard>=0.9,<0.10
# from PyPI, and `pip install ./python`), reused while there; pedalboard is never a dependency
# of the package. Outputs go to memory (/dev/shm) unless BENCH_TMPDIR=DIR says otherwise.
# Run on an idle machine: it warns when the load is above 1.5.
#
# Usage: Benchmarks/python-vs-pedalboard.sh [REPS] [FILES]     (defaults 5 and 2000; a few
#        minutes on 2 cores)
# Needs: the release build of detent (Scripts/setup), python3 with venv, PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-5}"
files="${2:-2000}"

detent="${DETENT:-$PWD/.build/release/detent}"
[ -x "$detent" ] || { echo "python-vs-pedalboard: no $detent: build it first (Scripts/setup)" >&2; exit 1; }

root=.build-python-bench
venv="$root/venv"
python="$venv/bin/python"
if [ ! -x "$python" ]; then
    echo "python-vs-pedalboard: making $venv" >&2
    python3 -m venv "$venv"
fi
if ! "$python" -c 'import numpy, pedalboard; assert pedalboard.__version__.startswith("0.9.")' 2>/dev/null; then
    "$python" -m pip install -q numpy 'pedalboard>=0.9,<0.10' >&2
fi
# Detent's package again when its sources changed since it was installed, or its library is
# not the one built.
stamp="$venv/.detent-installed"
installed=$("$python" -c 'import detent, os; print(os.path.dirname(detent.__file__))' 2>/dev/null || true)
if [ -z "$installed" ] || [ ! -f "$stamp" ] || ! cmp -s "$installed/libDetentC.so" .build/release/libDetentC.so ||
    [ -n "$(find python/src python/setup.py python/pyproject.toml -newer "$stamp" -print -quit)" ]; then
    echo "python-vs-pedalboard: installing ./python into $venv" >&2
    "$python" -m pip install -q --force-reinstall --no-deps ./python >&2
    touch "$stamp"
    sleep 30  # let the build's load fade before measuring
fi

load=$(cut -d ' ' -f 1 /proc/loadavg)
if awk -v l="$load" 'BEGIN { exit !(l > 1.5) }'; then
    echo "python-vs-pedalboard: warning: load average $load: the figures will be noisy" >&2
fi

tmp="${BENCH_TMPDIR:-$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo /tmp )}"
work="$(mktemp -d -p "$tmp")"
trap 'rm -rf "$work"' EXIT

"$python" Benchmarks/python-vs-pedalboard.py bench --detent "$detent" --files "$PWD/$root/files" \
    --scratch "$work" --reps "$reps" --count "$files"
