"""Chains made with ``isolate=True``: each plug-in in a process of its own, served by this
interpreter (``python -m detent._slot``). They sound as in-process chains do, and a plug-in
that crashes raises ``detent.PluginCrashed`` instead of ending the interpreter."""
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import detent
from conftest import OVERDRIVE, ROOT, noise

FAULT_FOLDER = os.path.join(ROOT, "Tests", "JackHostTests", "FaultPlugin")


def test_an_isolated_chain_sounds_as_one_in_process():
    references = ["builtin", OVERDRIVE, "ladspa:1903"]
    x = noise(seed=5)
    here, there = detent.Chain(references), detent.Chain(references, isolate=True)
    for chain in (here, there):
        chain["builtin.cutoff"] = "2k"
        chain["overdrive.drive"] = 0.6
    y = here.process(x)
    z = there.process(x)
    assert y.shape == z.shape
    assert np.abs(y).max() > 0.01
    assert np.array_equal(y, z)


def _sandbox_pids(name):
    """This interpreter's children serving sandbox `name`."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                line = f.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and f'{{"sandbox":"{name}"'.encode() in line:
            found.append(int(pid))
    return found


def _sandboxes(name):
    return len(_sandbox_pids(name))


def _sleeps(pid):
    """How many times process `pid` has slept (its voluntary context switches, all threads)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as f:
            total += sum(int(line.split()[1]) for line in f if line.startswith("voluntary_ctxt_switches"))
    return total


def test_a_together_sandbox_sounds_as_in_process_from_one_process():
    references = ["drive=" + OVERDRIVE, "builtin", "low=ladspa:1903", "again=" + OVERDRIVE]
    x = noise(seed=7)
    here, there = detent.Chain(references), detent.Chain(references, isolate="together")
    for chain in (here, there):
        chain["drive.drive"] = 0.4
        chain["again.drive"] = 0.7
    y = here.process(x)
    z = there.process(x)
    assert np.abs(y).max() > 0.01
    assert np.array_equal(y, z)
    # While a stream runs, one process serves all three plug-ins.
    there.process(x, reset=False)
    assert _sandboxes("together") == 1


