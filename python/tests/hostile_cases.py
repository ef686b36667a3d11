"""Hostile and careless calls of the Python API, drawn from a fixed seed: constructor
arguments, parameter ids, values, buffers, MIDI, presets and closed chains. Each call must
work or raise a detent.Error; anything else is printed as a failure.

Run as a program (``python hostile_cases.py SEED COUNT``) so that a crash kills this process
and not the test runner: each case is written to stderr before it runs, so the last one
written names a crash. The failures go to stdout as JSON lines."""
import copy
import json
import math
import os
import random
import sys
import tempfile

import numpy as np

import detent

FOLDER = tempfile.mkdtemp(prefix="detent-hostile-")
HUGE = [2**31, 2**32 + 2, 2**63, 2**64, -(2**63) - 1, 10**400]

PLUGINS = [None, "builtin", ["builtin"], ["builtin", "builtin"], 5, [5], ["builtin", None], b"builtin", "", [""],
           {"a": 1}, 3.5, "no-such-plug-in", "builtin\x00x", ["builtin\x00"], "/tmp", FOLDER, "\udcff", "x" * 5000,
           "ladspa:999999", "nowhere.so:label", os.path.join(FOLDER, "missing.json")]
RATES = [48_000, 44_100.0, 0, -1, math.nan, math.inf, "48000", None, True, 1e300, 1e-300, *HUGE]
CHANNELS = [1, 2, 0, -1, 64, 65, 1.5, "2", None, True, *HUGE]
GRAPHS = [FOLDER, "/tmp", os.path.join(FOLDER, "missing.json"), "g\x00.json", 5, b"g.json", "", "\udcff"]
IDS = ["cutoff", "builtin.cutoff", "gain", "", "cutoff\x00", "\x00", "x" * 5000, 5, None, b"cutoff", "\udcff", "..",
       "builtin.", ".cutoff", "CUTOFF", "cutoff ", "\n", "resonance"]
VALUES = [1000, "1k", "800\x00junk", math.nan, math.inf, -math.inf, 1e308, -1e308, True, None, [], "", "\udcff", b"1",
          object(), 1 + 1j, "-inf", "1 2", "\x00", "9" * 400, np.float32(3), np.int64(-5), *HUGE]
PRESETS = ["Default", "Dark", "", "\x00", "no such preset", "a/b", "../../etc/passwd", "x" * 5000, 5, None, "\udcff",
           "Dark\x00junk", "/tmp", FOLDER]
DTYPES = [np.float32, np.float64, np.int16, np.complex64, object, ">f4", np.float16, bool]
FRAMES = [0, 1, 100, 4096, -1, 2.5, "10", None, True, 2**50, 2**62, *HUGE]
MIDI = [None, [], [(0, b"\x90\x3c\x64")], [(0, "abc")], "abc", 5, [(0, 5)], [(0, b"")], [(2**63, b"\x90")],
        [(-1, b"\x90\x3c\x64")], [(0, [300])], [(0, [144, 60, 100])], [(0,)], [None], [(1.5, b"\x90")], [(True, b"\x90")],
        [(10**6, b"\x90\x3c\x64")], {"a": 1}]


def buffer(rng):
    """An input that is right, nearly right or wrong: dtypes, shapes, NaN, strides, lists."""
    kind = rng.choice(["array", "array", "array", "list", "none", "scalar"])
    if kind == "list":
        return [[0.0] * 10, [0.0] * 10]
    if kind == "none":
        return None
    if kind == "scalar":
        return np.float32(1)
    shape = rng.choice([(2, 64), (1, 64), (64,), (3, 64), (2, 0), (0, 64), (2, 1, 64), (64, 2), ()])
    dtype = rng.choice(DTYPES)
    x = np.zeros(shape, dtype=dtype) if dtype is not object else np.empty(shape, dtype=object)
    if x.size and dtype in (np.float32, ">f4", np.float64):
        x.flat[rng.randrange(x.size)] = rng.choice([math.nan, math.inf, -math.inf, 1e38, 0.5])
    if x.ndim == 2 and x.shape[1] > 2 and rng.random() < 0.3:
        x = x[:, ::2]
    return x


def make(rng):
    """A chain, or the argument mix for one (which may be refused)."""
    if rng.random() < 0.6:
        return detent.Chain(channels=rng.choice([1, 2]))
    arguments = {}
    if rng.random() < 0.8:
        arguments["plugins"] = rng.choice(PLUGINS)
    if rng.random() < 0.4:
        arguments["sample_rate"] = rng.choice(RATES)
    if rng.random() < 0.4:
        arguments["channels"] = rng.choice(CHANNELS)
    if rng.random() < 0.2:
        arguments["graph"] = rng.choice(GRAPHS)
    return detent.Chain(**arguments)


def operate(rng, chain):
    """One call on `chain`, chosen at random."""
    what = rng.choice(["set", "get", "process", "instrument", "preset", "save", "reset", "close", "copy", "read"])
    if what == "set":
        chain[rng.choice(IDS)] = rng.choice(VALUES)
    elif what == "get":
        chain[rng.choice(IDS)]
    elif what == "process":
        sidechain = rng.choice([None, None, np.zeros(64, np.float32), {"x\x00": np.zeros(64, np.float32)}, 5])
        chain.process(buffer(rng), reset=rng.choice([True, False]), midi=rng.choice(MIDI[:3]), sidechain=sidechain)
    elif what == "instrument":
        chain.process(frames=rng.choice(FRAMES), midi=rng.choice(MIDI))
    elif what == "preset":
        chain.load_preset(rng.choice(PRESETS))
    elif what == "save":
        chain.save_preset(rng.choice(PRESETS), replace=rng.choice([True, False]))
    elif what == "reset":
        chain.reset()
    elif what == "close":
        rng.choice([chain.close, chain.__del__])()
    elif what == "copy":
        rng.choice([copy.copy, copy.deepcopy])(chain)
    else:
        repr(chain), chain.parameters, chain.identifier, chain.latency


def run(seed, count):
    rng = random.Random(seed)
    for case in range(count):
        print(f"case {case}", file=sys.stderr, flush=True)
        chain = None
        try:
            chain = make(rng)
            for _ in range(rng.randrange(1, 6)):
                try:
                    operate(rng, chain)
                except detent.Error:
                    pass
        except detent.Error:
            pass
        except Exception as error:  # anything but detent's own errors is a failure
            print(json.dumps({"case": case, "error": type(error).__name__, "message": str(error)[:300]}), flush=True)
        del chain


if __name__ == "__main__":
    run(int(sys.argv[1]), int(sys.argv[2]))
