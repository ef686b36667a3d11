"""What isolation costs a Python pipeline: one-second stereo arrays through mda Overdrive and
swh's Butterworth lowpass (LADSPA), each array a whole signal (`process(x)`), in process and
with `isolate=True` (each plug-in in a process of its own, kept from call to call), the two
in turn, best of REPS rounds. Prints the time per array of each and their ratio.

    .build-python/venv/bin/python Benchmarks/python-isolation-cost.py [ARRAYS] [REPS]   (defaults 200 and 3)

Needs the package installed (Scripts/test installs it in .build-python/venv), mda-lv2 and
swh-plugins (Scripts/setup).
"""
import sys
import time

import numpy as np

import detent

arrays = int(sys.argv[1]) if len(sys.argv) > 1 else 200
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
plugins = ["http://drobilla.net/plugins/mda/Overdrive", "ladspa:1903"]
rng = np.random.default_rng(7)
signals = [(rng.standard_normal((2, 48_000)) * 0.2).astype(np.float32) for _ in range(8)]
chains = {"in-process": detent.Chain(plugins), "isolate=True": detent.Chain(plugins, isolate=True)}
best = {name: float("inf") for name in chains}
for rep in range(reps):
    for name in (list(chains) if rep % 2 == 0 else list(reversed(chains))):
        chain = chains[name]
        chain.process(signals[0])  # the processes started, the plug-ins loaded
        started = time.perf_counter()
        for i in range(arrays):
            chain.process(signals[i % len(signals)])
        best[name] = min(best[name], (time.perf_counter() - started) / arrays)
for name, seconds in best.items():
    print(f"{name:>14}: {seconds * 1000:7.2f} ms per one-second stereo array")
print(f"isolate=True / in-process: {best['isolate=True'] / best['in-process']:.2f}x  (goal <= 3x)")
