#!/usr/bin/env bash
# Detent's Python package (`import detent`) against Spotify's pedalboard, side by side in one
# run: Benchmarks/python-vs-pedalboard.py, whose header says what each row measures —
#
#   a. 60 s of stereo in memory, one call: chain.process(x) vs Pedalboard([LowpassFilter, Gain])
#   b. 500 one-second arrays, a call each in a Python loop
#   c. FILES one-second files read, processed (a random cutoff each) and written:
#      detent.render_many (every core) vs pedalboard's serial loop with pedalboard.io.AudioFile
#      and vs the same in multiprocessing.Pool(cores); a Chain in the serial loop; the same
#      jobs as `detent render --manifest`; where a loop's time goes
#   d. isolate=True vs in process, 500 one-second arrays through mda Overdrive + swh lowpass
#   e. two chains in two threads vs one after the other
#   f. peak memory of a fresh process doing row a
#
# Every time is the best of REPS rotating rounds (4×REPS for rows a and e). Ratios are
# Detent / peer; the goals are the package's, not assertions: the script always exits 0 once it
# has measured. The input files are made once, in .build-python-bench/files.
#
# It makes its own virtual environment in .build-python-bench/venv (numpy, pedalboard>=0.9,<0.10
# from PyPI, and `pip install ./python`), reused while there; pedalboard is never a dependency
# of the package. Outputs go to memory (/dev/shm) unless BENCH_TMPDIR=DIR says otherwise.
# Without Swift's build, the .py runs in any Python with numpy, pedalboard and detent.
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

"$python" Benchmarks/python-vs-pedalboard.py --detent "$detent" --folder "$PWD/$root/files" \
    --reps "$reps" --files "$files"
