"""Detent's Python package against Spotify's pedalboard, side by side in one run, on the
built-in lowpass + gain and pedalboard's LowpassFilter + Gain (a first-order, 6 dB/octave
filter: less work per sample than Detent's resonant biquad). Every time is the best (minimum)
of REPS rounds; the subjects of a row run in turn in each round, the order rotating from one
round to the next. Ratios are Detent / peer; the goals are the package's, not assertions.

  a. in memory: 60 s of stereo noise, cutoff 1 kHz, gain -6 dB, one call
       chain.process(x)   vs   Pedalboard([LowpassFilter(1000), Gain(-6)])(x, 48000)
  b. per call: ARRAYS (500) one-second stereo arrays, one call each, in a Python loop
  c. files: FILES (2,000) one-second stereo float WAVs (made once with detent.io, the same
     inputs for every subject), each read, given a random cutoff (seeded, log-uniform
     200 … 8000 Hz) and written:
       detent.render_many(jobs, workers=cores)
       pedalboard, a serial loop reading and writing with pedalboard.io.AudioFile
       pedalboard, the same in multiprocessing.Pool(cores) (the pool's start counted)
       Detent's Chain in the same serial loop (pedalboard.io for both), and, with --detent,
       `detent render --manifest` of the same jobs; then where a loop's time goes: the same
       processing over the files already in memory, and the reading and writing alone.
     Every subject's outputs are checked: one per job, 2 channels, 48,000 frames.
  d. isolation: ARRAYS one-second arrays through mda Overdrive + swh's lowpass (ladspa:1903),
     `Chain(..., isolate=True)` vs the same chain in process (skipped when not installed)
  e. two threads: two chains, 30 s each, in two threads vs one after the other; pedalboard alike
  f. peak memory (VmHWM) of a fresh process doing row a once, each library

    python Benchmarks/python-vs-pedalboard.py [--files N] [--arrays N] [--reps N] [--rows abcdef]
                                              [--folder DIR] [--detent BIN]
    python Benchmarks/python-vs-pedalboard.py --peak detent|pedalboard   (one run of row a)

Needs numpy, pedalboard (0.9.x; never a dependency of detent) and detent importable (or
DETENT_LIBRARY and PYTHONPATH=python/src). Scratch files go to /dev/shm unless BENCH_TMPDIR
says otherwise; --folder keeps the inputs there for the next run.
"""
import argparse
import json
import math
import multiprocessing
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

RATE = 48000
CHANNELS = 2
ISOLATED = ["http://drobilla.net/plugins/mda/Overdrive", "ladspa:1903"]


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
    """subjects: {name: function}. Runs each once per round, in rotating order, and returns
    {name: best seconds}. `before(name)` runs untimed before each call."""
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


# ---------------------------------------------------------------- files for row c

def make_files(folder, count):
    """COUNT one-second float stereo WAVs of noise (each its own), written with detent.io and
    reused: only missing ones are made (a smaller COUNT uses the first ones)."""
    from detent.io import AudioFile

    stamp = os.path.join(folder, ".made")
    want = f"{RATE} Hz, {CHANNELS} channels, float, noise seeded 1000 + index, detent.io\n"
    if not (os.path.isfile(stamp) and open(stamp).read() == want):
        if os.path.isdir(folder) and os.listdir(folder) and not os.path.isfile(stamp):
            sys.exit(f"python-vs-pedalboard: {folder} holds files this script did not make: give an empty folder")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        with open(stamp, "w") as f:
            f.write(want)
    paths = [os.path.join(folder, f"take{i:05d}.wav") for i in range(count)]
    missing = [i for i, path in enumerate(paths) if not os.path.isfile(path)]
    if missing:
        print(f"making {len(missing)} one-second files in {folder}…", file=sys.stderr, flush=True)
    for i in missing:  # detent.io writes whole files only, so a stopped run leaves none half made
        with AudioFile(paths[i], "w", samplerate=RATE, num_channels=CHANNELS, subtype="float") as f:
            f.write(noise(1, 1000 + i))


