"""The rest of the API: what it lists, what it refuses and how, threads and processes."""
import json
import multiprocessing
import pickle
import threading
import time
import warnings

import numpy as np
import pytest

import detent
from conftest import LATENCY, OVERDRIVE, PIANO, noise, run_detent


def test_version_is_the_programs():
    assert detent.__version__ == run_detent("--version").stdout.strip()


def test_parameters_are_the_rows_params_prints():
    chain = detent.Chain(["builtin", OVERDRIVE], sample_rate=48_000)
    printed = run_detent("params", "--json", "--plugin", "builtin", "--plugin", OVERDRIVE).stdout
    rows = chain.parameters
    # The rows params prints, each with its value now beside them (the defaults, here).
    assert [{k: v for k, v in row.items() if k not in ("value", "text")} for row in rows] == [json.loads(line) for line in printed.splitlines()]
    # And that value as the panels show it.
    assert next(row for row in rows if row["id"] == "builtin.cutoff")["text"] == "1.00 kHz"
    assert all(row["value"] == pytest.approx(row["default"]) for row in rows if "value" in row)
    assert {"builtin.cutoff", "builtin.bypass", "overdrive.drive"} <= {row["id"] for row in chain.parameters}


def test_plugins_are_the_rows_plugins_prints():
    printed = [json.loads(line) for line in run_detent("plugins", "--json").stdout.splitlines()]
    listed = detent.plugins()
    assert listed == printed
    assert any(row["identifier"] == OVERDRIVE for row in listed)


def test_an_unknown_plugin_names_what_was_asked():
    with pytest.raises(detent.PluginNotFound, match="no-such-plugin") as raised:
        detent.Chain(["builtin", "no-such-plugin"])
    assert isinstance(raised.value, LookupError)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize("parameter, value, kind, words", [
    ("cutoff", "loud", detent.InvalidValue, "cutoff"),
    ("cutoff", "1 2 0 0", detent.InvalidValue, "cutoff"),
    ("cutoff", float("nan"), detent.InvalidValue, "finite"),
    ("cutof", 1000, detent.UnknownParameter, "cutof"),
    (3, 1000, detent.InvalidValue, "string"),
])
def test_a_bad_value_says_so(parameter, value, kind, words):
    chain = detent.Chain()
    with pytest.raises(kind, match=words) as raised:
        chain[parameter] = value
    assert isinstance(raised.value, detent.Error)
    if kind is detent.InvalidValue:
        assert isinstance(raised.value, ValueError)
    assert chain["cutoff"] == pytest.approx(1_000), "a refused value changes nothing"


@pytest.mark.parametrize("x, words", [
    (np.zeros((2, 100), dtype=np.int16), "int16"),
    (np.zeros((3, 100), dtype=np.float32), r"shape \(3, 100\)"),
    (np.zeros((100, 3), dtype=np.float32), r"shape \(100, 3\)"),
    (np.zeros(100, dtype=np.float32), r"shape \(100,\); the chain was made for 2 channels"),
    (np.zeros((1, 2, 100), dtype=np.float32), "3 dimensions"),
    ([0.0, 0.1], "list"),
])
def test_a_bad_input_says_so(x, words):
    chain = detent.Chain(channels=2)
    with pytest.raises(detent.InvalidValue, match=words):
        chain.process(x)


def test_other_mistakes_are_refused_in_one_line():
    with pytest.raises(detent.InvalidValue, match="channels"):
        detent.Chain(channels=0)
    with pytest.raises(detent.InvalidValue, match="sample rate"):
        detent.Chain(sample_rate=-1)
    with pytest.raises(detent.Error, match="preset"):
        detent.Chain().load_preset("No Such Preset")
    with pytest.raises(detent.InvalidValue, match="frames"):
        detent.Chain().process()
    with pytest.raises(detent.InvalidValue, match="MIDI"):
        detent.Chain([PIANO]).process(frames=100, midi=[(200, b"\x90\x3c\x64")])


def test_a_strided_input_is_taken():
    x = noise(frames=9_000, seed=11)
    chain = detent.Chain()
    assert np.array_equal(chain.process(np.asfortranarray(x)), chain.process(x))


def test_an_instrument_plays_its_notes():
    chain = detent.Chain([PIANO], sample_rate=48_000, channels=2)
    y = chain.process(frames=48_000, midi=[(12_000, b"\x90\x3c\x64"), (36_000, b"\x80\x3c\x00")])
    assert y.shape == (2, 48_000)
    assert np.abs(y[:, :12_000]).max() == 0
    assert np.abs(y[:, 12_000:12_400]).max() > 0.01
    again = detent.Chain([PIANO], sample_rate=48_000, channels=2)
    parts = [again.process(frames=12_000, midi=[(0, b"\x90\x3c\x64")] if i == 1 else None, reset=(i == 3))
             if i != 3 else again.process(frames=12_000, midi=[(0, b"\x80\x3c\x00")]) for i in range(4)]
    assert np.array_equal(np.concatenate(parts, axis=1), y)


