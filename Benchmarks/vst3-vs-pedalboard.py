"""VST3 processing in Python: Detent's `Chain(["vst3:NAME"])` against pedalboard's
`load_plugin("/usr/lib/vst3/NAME.vst3")`, the reference VST3 host, side by side in one run, on
the Zam plug-ins both can run: 60 s of float32 noise at 48 kHz (mono or stereo, as the plug-in
is), processed whole, best of REPS runs each, the two in turn. The outputs are compared too.

Usage: python Benchmarks/vst3-vs-pedalboard.py [REPS]      (default 5)
Needs: numpy, pedalboard (0.9.x, from PyPI; never a dependency) and detent installed in the
Python that runs it (Benchmarks/python-vs-pedalboard.sh makes such a virtual environment).
"""
import sys
import time

import numpy as np
import pedalboard

import detent

PLUGINS = [("ZamTube", 1), ("ZaMultiCompX2", 2), ("ZamComp", 1), ("ZamEQ2", 1), ("ZamGEQ31", 1)]


def best(function, reps):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main(reps):
    print(f"60 s through each VST3 plug-in, best of {reps} (Detent / pedalboard; goal ≤ 1.0)")
    print(f"{'plugin':15} {'pedalboard (s)':>15} {'Detent (s)':>11} {'ratio':>7} {'max |diff|':>11}")
    for name, channels in PLUGINS:
        x = (np.random.default_rng(1).standard_normal((channels, 48000 * 60)) * 0.2).astype(np.float32)
        board = pedalboard.load_plugin(f"/usr/lib/vst3/{name}.vst3")
        chain = detent.Chain([f"vst3:{name}"], channels=channels)
        theirs = best(lambda: board(x, 48000, reset=True), reps)
        ours = best(lambda: chain.process(x), reps)
        difference = float(np.abs(board(x, 48000, reset=True) - chain.process(x)).max())
        print(f"{name:15} {theirs:15.3f} {ours:11.3f} {ours / theirs:6.2f}× {difference:11.2g}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
