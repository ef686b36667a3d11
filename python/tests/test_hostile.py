"""Hostile and careless use: every mistake is a detent.Error with one clear line, never a
crash, a TypeError from deep inside, or a value silently cut or wrapped. Calls that crashed
the interpreter run in a child process, so a crash fails the test instead of ending pytest."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import detent

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(detent.__file__)))


def in_child(arguments, timeout):
    """Runs Python with `arguments` in a child process that imports this same detent."""
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([PACKAGE, HERE, os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, *arguments], capture_output=True, text=True, timeout=timeout, env=environment)


CLOSED = textwrap.dedent("""
    import json, numpy, detent
    outcomes = {}
    calls = {
        "process": lambda c: c.process(numpy.zeros((2, 64), numpy.float32)),
        "instrument": lambda c: c.process(frames=64),
        "set": lambda c: c.__setitem__("cutoff", 5),
        "get": lambda c: c["cutoff"],
        "parameters": lambda c: c.parameters,
        "identifier": lambda c: c.identifier,
        "latency": lambda c: c.latency,
        "reset": lambda c: c.reset(),
        "load_preset": lambda c: c.load_preset("Dark"),
        "save_preset": lambda c: c.save_preset("Mine"),
    }
    for name, call in calls.items():
        for close in ("__del__", "close"):
            chain = detent.Chain()
            getattr(chain, close)()
            try:
                call(chain)
                outcomes[name + " after " + close] = "worked"
            except detent.Error as error:
                outcomes[name + " after " + close] = str(error)
    chain = detent.Chain()
    chain.close()
    chain.close()
    outcomes["repr"] = repr(chain)
    print(json.dumps(outcomes))
""")


def test_a_closed_chain_raises_instead_of_crashing():
    done = in_child(["-c", CLOSED], timeout=120)
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr[-2000:]}"
    outcomes = json.loads(done.stdout)
    assert outcomes.pop("repr") == "<detent.Chain, closed>"
    assert len(outcomes) == 20
    assert set(outcomes.values()) == {"chain is closed"}, outcomes


COPIED = textwrap.dedent("""
    import copy, json, pickle, numpy, detent
    chain = detent.Chain(["http://drobilla.net/plugins/mda/Overdrive", "builtin"])
    chain["builtin.cutoff"] = 500
    chain["overdrive.drive"] = 0.7
    x = (numpy.random.default_rng(1).standard_normal((2, 4096)) * 0.2).astype(numpy.float32)
    copies = [copy.copy(chain), copy.deepcopy(chain), pickle.loads(pickle.dumps(chain))]
    expected = chain.process(x)
    del chain  # the copies own their instances: nothing of the original is used after this
    same = [bool(numpy.array_equal(c.process(x), expected)) for c in copies]
    cutoffs = [c["builtin.cutoff"] for c in copies]
    closed = detent.Chain()
    closed.close()
    refused = []
    for make in (copy.copy, copy.deepcopy, pickle.dumps):
        try:
            make(closed)
        except detent.Error as error:
            refused.append(str(error))
    print(json.dumps({"same": same, "cutoffs": cutoffs, "refused": refused}))