def _count_until(done, since):
    """Counts in a Python loop until ``done`` is set: how many times a second the main thread
    got round it, from ``since`` (a time taken before the work began, so that a wait in
    ``Thread.start`` while the work holds the GIL counts as time the loop did not run)."""
    counted = 0
    while not done.is_set():
        counted += 1
    return counted / (time.perf_counter() - since)


def test_the_gil_is_let_go_while_audio_is_processed():
    chain = detent.Chain([OVERDRIVE, "builtin"])
    x = noise(frames=48_000 * 60, seed=12)
    done = threading.Event()
    worker = threading.Thread(target=lambda: (chain.process(x), done.set()))
    started = time.perf_counter()
    worker.start()
    busy = _count_until(done, started)
    worker.join()
    # The same loop for as long with nothing else running: the rate it reaches alone. A call
    # that held the GIL would leave the loop only its switch interval's share (a few per cent).
    alone = threading.Event()
    threading.Timer(time.perf_counter() - started, alone.set).start()
    free = _count_until(alone, time.perf_counter())
    assert busy > 0.3 * free, f"the main thread counted {busy:.0f}/s while the chain processed, {free:.0f}/s alone"


def test_a_chain_used_from_two_threads_at_once_refuses_the_second():
    chain = detent.Chain([OVERDRIVE])
    x = noise(frames=48_000 * 20, seed=13)
    refused = []
    done = threading.Event()
    worker = threading.Thread(target=lambda: (chain.process(x), done.set()))
    worker.start()
    while not done.is_set() and not refused:
        try:
            chain["drive"] = 0.3
        except detent.ChainBusy as error:
            refused.append(str(error))
    worker.join()
    assert refused and "another thread" in refused[0]
    assert chain.process(x[:, :1_000]).shape == (2, 1_000), "the chain still works"


_inherited = None


def _render_in_worker(seed):
    chain = detent.Chain([LATENCY, OVERDRIVE], sample_rate=48_000)
    chain["artificiallatency.delay"] = 2
    own = chain.process(noise(frames=20_000, seed=seed))
    inherited = _inherited.process(noise(frames=20_000, seed=seed)) if _inherited is not None else None
    return own, inherited


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_a_pool_of_two_renders(method):
    global _inherited
    # The parent has used Detent (its plug-in world, an LV2 chain) before the workers start.
    _inherited = detent.Chain([LATENCY, OVERDRIVE], sample_rate=48_000)
    _inherited["artificiallatency.delay"] = 2
    here = [_render_in_worker(seed)[0] for seed in (21, 22)]
    with multiprocessing.get_context(method).Pool(2) as pool:
        there = pool.map(_render_in_worker, (21, 22), chunksize=1)
    for mine, (theirs, inherited) in zip(here, there):
        assert np.array_equal(mine, theirs)
        if method == "fork":
            assert np.array_equal(mine, inherited), "a chain made before the fork works in the child"


def test_a_repair_is_reported_per_call_and_warned_once():
    chain = detent.Chain([OVERDRIVE, "builtin"])
    x = noise(frames=8_192, seed=21)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chain.process(x)  # nothing to repair: no warning
    assert chain.last_report == {"nonFiniteBlocks": 0, "sanitizedOutputSamples": 0, "absurdOutput": {},
                                 "midiDropped": 0, "latency": chain.latency}
    x[1, 100] = np.nan
    with pytest.warns(detent.RepairWarning, match="NaN or infinite input"):
        y = chain.process(x)
    assert np.isfinite(y).all()
    assert chain.last_report["nonFiniteBlocks"] >= 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chain.process(x)  # said once per chain
    assert chain.last_report["nonFiniteBlocks"] >= 1, "each call counts its own"
    chain.process(noise(frames=8_192, seed=22))
    assert chain.last_report["nonFiniteBlocks"] == 0


def _process_in_worker(chain, x):
    return chain.process(x)


def test_a_chain_made_here_runs_in_a_spawned_worker():
    chain = detent.Chain([OVERDRIVE, "builtin"])
    chain["builtin.cutoff"] = "1.5k"
    chain["overdrive.drive"] = 0.4
    x = noise(frames=20_000, seed=31)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        there = pool.apply(_process_in_worker, (chain, x))
    assert np.array_equal(there, chain.process(x))


def test_float64_and_frames_first_are_taken_and_given_back_as_given():
    x = noise(frames=10_000, seed=51)
    chain = detent.Chain([OVERDRIVE, "builtin"])
    expected = chain.process(x)
    assert np.array_equal(chain.process(x.astype(np.float64)), expected)
    frames_first = chain.process(np.ascontiguousarray(x.T))
    assert frames_first.shape == (10_000, 2) and np.array_equal(frames_first, expected.T)
    assert np.array_equal(chain.process(x.T.astype(np.float64)), expected.T)


