"""VST3 processing in Python: Detent's `Chain(["vst3:NAME"])` against pedalboard's
`load_plugin("/usr/lib/vst3/NAME.vst3")`, the reference VST3 host, side by side in one run, on
the Zam plug-ins both can run: 60 s of float32 noise at 48 kHz (mono or stereo, as the plug-in
is), processed whole, REPS rounds in which each runs once, the order alternating from round to
round (so that a machine warming or cooling up weighs on both alike). Prints the best of each,
their ratio, and the median of the rounds' own ratios (a round's two runs are seconds apart:
the steadier figure on a busy machine). Times are the process's CPU time, not the wall
clock's: on a shared machine another tenant's load then weighs on neither (numpy's BLAS is
kept to one thread, whose spinning would otherwise count). The outputs are compared too.

Usage: python Benchmarks/vst3-vs-pedalboard.py [REPS]      (default 5)
Needs: numpy, pedalboard (0.9.x, from PyPI; never a dependency) and detent installed in the
Python that runs it (Benchmarks/python-vs-pedalboard.sh makes such a virtual environment).
"""
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402 (after the BLAS setting it reads)
import pedalboard  # noqa: E402

import detent  # noqa: E402

PLUGINS = [("ZamTube", 1), ("ZaMultiCompX2", 2), ("ZamComp", 1), ("ZamEQ2", 1), ("ZamGEQ31", 1)]


def timed(function):
    start = time.process_time()
    function()
    return time.process_time() - start


def rounds(ours, theirs, reps):
    """Each function's times over `reps` rounds, one run of each a round, alternating which
    goes first."""
    mine, others = [], []
    for r in range(reps):
        if r % 2:
            others.append(timed(theirs))
            mine.append(timed(ours))
        else:
            mine.append(timed(ours))
            others.append(timed(theirs))
    return mine, others


def main(reps):
    print(f"60 s through each VST3 plug-in, {reps} alternating rounds (Detent / pedalboard; goal ≤ 1.0)")
    print(f"{'plugin':15} {'pedalboard (s)':>15} {'Detent (s)':>11} {'best':>7} {'median':>7} {'max |diff|':>11}")
    for name, channels in PLUGINS:
        x = (np.random.default_rng(1).standard_normal((channels, 48000 * 60)) * 0.2).astype(np.float32)
        board = pedalboard.load_plugin(f"/usr/lib/vst3/{name}.vst3")
        chain = detent.Chain([f"vst3:{name}"], channels=channels)
        difference = float(np.abs(board(x, 48000, reset=True) - chain.process(x)).max())
        mine, others = rounds(lambda: chain.process(x), lambda: board(x, 48000, reset=True), reps)
        ratios = sorted(m / o for m, o in zip(mine, others))
        print(f"{name:15} {min(others):15.3f} {min(mine):11.3f} {min(mine) / min(others):6.2f}× "
              f"{ratios[len(ratios) // 2]:6.2f}× {difference:11.2g}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