def jobs_for(folder, count, seed=1):
    """(input path, output name, cutoff) per file; cutoffs log-uniform 200 … 8000 Hz, seeded."""
    rng = random.Random(seed)
    low, high = math.log(200), math.log(8000)
    return [(os.path.join(folder, f"take{i:05d}.wav"), f"take{i:05d}.wav", math.exp(rng.uniform(low, high)))
            for i in range(count)]


def render_many_detent(jobs, out):
    import detent

    results = detent.render_many(
        [{"input": source, "output": os.path.join(out, name), "values": {"cutoff": cutoff}}
         for source, name, cutoff in jobs],
        workers=os.cpu_count(), plugins=["builtin"], values={"gain": "-6dB"}, subtype="float")
    failed = [r for r in results if "error" in r]
    if failed:
        sys.exit(f"python-vs-pedalboard: render_many: {len(failed)} jobs failed, the first: {failed[0]['error']}")


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


_board = None


def pool_pedalboard_file(job):
    """One file in a pool worker: the worker's board made once, the cutoff set per file."""
    from pedalboard.io import AudioFile

    global _board
    if _board is None:
        _board = pedalboard_board()
    source, target, cutoff = job
    with AudioFile(source) as f:
        x = f.read(f.frames)
    _board[0].cutoff_frequency_hz = cutoff
    y = _board(x, RATE)
    with AudioFile(target, "w", RATE, CHANNELS, bit_depth=32) as f:
        f.write(y)


def pool_pedalboard(jobs, out):
    with multiprocessing.Pool(os.cpu_count()) as pool:
        pool.map(pool_pedalboard_file, [(source, os.path.join(out, name), cutoff) for source, name, cutoff in jobs])


def write_manifest(path, jobs, out):
    with open(path, "w") as f:
        for source, name, cutoff in jobs:
            f.write(json.dumps({"input": source, "output": os.path.join(out, name),
                                "values": {"cutoff": cutoff, "gain": -6}}) + "\n")


def check_outputs(name, out, jobs):
    """Every job's output is there, stereo, one second long."""
    from detent.io import AudioFile

    for _, file, _ in jobs:
        path = os.path.join(out, file)
        if not os.path.isfile(path):
            sys.exit(f"python-vs-pedalboard: {name} did not write {path}")
        with AudioFile(path) as f:
            if (f.num_channels, f.frames) != (CHANNELS, RATE):
                sys.exit(f"python-vs-pedalboard: {name}: {path} has {f.num_channels} channels, {f.frames} frames")
    made = len(os.listdir(out))
    if made != len(jobs):
        sys.exit(f"python-vs-pedalboard: {name} wrote {made} files for {len(jobs)} jobs")


# ---------------------------------------------------------------- the run