def test_a_chain_says_its_slots_values_and_what_it_holds():
    chain = detent.Chain(["builtin", "drive=" + OVERDRIVE])
    chain["builtin.cutoff"] = "1.2k"
    assert chain.slots == ["builtin", "drive"] and len(chain) == 2
    assert "builtin.cutoff" in chain and "drive" in chain and "DRIVE" in chain
    assert "nosuch" not in chain and 5 not in chain
    rows = {row["id"]: row for row in chain.parameters}
    assert rows["builtin.cutoff"]["value"] == pytest.approx(1_200)
    assert rows["drive.drive"]["value"] == pytest.approx(rows["drive.drive"]["default"])


def test_a_chain_changes_shape_between_calls_and_keeps_its_values():
    x = noise(frames=10_000, seed=71)
    chain = detent.Chain()                      # the built-in alone
    chain["cutoff"] = "2k"
    chain.append("drive=" + OVERDRIVE)
    assert chain.slots == ["builtin", "drive"]
    assert chain["builtin.cutoff"] == pytest.approx(2_000), "the built-in's value carried, under its slot's name"
    chain["drive.drive"] = 0.7
    chain.insert(0, "pre=builtin")
    chain.move("drive", 0)
    assert chain.slots == ["drive", "pre", "builtin"]
    fresh = detent.Chain(["drive=" + OVERDRIVE, "pre=builtin", "builtin"])
    fresh["builtin.cutoff"] = "2k"
    fresh["drive.drive"] = 0.7
    assert np.array_equal(chain.process(x), fresh.process(x))
    del chain[1]
    chain.remove("drive")
    assert chain.slots == ["builtin"] and chain["builtin.cutoff"] == pytest.approx(2_000)
    copied = pickle.loads(pickle.dumps(chain))
    assert copied.slots == ["builtin"] and np.array_equal(copied.process(x), chain.process(x))
    with pytest.raises(detent.InvalidValue, match="only slot"):
        chain.remove("builtin")
    with pytest.raises(detent.InvalidValue, match="nosuch"):
        chain.remove("nosuch")
    with pytest.raises(detent.PluginNotFound):
        chain.append("no-such-plugin")
    assert chain.slots == ["builtin"], "a refused edit changes nothing"


def test_plugins_are_objects_with_their_parameters_as_attributes():
    x = noise(frames=8_000, seed=81)
    chain = detent.Chain(["builtin", "drive=" + OVERDRIVE])
    chain[0].cutoff = "1.2k"
    chain[1].drive = 0.6
    assert chain["builtin.cutoff"] == pytest.approx(1_200) and chain[-1].drive == pytest.approx(0.6)
    assert [plugin.name for plugin in chain] == ["builtin", "drive"]
    assert "drive=0.6" in repr(chain[1]) and "drive=" + OVERDRIVE in repr(chain)
    with pytest.raises(AttributeError, match="no parameter 'loudness'"):
        chain[0].loudness = 3
    with pytest.raises(detent.Error, match="process the chain"):
        chain[0](x, 48_000)
    assert np.array_equal(chain(x, 48_000), chain.process(x))
    with pytest.raises(detent.InvalidValue, match="44100"):
        chain(x, 44_100)
    plugin = detent.load_plugin(OVERDRIVE)
    plugin.drive = 0.6
    alone = detent.Chain([OVERDRIVE])
    alone["drive"] = 0.6
    assert plugin.drive == pytest.approx(0.6) and np.array_equal(plugin(x, 48_000), alone.process(x))


def test_a_plugin_object_is_appended_as_a_copy_at_its_values():
    source = detent.Chain(["drive=" + OVERDRIVE, "builtin"])
    source["drive.drive"] = 0.7
    chain = detent.Chain(["builtin"])
    chain.append(source[0])
    assert chain.slots == ["builtin", "drive"]
    assert chain["drive.drive"] == pytest.approx(0.7)
    # A name the chain has already: the plug-in's own slot name is made unique.
    chain.insert(0, source[1])
    assert len(chain) == 3 and chain.slots[1:] == ["builtin", "drive"]
    x = noise(frames=4800, seed=5)
    alone = detent.Chain([chain.slots[0] + "=builtin", "builtin", "drive=" + OVERDRIVE])
    alone["drive.drive"] = 0.7
    assert np.array_equal(chain.process(x), alone.process(x))


def test_one_dimensional_mono_comes_back_one_dimensional():
    chain = detent.Chain(["builtin"], channels=1)
    x = noise(channels=1, frames=4800, seed=6)
    assert chain.process(x[0]).shape == (4800,)
    assert np.array_equal(chain.process(x[0]), chain.process(x)[0])


def test_render_options_lists_only_keywords_render_takes():
    listed = detent.render_options()
    assert "tail" in listed and "out_dir" in listed
    for spelled_out in ("inputs", "sets", "sidechains", "named_inputs", "manifest"):
        assert spelled_out not in listed
