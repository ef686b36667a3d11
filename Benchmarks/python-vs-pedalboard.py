"""Detent's Python package against Spotify's pedalboard; run by python-vs-pedalboard.sh, which
says what is measured. Every time is the best (minimum) of REPS runs, the peers of a row run in
turn in each repetition, the order rotating from one repetition to the next.

    python python-vs-pedalboard.py bench --detent BIN --files DIR --scratch DIR [--reps N] [--count N]
    python python-vs-pedalboard.py peak detent|pedalboard     (one run of row a; prints peak RSS)
"""
import argparse
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import threading
import time

import numpy as np

RATE = 48000
CHANNELS = 2


def noise(seconds, seed):
    """Stereo white noise, float32, (channels, frames), peak well under full scale."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((CHANNELS, int(seconds * RATE)), dtype=np.float32)
    x *= 0.2
    return x


def detent_chain(cutoff=1000.0):
    import detent

    chain = detent.Chain(["builtin"], sample_rate=RATE, channels=CHANNELS)
    chain["cutoff"] = cutoff
    chain["gain"] = "-6dB"
    return chain


def pedalboard_board(cutoff=1000.0):
    from pedalboard import Gain, LowpassFilter, Pedalboard

    return Pedalboard([LowpassFilter(cutoff_frequency_hz=cutoff), Gain(gain_db=-6)])


def best_of(reps, subjects, before=None):
    """subjects: {name: function}. Runs each once per repetition, in rotating order, and
    returns {name: best seconds}. `before(name)` runs untimed before each call."""
    names = list(subjects)
    times = {name: [] for name in names}
    for r in range(reps):
        for k in range(len(names)):
            name = names[(r + k) % len(names)]
            if before:
                before(name)
            start = time.perf_counter()
            subjects[name]()
            times[name].append(time.perf_counter() - start)
        print(f"  {r + 1}/{reps}: " + ", ".join(f"{n} {times[n][-1]:.3f} s" for n in names),
              file=sys.stderr, flush=True)
    return {name: min(values) for name, values in times.items()}


# ---------------------------------------------------------------- files for row b

def make_files(folder, count):
    """COUNT one-second float32 stereo WAVs of noise (each its own), made once and reused: only
    missing ones are made (a smaller COUNT uses the first ones)."""
    from pedalboard.io import AudioFile

    stamp = os.path.join(folder, ".made")
    want = f"{RATE} Hz, {CHANNELS} channels, float32, noise seeded 1000 + index\n"
    if not (os.path.isfile(stamp) and open(stamp).read() == want):
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        with open(stamp, "w") as f:
            f.write(want)
    paths = [os.path.join(folder, f"take{i:05d}.wav") for i in range(count)]
    missing = [i for i, path in enumerate(paths) if not os.path.isfile(path)]
    if missing:
        print(f"making {len(missing)} one-second files in {folder}…", file=sys.stderr, flush=True)
    for i in missing:
        part = paths[i][:-len(".wav")] + ".part.wav"  # whole files only, if stopped midway
        with AudioFile(part, "w", RATE, CHANNELS, bit_depth=32) as f:
            f.write(noise(1, 1000 + i))
        os.replace(part, paths[i])


def jobs_for(folder, count, seed=1):
    """(input path, output name, cutoff) per file; cutoffs log-uniform 200 … 8000 Hz, seeded."""
    rng = random.Random(seed)
    low, high = math.log(200), math.log(8000)
    return [(os.path.join(folder, f"take{i:05d}.wav"), f"take{i:05d}.wav", math.exp(rng.uniform(low, high)))
            for i in range(count)]


def loop_detent(jobs, out):
    from pedalboard.io import AudioFile

    chain = detent_chain()
    for source, name, cutoff in jobs:
        with AudioFile(source) as f:
            x = f.read(f.frames)
        chain["cutoff"] = cutoff
        y = chain.process(x)
        with AudioFile(os.path.join(out, name), "w", RATE, CHANNELS, bit_depth=32) as f:
            f.write(y)


def loop_pedalboard(jobs, out):
    from pedalboard.io import AudioFile

    board = pedalboard_board()
    lowpass = board[0]
    for source, name, cutoff in jobs:
        with AudioFile(source) as f:
            x = f.read(f.frames)
        lowpass.cutoff_frequency_hz = cutoff
        y = board(x, RATE)
        with AudioFile(os.path.join(out, name), "w", RATE, CHANNELS, bit_depth=32) as f:
            f.write(y)


def write_manifest(path, jobs, out):
    with open(path, "w") as f:
        for source, name, cutoff in jobs:
            f.write(json.dumps({"input": source, "output": os.path.join(out, name),
                                "values": {"cutoff": cutoff, "gain": -6}}) + "\n")


# ---------------------------------------------------------------- the run

def bench(args):
    import detent
    import pedalboard
    from pedalboard.io import AudioFile

    reps = args.reps
    quick = 4 * reps  # the in-memory rows take a fraction of a second a run
    rows = []  # (measurement, detent, peer, ratio, goal)
    notes = []

    def seconds(s):
        return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"

    # a. In memory: 60 s of stereo through lowpass 1 kHz + gain −6 dB.
    print("a. 60 s stereo in memory", file=sys.stderr, flush=True)
    x = noise(60, 7)
    chain, board = detent_chain(), pedalboard_board()
    chain.process(x[:, :RATE]), board(x[:, :RATE], RATE)  # warm up: libraries loaded, pages touched
    y_detent, y_board = chain.process(x), board(x, RATE)
    assert y_detent.shape == x.shape and y_board.shape == x.shape, (y_detent.shape, y_board.shape)
    a = best_of(quick, {"detent": lambda: chain.process(x), "pedalboard": lambda: board(x, RATE)})
    rows.append(("a. 60 s stereo in memory, `process` vs `board(x)`", seconds(a["detent"]),
                 seconds(a["pedalboard"]), a["detent"] / a["pedalboard"], "≤ 1.0"))
    notes.append(f"a. throughput: Detent {60 / a['detent']:.0f}× real time, pedalboard "
                 f"{60 / a['pedalboard']:.0f}× real time")
    del y_detent, y_board

    # b. Augmentation: COUNT one-second files, read → random cutoff → write.
    print(f"b. {args.count} files", file=sys.stderr, flush=True)
    make_files(args.files, args.count)
    jobs = jobs_for(args.files, args.count)
    for source, _, _ in jobs:  # the inputs in the page cache for every peer alike
        with open(source, "rb") as f:
            f.read()
    outs = {name: os.path.join(args.scratch, f"out-{name}") for name in ("detent", "pedalboard", "render")}
    manifest = os.path.join(args.scratch, "jobs.jsonl")
    write_manifest(manifest, jobs, outs["render"])
    command = [args.detent, "render", "--manifest", manifest, "--quiet", "--force"]

    def render():
        subprocess.run(command, check=True)

    def empty(name):
        shutil.rmtree(outs[name], ignore_errors=True)
        os.makedirs(outs[name])

    b = best_of(reps, {"detent": lambda: loop_detent(jobs, outs["detent"]),
                       "pedalboard": lambda: loop_pedalboard(jobs, outs["pedalboard"]),
                       "render": render}, before=empty)
    for name, out in outs.items():
        made = len(os.listdir(out))
        if made != len(jobs):
            sys.exit(f"python-vs-pedalboard: {name} wrote {made} of {len(jobs)} files")
    # Same work? The loop's file and the command line's for one job should agree to rounding.
    with AudioFile(os.path.join(outs["detent"], jobs[0][1])) as f:
        loop0 = f.read(f.frames)
    with AudioFile(os.path.join(outs["render"], jobs[0][1])) as f:
        cli0 = f.read(f.frames)
    notes.append(f"b. first job ({jobs[0][2]:.0f} Hz): loop vs render --manifest outputs differ by at most "
                 f"{float(np.abs(loop0 - cli0).max()):.2g}")
    label = f"b. {len(jobs):,} × 1 s files, Python loop"
    rows.append((f"{label}, Detent vs pedalboard", seconds(b["detent"]), seconds(b["pedalboard"]),
                 b["detent"] / b["pedalboard"], "≤ 0.5"))
    rows.append((f"{label} vs `detent render --manifest` ({os.cpu_count()} jobs)", seconds(b["detent"]),
                 seconds(b["render"]), b["detent"] / b["render"], "≤ 0.5"))

    # Where the loop's time goes: the same processing on arrays already in memory.
    print("b′. the same processing, arrays in memory", file=sys.stderr, flush=True)
    arrays = []
    for source, _, cutoff in jobs:
        with AudioFile(source) as f:
            arrays.append((f.read(f.frames), cutoff))

    def process_detent():
        c = detent_chain()
        for array, cutoff in arrays:
            c["cutoff"] = cutoff
            c.process(array)

    def process_pedalboard():
        bd = pedalboard_board()
        lowpass = bd[0]
        for array, cutoff in arrays:
            lowpass.cutoff_frequency_hz = cutoff
            bd(array, RATE)

    def io_only():
        for (source, name, _), _ in zip(jobs, arrays):
            with AudioFile(source) as f:
                y = f.read(f.frames)
            with AudioFile(os.path.join(outs["pedalboard"], name), "w", RATE, CHANNELS, bit_depth=32) as f:
                f.write(y)

    p = best_of(reps, {"detent": process_detent, "pedalboard": process_pedalboard, "io": io_only},
                before=lambda name: empty("pedalboard") if name == "io" else None)
    rows.append((f"b′. the same {len(jobs):,} × 1 s, processing only (arrays in memory)", seconds(p["detent"]),
                 seconds(p["pedalboard"]), p["detent"] / p["pedalboard"], "—"))
    notes.append(f"b′. reading + writing the {len(jobs):,} files alone (pedalboard.io, no processing): "
                 f"{seconds(p['io'])}; per file: Detent process {p['detent'] / len(jobs) * 1e6:.0f} µs, "
                 f"pedalboard {p['pedalboard'] / len(jobs) * 1e6:.0f} µs, I/O {p['io'] / len(jobs) * 1e6:.0f} µs")
    notes.append(f"b. with the same reading and writing in both loops, the least Detent-loop / pedalboard-loop "
                 f"could be (processing free) is I/O / pedalboard loop = {p['io'] / b['pedalboard']:.2f}")
    del arrays
    for out in outs.values():
        shutil.rmtree(out, ignore_errors=True)

    # c. Two threads: two chains, 30 s of stereo each, against the same two calls in a row.
    print("c. two threads", file=sys.stderr, flush=True)
    x1, x2 = noise(30, 11), noise(30, 12)

    def pair(make, call):
        one, two = make(), make()
        call(one, x1), call(two, x2)  # warm up at full size: the allocator's threshold settles

        def serial():
            call(one, x1)
            call(two, x2)

        def threaded():
            threads = [threading.Thread(target=call, args=(one, x1)), threading.Thread(target=call, args=(two, x2))]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        return serial, threaded

    d_serial, d_threaded = pair(detent_chain, lambda c, s: c.process(s))
    p_serial, p_threaded = pair(pedalboard_board, lambda bd, s: bd(s, RATE))
    c = best_of(quick, {"detent-threaded": d_threaded, "detent-serial": d_serial,
                       "pedalboard-threaded": p_threaded, "pedalboard-serial": p_serial})
    rows.append(("c. Detent: 2 × 30 s in two threads vs one after the other", seconds(c["detent-threaded"]),
                 seconds(c["detent-serial"]), c["detent-threaded"] / c["detent-serial"], "≤ 0.75"))
    rows.append(("c. (pedalboard, the same, for reference)", seconds(c["pedalboard-threaded"]),
                 seconds(c["pedalboard-serial"]), c["pedalboard-threaded"] / c["pedalboard-serial"], "—"))

    # d. Peak memory of row a, each in a fresh process.
    print("d. peak memory", file=sys.stderr, flush=True)
    peaks = {}
    for name in ("detent", "pedalboard"):
        runs = [json.loads(subprocess.run([sys.executable, __file__, "peak", name], check=True,
                                          capture_output=True, text=True).stdout) for _ in range(3)]
        peaks[name] = min(runs, key=lambda r: r["peak"])
    mib = lambda kib: f"{kib / 1024:.0f} MiB"
    rows.append(("d. peak RSS of a (fresh process: import, input, one call)", mib(peaks["detent"]["peak"]),
                 mib(peaks["pedalboard"]["peak"]), peaks["detent"]["peak"] / peaks["pedalboard"]["peak"], "≤ 1.0"))
    grow = {n: peaks[n]["peak"] - peaks[n]["before"] for n in peaks}
    rows.append(("d. … of which the call itself (peak − peak before it; output is 22 MiB)", mib(grow["detent"]),
                 mib(grow["pedalboard"]), grow["detent"] / max(grow["pedalboard"], 1), "—"))

    print()
    print(f"pedalboard {pedalboard.__version__}, numpy {np.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores; best of {reps} (files) and {quick} (in memory)")
    print()
    print("| measurement | Detent | peer | Detent / peer | goal |")
    print("|---|---|---|---|---|")
    for what, d, peer, ratio, goal in rows:
        print(f"| {what} | {d} | {peer} | {ratio:.2f}× | {goal} |")
    print()
    for note in notes:
        print(note)
    sys.stdout.flush()


def high_water():
    """This process's peak resident memory so far, KiB. (Not ru_maxrss: Linux carries that
    over from the parent across fork and exec, so a child of a big process reports the parent's.)"""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def peak(name):
    before_import = high_water()
    x = noise(60, 7)
    if name == "detent":
        processor = detent_chain()
        call = lambda: processor.process(x)
    else:
        processor = pedalboard_board()
        call = lambda: processor(x, RATE)
    before = high_water()
    y = call()
    after = high_water()
    assert y.shape == x.shape
    print(json.dumps({"start": before_import, "before": before, "peak": after}))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("bench")
    b.add_argument("--detent", required=True)
    b.add_argument("--files", required=True)
    b.add_argument("--scratch", required=True)
    b.add_argument("--reps", type=int, default=5)
    b.add_argument("--count", type=int, default=2000)
    p = sub.add_parser("peak")
    p.add_argument("name", choices=["detent", "pedalboard"])
    args = parser.parse_args()
    if args.command == "bench":
        bench(args)
    else:
        peak(args.name)


if __name__ == "__main__":
    main()