def bench(args):
    import detent
    import pedalboard
    from pedalboard.io import AudioFile

    reps = args.reps
    quick = 4 * reps  # rows a and e take a fraction of a second a run
    rows = []  # (measurement, detent, peer, ratio, goal)
    notes = []
    cores = os.cpu_count()

    def seconds(s):
        return f"{s * 1000:.0f} ms" if s < 1 else f"{s:.2f} s"

    tmp = os.environ.get("BENCH_TMPDIR") or ("/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
    scratch = tempfile.mkdtemp(prefix="python-vs-pedalboard-", dir=tmp)
    try:
        if "a" in args.rows:
            print("a. 60 s stereo in memory", file=sys.stderr, flush=True)
            x = noise(60, 7)
            chain, board = detent_chain(), pedalboard_board()
            chain.process(x[:, :RATE]), board(x[:, :RATE], RATE)  # warm up: libraries loaded, pages touched
            y_detent, y_board = chain.process(x), board(x, RATE)
            assert y_detent.shape == x.shape and y_board.shape == x.shape, (y_detent.shape, y_board.shape)
            a = best_of(quick, {"detent": lambda: chain.process(x), "pedalboard": lambda: board(x, RATE)})
            rows.append(("a. 60 s stereo in memory, `chain.process(x)` vs `board(x, 48000)`", seconds(a["detent"]),
                         seconds(a["pedalboard"]), a["detent"] / a["pedalboard"], "≤ 1.0"))
            notes.append(f"a. throughput: Detent {60 / a['detent']:.0f}× real time, pedalboard "
                         f"{60 / a['pedalboard']:.0f}× real time")
            chain.close()
            del x, y_detent, y_board, chain, board

        if "b" in args.rows:
            print(f"b. {args.arrays} one-second arrays, one call each", file=sys.stderr, flush=True)
            arrays = [noise(1, 5000 + i) for i in range(args.arrays)]
            chain, board = detent_chain(), pedalboard_board()
            chain.process(arrays[0]), board(arrays[0], RATE)

            def calls_detent():
                for array in arrays:
                    chain.process(array)

            def calls_pedalboard():
                for array in arrays:
                    board(array, RATE)

            b = best_of(reps, {"detent": calls_detent, "pedalboard": calls_pedalboard})
            rows.append((f"b. {args.arrays} × 1 s stereo arrays in a Python loop, a call each", seconds(b["detent"]),
                         seconds(b["pedalboard"]), b["detent"] / b["pedalboard"], "≤ 0.6"))
            notes.append(f"b. per one-second call: Detent {b['detent'] / args.arrays * 1e6:.0f} µs, "
                         f"pedalboard {b['pedalboard'] / args.arrays * 1e6:.0f} µs")
            chain.close()
            del arrays, chain, board

        if "c" in args.rows:
            count = args.files
            print(f"c. {count} files", file=sys.stderr, flush=True)
            folder = args.folder or os.path.join(scratch, "inputs")
            make_files(folder, count)
            jobs = jobs_for(folder, count)
            for source, _, _ in jobs:  # the inputs in the page cache for every subject alike
                with open(source, "rb") as f:
                    f.read()
            names = ["render_many", "pedalboard", "pedalboard-pool", "detent-loop"] + (["cli"] if args.detent else [])
            outs = {name: os.path.join(scratch, f"out-{name}") for name in names}

            def empty(name):
                shutil.rmtree(outs[name], ignore_errors=True)
                os.makedirs(outs[name])

            subjects = {"render_many": lambda: render_many_detent(jobs, outs["render_many"]),
                        "pedalboard": lambda: loop_pedalboard(jobs, outs["pedalboard"]),
                        "pedalboard-pool": lambda: pool_pedalboard(jobs, outs["pedalboard-pool"]),
                        "detent-loop": lambda: loop_detent(jobs, outs["detent-loop"])}
            if args.detent:
                manifest = os.path.join(scratch, "jobs.jsonl")
                write_manifest(manifest, jobs, outs["cli"])
                command = [args.detent, "render", "--manifest", manifest, "--quiet", "--force"]
                subjects["cli"] = lambda: subprocess.run(command, check=True)
            c = best_of(reps, subjects, before=empty)
            for name, out in outs.items():
                check_outputs(name, out, jobs)
            # Same work? render_many's file and the Python loop's for one job agree to rounding.
            with AudioFile(os.path.join(outs["detent-loop"], jobs[0][1])) as f:
                loop0 = f.read(f.frames)
            with AudioFile(os.path.join(outs["render_many"], jobs[0][1])) as f:
                many0 = f.read(f.frames)
            notes.append(f"c. every subject wrote {count:,} stereo one-second files; first job ({jobs[0][2]:.0f} Hz): "
                         f"render_many vs the Chain loop differ by at most {float(np.abs(loop0 - many0).max()):.2g}")
            label = f"c. {count:,} × 1 s files read, processed, written"
            rows.append((f"{label}: `detent.render_many` ({cores} workers) vs pedalboard's serial loop",
                         seconds(c["render_many"]), seconds(c["pedalboard"]), c["render_many"] / c["pedalboard"],
                         "≤ 0.6"))
            rows.append((f"{label}: `detent.render_many` vs pedalboard in `multiprocessing.Pool({cores})`",
                         seconds(c["render_many"]), seconds(c["pedalboard-pool"]),
                         c["render_many"] / c["pedalboard-pool"], "≤ 0.9"))
            rows.append((f"{label}: Chain in the serial loop (pedalboard.io for both) vs pedalboard's",
                         seconds(c["detent-loop"]), seconds(c["pedalboard"]), c["detent-loop"] / c["pedalboard"],
                         "≤ 0.5"))
            if args.detent:
                rows.append((f"{label}: Chain in the serial loop vs `detent render --manifest` ({cores} jobs)",
                             seconds(c["detent-loop"]), seconds(c["cli"]), c["detent-loop"] / c["cli"], "≤ 0.5"))

            # Where the loop's time goes: the same processing on arrays already in memory.
            print("c′. the same processing, arrays in memory", file=sys.stderr, flush=True)
            arrays = []
            for source, _, cutoff in jobs:
                with AudioFile(source) as f:
                    arrays.append((f.read(f.frames), cutoff))

            def process_detent():
                chain = detent_chain()
                for array, cutoff in arrays:
                    chain["cutoff"] = cutoff
                    chain.process(array)

            def process_pedalboard():
                board = pedalboard_board()
                lowpass = board[0]
                for array, cutoff in arrays:
                    lowpass.cutoff_frequency_hz = cutoff
                    board(array, RATE)

            def io_only():
                for source, name, _ in jobs:
                    with AudioFile(source) as f:
                        y = f.read(f.frames)
                    with AudioFile(os.path.join(outs["pedalboard"], name), "w", RATE, CHANNELS, bit_depth=32) as f:
                        f.write(y)

            p = best_of(reps, {"detent": process_detent, "pedalboard": process_pedalboard, "io": io_only},
                        before=lambda name: empty("pedalboard") if name == "io" else None)
            rows.append((f"c′. the same {count:,} × 1 s, processing only (arrays in memory, cutoff set each)",
                         seconds(p["detent"]), seconds(p["pedalboard"]), p["detent"] / p["pedalboard"], "—"))
            notes.append(f"c′. reading + writing the {count:,} files alone (pedalboard.io, no processing): "
                         f"{seconds(p['io'])}; per file: Detent process {p['detent'] / count * 1e6:.0f} µs, "
                         f"pedalboard {p['pedalboard'] / count * 1e6:.0f} µs, I/O {p['io'] / count * 1e6:.0f} µs")
            notes.append(f"c. with the same reading and writing in both serial loops, the least Chain loop / "
                         f"pedalboard loop could be (processing free) is I/O / pedalboard loop = "
                         f"{p['io'] / c['pedalboard']:.2f}")
            del arrays
            for out in outs.values():
                shutil.rmtree(out, ignore_errors=True)

        if "d" in args.rows:
            print(f"d. isolation: {args.arrays} one-second arrays", file=sys.stderr, flush=True)
            try:
                chains = {"isolated": detent.Chain(ISOLATED, sample_rate=RATE, channels=CHANNELS, isolate=True),
                          "in-process": detent.Chain(ISOLATED, sample_rate=RATE, channels=CHANNELS)}
            except detent.PluginNotFound as missing:
                notes.append(f"d. skipped: {missing} (mda-lv2 and swh-plugins are needed)")
                chains = None
            if chains:
                arrays = [noise(1, 9000 + i) for i in range(args.arrays)]

                def calls(chain):
                    def run():
                        for array in arrays:
                            chain.process(array)
                    return run

                def warm(name):  # the processes started, the plug-ins loaded
                    chains[name].process(arrays[0])

                d = best_of(reps, {name: calls(chain) for name, chain in chains.items()}, before=warm)
                rows.append((f"d. {args.arrays} × 1 s stereo arrays through mda Overdrive + ladspa:1903, "
                             "`isolate=True` vs in process", seconds(d["isolated"]), seconds(d["in-process"]),
                             d["isolated"] / d["in-process"], "≤ 3"))
                notes.append(f"d. per one-second array: isolated {d['isolated'] / args.arrays * 1e3:.2f} ms, "
                             f"in process {d['in-process'] / args.arrays * 1e3:.2f} ms")
                for chain in chains.values():
                    chain.close()
                del arrays

        if "e" in args.rows:
            print("e. two threads", file=sys.stderr, flush=True)
            x1, x2 = noise(30, 11), noise(30, 12)

            def pair(make, call):
                one, two = make(), make()
                call(one, x1), call(two, x2)  # warm up at full size: the allocator's threshold settles

                def serial():
                    call(one, x1)
                    call(two, x2)

                def threaded():
                    threads = [threading.Thread(target=call, args=(one, x1)),
                               threading.Thread(target=call, args=(two, x2))]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join()
                return serial, threaded

            d_serial, d_threaded = pair(detent_chain, lambda c, s: c.process(s))
            p_serial, p_threaded = pair(pedalboard_board, lambda bd, s: bd(s, RATE))
            e = best_of(quick, {"detent-threaded": d_threaded, "detent-serial": d_serial,
                                "pedalboard-threaded": p_threaded, "pedalboard-serial": p_serial})
            rows.append(("e. Detent: 2 × 30 s in two threads vs one after the other", seconds(e["detent-threaded"]),
                         seconds(e["detent-serial"]), e["detent-threaded"] / e["detent-serial"], "≤ 0.75"))
            rows.append(("e. (pedalboard, the same, for reference)", seconds(e["pedalboard-threaded"]),
                         seconds(e["pedalboard-serial"]), e["pedalboard-threaded"] / e["pedalboard-serial"], "—"))

        if "f" in args.rows:
            print("f. peak memory", file=sys.stderr, flush=True)
            peaks = {}
            for name in ("detent", "pedalboard"):
                runs = [json.loads(subprocess.run([sys.executable, __file__, "--peak", name], check=True,
                                                  capture_output=True, text=True).stdout) for _ in range(3)]
                peaks[name] = min(runs, key=lambda r: r["peak"])
            mib = lambda kib: f"{kib / 1024:.0f} MiB"
            rows.append(("f. peak RSS of row a (fresh process: import, input, one call)", mib(peaks["detent"]["peak"]),
                         mib(peaks["pedalboard"]["peak"]), peaks["detent"]["peak"] / peaks["pedalboard"]["peak"],
                         "≤ 1.0"))
            grow = {n: peaks[n]["peak"] - peaks[n]["before"] for n in peaks}
            rows.append(("f. … of which the call itself (peak − peak before it; output is 22 MiB)",
                         mib(grow["detent"]), mib(grow["pedalboard"]), grow["detent"] / max(grow["pedalboard"], 1),
                         "—"))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print()
    print(f"detent {detent.__version__}, pedalboard {pedalboard.__version__}, numpy {np.__version__}, "
          f"Python {sys.version.split()[0]}, {cores} cores; best of {reps} rotating rounds ({quick} for a and e); "
          f"load average at the end {os.getloadavg()[0]:.2f}")
    print()
    print("| measurement | Detent | peer | Detent / peer | goal | met |")
    print("|---|---|---|---|---|---|")
    for what, d, peer, ratio, goal in rows:
        met = "—" if goal == "—" else ("yes" if ratio <= float(goal.split()[-1]) else "no")
        print(f"| {what} | {d} | {peer} | {ratio:.2f}× | {goal} | {met} |")
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=2000, help="one-second files for row c (default 2000)")
    parser.add_argument("--arrays", type=int, default=500, help="one-second arrays for rows b and d (default 500)")
    parser.add_argument("--reps", type=int, default=5, help="rounds; rows a and e run 4× as many (default 5)")
    parser.add_argument("--rows", default="abcdef", help="which rows to run (default abcdef)")
    parser.add_argument("--folder", help="where the input files are made and kept (default: a temporary folder)")
    parser.add_argument("--detent", help="the detent binary, to time `detent render --manifest` in row c too")
    parser.add_argument("--peak", choices=["detent", "pedalboard"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peak:
        peak(args.peak)
    else:
        if args.files < 1 or args.arrays < 1 or args.reps < 1:
            parser.error("--files, --arrays and --reps take a whole number from 1")
        bench(args)


if __name__ == "__main__":
    main()
