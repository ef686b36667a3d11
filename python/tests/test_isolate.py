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


def _sandboxes(name):
    """This interpreter's children serving sandbox `name`."""
    found = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                line = f.read()
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and f'{{"sandbox":"{name}"'.encode() in line:
            found += 1
    return found


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
    done = subprocess.run([sys.executable, "-c", CRASHING], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LV2_PATH": fault_plugins})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("before ") and float(lines[0].split()[1]) > 0.2
    assert lines[1] == "crashed True f: crashed (Segmentation fault)"
    assert lines[2].startswith("crashed True f: crashed (") and "Abort" in lines[2]
    # The next call starts afresh, in new processes.
    assert lines[3].startswith("after ") and float(lines[3].split()[1]) > 0.2


FIRST_CALL = textwrap.dedent("""\
    import sys, time, numpy as np, detent
    x = np.full((1, 4800), 0.25, dtype=np.float32)
    chain = detent.Chain(["builtin", "f=urn:detent:test:faults"], channels=1, isolate=True)
    chain["f.fault"] = int(sys.argv[1])
    started = time.monotonic()
    try:
        chain.process(x)
        print("no error")
    except detent.PluginCrashed as error:
        print("crashed", round(time.monotonic() - started), error)
    """)


@pytest.mark.parametrize("fault, words, most", [
    (1, "f: crashed (Segmentation fault)", 5),
    (3, "f: stopped answering", 5),
    (5, "hung while starting", 15),
], ids=["crash", "hang-in-a-run", "hang-while-starting"])
def test_a_fault_at_the_first_call_raises_plugin_crashed_in_bounded_time(fault_plugins, fault, words, most):
    done = subprocess.run([sys.executable, "-c", FIRST_CALL, str(fault)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LV2_PATH": fault_plugins})
    assert done.returncode == 0, done.stderr
    said = done.stdout.strip()
    assert said.startswith("crashed ") and words in said, said
    assert int(said.split()[1]) <= most, said


def test_an_isolated_chain_keeps_its_processes_from_one_signal_to_the_next():
    x = noise(frames=24_000, seed=61)
    references = [OVERDRIVE, "ladspa:1903"]

    def children():
        return set(subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout.split())

    before = children()  # other tests' slot processes, if any still run
    chain = detent.Chain(references, isolate=True)
    alone = detent.Chain(references)
    seen = []
    for _ in range(5):
        # Each whole signal starts afresh (new plug-in instances), in the same processes.
        assert np.array_equal(chain.process(x), alone.process(x))
        seen.append(sorted(children() - before))
    assert len(seen[0]) == 2 and all(pids == seen[0] for pids in seen), seen