""")


def test_a_copy_is_a_chain_of_its_own():
    done = in_child(["-c", COPIED], timeout=120)
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr[-2000:]}"
    outcome = json.loads(done.stdout)
    assert outcome["same"] == [True, True, True], "each copy sounds as the original did, after it is gone"
    assert outcome["cutoffs"] == [pytest.approx(500)] * 3
    assert outcome["refused"] == ["chain is closed"] * 3


@pytest.mark.parametrize("make, words", [
    (lambda: detent.Chain(5), "expected a string or a list of strings"),
    (lambda: detent.Chain([5]), "expected a string or a list of strings"),
    (lambda: detent.Chain({"builtin": 1}), "expected a string or a list of strings"),
    (lambda: detent.Chain(channels=2**32 + 2), "channels"),
    (lambda: detent.Chain(sample_rate=10**400), "sample_rate"),
    (lambda: detent.Chain("builtin\x00junk"), "NUL"),
    (lambda: detent.Chain(graph="g\x00.json"), "NUL"),
], ids=["number", "list-of-number", "dict", "channels-wrap", "rate-overflow", "nul-plugin", "nul-graph"])
def test_a_wrong_kind_of_argument_is_detents_error(make, words):
    with pytest.raises(detent.InvalidValue, match=words) as raised:
        make()
    assert "\n" not in str(raised.value)


def test_a_folder_given_as_the_graph_says_so(tmp_path):
    with pytest.raises(detent.InvalidValue, match="a folder, not a graph file") as raised:
        detent.Chain(graph=str(tmp_path))
    assert "plug-in" not in str(raised.value)


@pytest.mark.parametrize("call, words", [
    (lambda c: c.process(frames=64, midi=[(0, "abc")]), "not text"),
    (lambda c: c.process(frames=64, midi=[(0, 5)]), "not a number"),
    (lambda c: c.process(frames=64, midi=5), "expected a list"),
    (lambda c: c.process(frames=64, midi=[(0, [300])]), "0 … 255"),
    (lambda c: c.process(frames=64, midi=[(2**63, b"\x90\x3c\x64")]), "frame"),
    (lambda c: c.process(frames=2**63), "9223372036854775808"),
    (lambda c: c.process(frames=2**62), "do not fit in memory"),
    (lambda c: c.__setitem__("cutoff", "800\x00junk"), "NUL"),
    (lambda c: c.__setitem__("cutoff", 10**400), "finite"),
    (lambda c: c.__setitem__("cutoff\x00", 800), "NUL"),
    (lambda c: c["builtin.cutoff\x00"], "NUL"),
    (lambda c: c.load_preset("Dark\x00junk"), "NUL"),
    (lambda c: c.load_preset(5), "expected a string"),
    (lambda c: c.save_preset(5), "expected a string"),
    (lambda c: c.save_preset("Mine\x00"), "NUL"),
    (lambda c: c.process(np.zeros((2, 64), np.float32), sidechain={"x\x00": np.zeros(64, np.float32)}), "NUL"),
], ids=["midi-text", "midi-number", "midi-not-a-list", "midi-byte-range", "midi-frame-wrap", "frames-wrap", "frames-huge",
        "nul-value", "value-overflow", "nul-id", "nul-id-get", "nul-preset", "preset-number", "save-number", "nul-save",
        "nul-sidechain"])
def test_a_wrong_kind_of_call_is_detents_error_and_changes_nothing(call, words):
    chain = detent.Chain()
    with pytest.raises(detent.InvalidValue, match=words) as raised:
        call(chain)
    assert "\n" not in str(raised.value)
    assert "-9223372036854775808" not in str(raised.value), "a number too large is not read as a negative one"
    assert chain["cutoff"] == pytest.approx(1_000)


def test_render_refuses_a_nul_in_any_string(tmp_path):
    with pytest.raises(detent.InvalidValue, match="NUL"):
        detent.render(str(tmp_path / "in.wav\x00x"), output=str(tmp_path / "out.wav"))
    with pytest.raises(detent.InvalidValue, match="NUL"):
        detent.render([], values={"cutoff": "800\x00junk"}, midi=str(tmp_path / "m.mid"), output=str(tmp_path / "o.wav"))


def test_hostile_calls_work_or_raise_detents_errors_never_crash():
    done = in_child([os.path.join(HERE, "hostile_cases.py"), "46", "300"], timeout=600)
    last = done.stderr.strip().splitlines()[-1:] if done.stderr.strip() else []
    assert done.returncode == 0, f"status {done.returncode} at {last}: {done.stderr[-2000:]}"
    failures = [json.loads(line) for line in done.stdout.splitlines() if line]
    assert failures == []
