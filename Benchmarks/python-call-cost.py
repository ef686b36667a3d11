"""What a call costs beyond its samples, in Python: Detent's built-in lowpass + gain against
pedalboard's `Pedalboard([LowpassFilter(1000), Gain(-6)])`, side by side in one run.

  value set    chain["cutoff"] = v                 vs   board[0].cutoff_frequency_hz = v
  short call   chain.process(x), x 64 frames        vs   board(x, 48000)
  1 s call     the same on one second of stereo

Each row's two subjects run in turn, the order rotating from round to round; each figure is
the best of REPS rounds of CALLS calls (the one-second call: CALLS / 100). Prints the time per
call of each and Detent / pedalboard.

    python Benchmarks/python-call-cost.py [CALLS] [REPS]      (defaults 20000 and 5)

Needs: numpy, pedalboard (0.9.x, from PyPI; never a dependency) and detent in the Python that
runs it (Benchmarks/python-vs-pedalboard.sh makes such a virtual environment).
"""
import sys
import time

import numpy as np
import pedalboard

import detent

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 5
RATE = 48000

chain = detent.Chain(["builtin"], sample_rate=RATE, channels=2)
chain["cutoff"] = 1000.0
chain["gain"] = "-6dB"
board = pedalboard.Pedalboard([pedalboard.LowpassFilter(cutoff_frequency_hz=1000.0), pedalboard.Gain(gain_db=-6)])
lowpass = board[0]
rng = np.random.default_rng(7)
short = (rng.standard_normal((2, 64)) * 0.2).astype(np.float32)
second = (rng.standard_normal((2, RATE)) * 0.2).astype(np.float32)
cutoffs = [float(c) for c in np.exp(rng.uniform(np.log(200), np.log(8000), 64))]


def detent_set(n):
    for i in range(n):
        chain["cutoff"] = cutoffs[i & 63]


def pedalboard_set(n):
    for i in range(n):
        lowpass.cutoff_frequency_hz = cutoffs[i & 63]


def calling(subject, x):
    def run(n):
        for _ in range(n):
            subject(x)
    return run


rows = [
    ("value set", calls, detent_set, pedalboard_set),
    ("call on 64 frames", calls, calling(chain.process, short), calling(lambda x: board(x, RATE), short)),
    ("call on 1 s stereo", max(1, calls // 100), calling(chain.process, second), calling(lambda x: board(x, RATE), second)),
]
print(f"pedalboard {pedalboard.__version__}, numpy {np.__version__}; best of {reps} rotating rounds")
print(f"{'':20} {'Detent (µs)':>12} {'pedalboard (µs)':>16} {'ratio':>7}")
for label, n, ours, theirs in rows:
    ours(n // 10 or 1), theirs(n // 10 or 1)  # warm up
    best = {"detent": float("inf"), "pedalboard": float("inf")}
    subjects = [("detent", ours), ("pedalboard", theirs)]
    for r in range(reps):
        for name, run in (subjects if r % 2 == 0 else subjects[::-1]):
            start = time.perf_counter()
            run(n)
            best[name] = min(best[name], (time.perf_counter() - start) / n)
    d, p = best["detent"] * 1e6, best["pedalboard"] * 1e6
    print(f"{label:20} {d:12.1f} {p:16.1f} {d / p:6.2f}×")