def test_consecutive_slots_of_a_sandbox_run_on_one_request():
    # Three isolated plug-ins in a row, in one sandbox: each block wakes its process once (one
    # request for the three, each output handed on in the sandbox), not once per plug-in, and
    # the sound is the in-process chain's to the bit.
    references = ["a=" + OVERDRIVE, "low=ladspa:1903", "b=" + OVERDRIVE]
    x = noise(frames=480_000, seed=11)
    here, there = detent.Chain(references), detent.Chain(references, isolate="together")
    for chain in (here, there):
        chain["a.drive"] = 0.5
        chain["b.drive"] = 0.8
    y = here.process(x)
    there.process(x[:, :4096])  # the process started, its plug-ins made
    pids = _sandbox_pids("together")
    assert len(pids) == 1
    before = _sleeps(pids[0])
    z = there.process(x)
    slept = _sleeps(pids[0]) - before
    blocks = -(-x.shape[1] // 4096)
    assert np.abs(y).max() > 0.01
    assert np.array_equal(y, z)
    # Once a block (a few more for the process's own threads); three a block if each slot
    # were asked apart.
    assert slept <= blocks * 1.5 + 10, f"{slept} sleeps for {blocks} blocks"


@pytest.mark.parametrize("isolate", ["together", True])
def test_values_that_glide_between_calls_sound_as_in_process(isolate):
    # A glide cuts the plug-ins' runs at their control grid: a sandbox's slots in a row are then
    # asked one by one, and chained again once the values are still; the sound is the same.
    references = ["a=" + OVERDRIVE, "low=ladspa:1903", "b=" + OVERDRIVE]
    x = noise(frames=96_000, seed=3)
    outputs = []
    for chain in (detent.Chain(references), detent.Chain(references, isolate=isolate)):
        first = chain.process(x[:, :48_000], reset=False)
        chain["a.drive"] = 0.9
        chain["low.cutoff_frequency"] = 800
        outputs.append(np.concatenate([first, chain.process(x[:, 48_000:], reset=False)], axis=1))
    assert np.abs(outputs[0]).max() > 0.01
    assert np.array_equal(outputs[0], outputs[1])


ABSURD_IN_THE_MIDDLE = textwrap.dedent("""\
    import numpy as np, detent
    x = (np.sin(np.arange(48000) / 20) * 0.25).astype(np.float32)[None, :]
    outputs = []
    for isolate in (False, "together"):
        chain = detent.Chain(["f1=urn:detent:test:faults", "f2=urn:detent:test:faults", "f3=urn:detent:test:faults"],
                             channels=1, isolate=isolate)
        chain["f1.gain"] = 0.5
        chain["f3.gain"] = 0.5
        chain["f2.fault"] = 6
        outputs.append(chain.process(x))
        print("absurd", sorted(chain.last_report["absurdOutput"].items()))
    print("equal", np.array_equal(outputs[0], outputs[1]))
    print("peak", round(float(np.abs(outputs[1]).max()), 4))
    """)


def test_absurd_output_inside_a_sandbox_run_is_that_slots_alone(fault_plugins):
    # The middle plug-in of three in one sandbox puts out 1e30: it passes its input on, the
    # others play (0.25 × 0.5 × 0.5), and it is named, as in process.
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", ABSURD_IN_THE_MIDDLE], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "LV2_PATH": fault_plugins})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "absurd [('f2', 48000)]", done.stdout
    assert lines[1] == lines[0], done.stdout
    assert lines[2:] == ["equal True", "peak 0.0625"], done.stdout


def _script_lines(script, fault_plugins, *arguments):
    """What `script` printed, run by a new interpreter with the fault plug-in on LV2_PATH, line
    by line (it must end well)."""
    done = subprocess.run([sys.executable, "-c", script, *arguments], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LV2_PATH": fault_plugins})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


# What the scripts below share: a call that says how it ended, "no error" or "crashed SECONDS
# MESSAGE" (whole seconds, from the call's start).
TIMED = """\
import time, numpy as np, detent

def timed(chain, x):
    started = time.monotonic()
    try:
        chain.process(x)
        print("no error")
    except detent.PluginCrashed as error:
        print("crashed", round(time.monotonic() - started), error)
"""


HANG_IN_THE_MIDDLE = TIMED + textwrap.dedent("""\
    import time, numpy as np, detent
    x = np.full((1, 48000), 0.25, dtype=np.float32)
    chain = detent.Chain(["f1=urn:detent:test:faults", "f2=urn:detent:test:faults", "f3=urn:detent:test:faults"],
                         channels=1, isolate="together", timeout=1)
    chain.process(x)
    chain["f2.fault"] = 3
    timed(chain, x)
    chain["f2.fault"] = 0
    print("after", float(np.abs(chain.process(x)).max()))
    """)


def test_a_hang_inside_a_sandbox_run_names_its_slot(fault_plugins):
    lines = _script_lines(HANG_IN_THE_MIDDLE, fault_plugins)
    assert lines[0].startswith("crashed ") and "f2: stopped answering" in lines[0], lines
    assert int(lines[0].split()[1]) <= 4, lines
    assert lines[1] == "after 0.25", lines


def test_sandbox_groups_are_checked_against_the_chain():
    with pytest.raises(detent.InvalidValue, match="isolate: no slot 'verb' in the chain"):
        detent.Chain(["drive=" + OVERDRIVE, "builtin"], isolate="drive+verb")
    with pytest.raises(detent.InvalidValue, match="isolate: slot 'drive' is in two groups"):
        detent.Chain(["drive=" + OVERDRIVE, "builtin"], isolate="drive,drive")
    with pytest.raises(detent.InvalidValue, match="isolate 3"):
        detent.Chain(["builtin"], isolate=3)


@pytest.fixture(scope="module")
def fault_plugins(tmp_path_factory):
    """An LV2 bundle of the tests' plug-in that misbehaves on command (`fault`: 1 crashes,
    2 aborts), built with the C compiler from the source and description the Swift tests
    build it from; its folder, for LV2_PATH."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    assert compiler, "a C compiler (Scripts/setup installs one)"
    folder = tmp_path_factory.mktemp("plugins")
    bundle = folder / "detent-faults.lv2"
    bundle.mkdir()
    subprocess.run([compiler, "-O1", "-shared", "-fPIC", "-o", str(bundle / "fault-plugin.so"),
                    os.path.join(FAULT_FOLDER, "fault-plugin.c")], check=True)
    for name in ("manifest.ttl", "plugin.ttl"):
        shutil.copy(os.path.join(FAULT_FOLDER, name), bundle / name)
    return str(folder)


# Run in an interpreter of its own: LV2_PATH is read once per process, when plug-ins are first looked at.
CRASHING = textwrap.dedent("""\
    import numpy as np, detent
    x = np.full((1, 4800), 0.25, dtype=np.float32)
    chain = detent.Chain(["builtin", "f=urn:detent:test:faults"], channels=1, isolate=True)
    chain["builtin.cutoff"] = "20k"
    before = chain.process(x)
    print("before", float(np.abs(before).max()))
    for fault in (1, 2):
        chain["f.fault"] = fault
        try:
            chain.process(x)
            print("no error")
        except detent.PluginCrashed as error:
            print("crashed", isinstance(error, detent.Error), error)
    chain["f.fault"] = 0
    after = chain.process(x)
    print("after", float(np.abs(after).max()))
    """)


def test_a_crashing_plugin_raises_and_the_interpreter_lives_on(fault_plugins):
    lines = _script_lines(CRASHING, fault_plugins)
    assert lines[0].startswith("before ") and float(lines[0].split()[1]) > 0.2
    assert lines[1] == "crashed True f: crashed (Segmentation fault)"
    assert lines[2].startswith("crashed True f: crashed (") and "Abort" in lines[2]
    # The next call starts afresh, in new processes.
    assert lines[3].startswith("after ") and float(lines[3].split()[1]) > 0.2


FIRST_CALL = TIMED + textwrap.dedent("""\
    import sys, time, numpy as np, detent
    x = np.full((1, 4800), 0.25, dtype=np.float32)
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else None
    chain = detent.Chain(["builtin", "f=urn:detent:test:faults"], channels=1, isolate=True, timeout=timeout)
    chain["f.fault"] = int(sys.argv[1])
    timed(chain, x)
    """)


@pytest.mark.parametrize("fault, timeout, words, least, most", [
    (1, None, "f: crashed (Segmentation fault)", 0, 5),
    # Offline a run may take 10 s before it counts as hung (a slow plug-in is not a hung one),
    # or what timeout= says.
    (3, None, "f: stopped answering (a run took over 10 s)", 9, 15),
    (3, "1", "f: stopped answering (a run took over 1 s)", 0, 4),
    (5, None, "did not start within 10 s", 9, 15),
    (5, "2", "did not start within 2 s", 1, 5),
], ids=["crash", "hang-in-a-run", "hang-in-a-run-timeout", "hang-while-starting", "hang-while-starting-timeout"])
def test_a_fault_at_the_first_call_raises_plugin_crashed_in_bounded_time(fault_plugins, fault, timeout, words, least, most):
    said = "\n".join(_script_lines(FIRST_CALL, fault_plugins, str(fault), *([timeout] if timeout else []))).strip()
    assert said.startswith("crashed ") and words in said, said
    assert least <= int(said.split()[1]) <= most, said


SLOW = textwrap.dedent("""\
    import numpy as np, detent
    x = np.full((1, 9600), 0.25, dtype=np.float32)
    # 400 ms a run: far slower than its audio, well within the offline deadline.
    chain = detent.Chain(["f=urn:detent:test:faults"], channels=1, isolate=True)
    chain["fault"] = 7
    print("equal", np.array_equal(chain.process(x), x))
    hasty = detent.Chain(["f=urn:detent:test:faults"], channels=1, isolate=True, timeout=0.2)
    hasty["fault"] = 7
    try:
        hasty.process(x)
        print("no error")
    except detent.PluginCrashed as error:
        print("crashed", error)
    """)


def test_a_slow_plugin_is_not_a_hung_one_unless_the_timeout_says_so(fault_plugins):
    lines = _script_lines(SLOW, fault_plugins)
    assert lines[0] == "equal True", lines
    assert lines[1].startswith("crashed ") and "stopped answering (a run took over 200 ms)" in lines[1], lines


def test_a_timeout_is_checked():
    with pytest.raises(detent.InvalidValue, match="applies to an isolated chain"):
        detent.Chain(["builtin"], timeout=5)
    for bad in (0, -1, float("nan"), 1e9, "5", True):
        with pytest.raises(detent.InvalidValue, match="timeout"):
            detent.Chain([OVERDRIVE], isolate=True, timeout=bad)


def _interrupted(chain, fault, frames):
    """A child's script: ``chain`` made, its fault set to ``fault``, ``frames`` frames processed
    until Ctrl-C, then a short call at fault 0. It prints "processing" before the call,
    "interrupted ELAPSED AT" (seconds, and the monotonic clock's reading, which every process
    shares) when interrupted, and "after PEAK"."""
    return textwrap.dedent(f"""\
        import time, numpy as np, detent
        x = np.full((1, {frames}), 0.25, dtype=np.float32)
        chain = {chain}
        chain["fault"] = {fault}
        print("processing", flush=True)
        started = time.monotonic()
        try:
            chain.process(x)
            print("no interrupt", flush=True)
        except KeyboardInterrupt:
            print("interrupted", round(time.monotonic() - started, 1), repr(time.monotonic()), flush=True)
        chain["fault"] = 0
        print("after", float(np.abs(chain.process(x[:, :4800])).max()), flush=True)
        """)


INTERRUPTED = _interrupted('detent.Chain(["f=urn:detent:test:faults"], channels=1, isolate=True, timeout=60)', 3, 4800)



def _spinning_grandchild(pid):
    """A child process of ``pid``'s children that has used over 0.3 s of CPU (the slot's
    process spinning in its plug-in's run), or None."""
    for child in subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split():
        try:
            with open(f"/proc/{child}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") > 0.3:
            return int(child)
    return None


def test_ctrl_c_ends_a_call_waiting_on_a_hung_plugin_at_once(fault_plugins):
    import signal
    import time
    child = subprocess.Popen([sys.executable, "-c", INTERRUPTED], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "LV2_PATH": fault_plugins})
    try:
        assert child.stdout.readline().strip() == "processing"
        # The call waits on the slot's process, which spins in its run (its deadline: 60 s).
        deadline = time.monotonic() + 30
        while (spinning := _spinning_grandchild(child.pid)) is None:
            assert time.monotonic() < deadline, "the slot's process never spun"
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    lines = out.splitlines()
    assert lines[0].startswith("interrupted "), (out, err)
    assert float(lines[0].split()[1]) < 5, lines[0]
    # The hung process was stopped, and the next call started afresh in a new one.
    assert not os.path.exists(f"/proc/{spinning}") or open(f"/proc/{spinning}/stat").read().split(")")[1].split()[0] == "Z"
    assert lines[1].startswith("after ") and float(lines[1].split()[1]) > 0.2, (out, err)


def test_an_isolated_chain_keeps_its_processes_from_one_signal_to_the_next():
    x = noise(frames=24_000, seed=61)
    references = [OVERDRIVE, "ladspa:1903"]

    def children():
        return set(subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout.split())

    def blocks(pids):
        """The slots' shared blocks each process has mapped, where."""
        found = []
        for pid in pids:
            with open(f"/proc/{pid}/maps") as maps:
                found.append(sorted(line.split()[0] for line in maps if "detent-slot" in line))
        return found

    before = children()  # other tests' slot processes, if any still run
    chain = detent.Chain(references, isolate=True)
    alone = detent.Chain(references)
    seen, mapped = [], []
    for _ in range(5):
        # Each whole signal starts afresh (new plug-in instances), in the same processes, and
        # in the same slots: each plug-in is made anew on the block it had.
        assert np.array_equal(chain.process(x), alone.process(x))
        seen.append(sorted(children() - before))
        mapped.append(blocks(seen[-1]))
    assert len(seen[0]) == 2 and all(pids == seen[0] for pids in seen), seen
    assert all(len(each) == 2 for each in mapped[0]), mapped[0]  # its block and its sandbox's words
    assert all(each == mapped[0] for each in mapped), mapped


MADE_ANEW = TIMED + textwrap.dedent("""\
    import time, numpy as np, detent
    x = np.full((1, 4800), 0.25, dtype=np.float32)
    chain = detent.Chain(["builtin", "f=urn:detent:test:faults"], channels=1, isolate=True, timeout=2)
    print("first", np.abs(chain.process(x)).max() > 0.1)
    # The next whole signal makes the plug-in anew, starting at 5: it hangs while starting.
    chain["f.fault"] = 5
    timed(chain, x)
    chain["f.fault"] = 0
    print("after", np.abs(chain.process(x)).max() > 0.1)
    """)


def test_a_plugin_that_hangs_when_made_anew_for_a_whole_signal_raises_in_bounded_time(fault_plugins):
    lines = _script_lines(MADE_ANEW, fault_plugins)
    assert lines[0] == "first True", lines
    assert lines[1].startswith("crashed ") and "did not start within 2 s" in lines[1], lines
    assert 1 <= int(lines[1].split()[1]) <= 5, lines
    # The next call starts afresh, in a new process.
    assert lines[2] == "after True", lines


# Ten seconds of audio through a plug-in that takes 400 ms a run, in this process: about 47 s
# of work, over 5 s of audio, so the call runs where Ctrl-C reaches it.
IN_PROCESS_INTERRUPTED = _interrupted('detent.Chain(["urn:detent:test:faults"], channels=1)', 7, 480_000)



def _sleeping_in_a_run(pid):
    """Whether a thread of ``pid`` sleeps in a nanosleep (the plug-in's 400 ms run)."""
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/wchan") as wchan:
                if "nanosleep" in wchan.read():
                    return True
        except OSError:
            continue
    return False


def test_ctrl_c_ends_a_long_call_in_process_at_its_next_piece(fault_plugins):
    import signal
    import time
    child = subprocess.Popen([sys.executable, "-c", IN_PROCESS_INTERRUPTED], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "LV2_PATH": fault_plugins})
    try:
        assert child.stdout.readline().strip() == "processing"
        # The call is under way once one of the child's threads sleeps in the plug-in's run.
        deadline = time.monotonic() + 30
        while not _sleeping_in_a_run(child.pid):
            assert time.monotonic() < deadline, "the plug-in never ran"
            time.sleep(0.02)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    lines = out.splitlines()
    assert lines and lines[0].startswith("interrupted "), (out, err)
    # A piece is at most a 4096-frame block: the run under way and at most one more, 400 ms
    # each, after the signal (the same clock in both processes), where the whole call is 47 s.
    assert float(lines[0].split()[2]) - sent < 2, (lines[0], sent)
    assert len(lines) > 1 and lines[1].startswith("after ") and float(lines[1].split()[1]) > 0.2, (out, err)

