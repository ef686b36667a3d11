"""A chain sounds as `detent render` does, sample for sample: the built-in, plug-ins of every
format, latency, streaming, reset, values that glide."""
import os

import numpy as np
import pytest

import detent
from conftest import LATENCY, LIMITER, OVERDRIVE, noise, render
import wavfloat


def chain_with(plugins, sets, channels=2):
    chain = detent.Chain(list(plugins) or None, sample_rate=48_000, channels=channels)
    for assignment in sets:
        parameter, value = assignment.split("=", 1)
        chain[parameter] = value
    return chain


@pytest.mark.parametrize("plugins, sets", [
    ((), ("cutoff=2k", "gain=-6dB", "resonance=4")),
    (("builtin", OVERDRIVE, "ladspa:1903"), ("builtin.cutoff=2k", "overdrive.drive=0.6")),
    ((LATENCY, "builtin"), ("artificiallatency.delay=10", "builtin.cutoff=5k")),
    (("lim=" + LIMITER, OVERDRIVE), ("lim.limit=-6", "overdrive.drive=0.3")),
], ids=["builtin", "builtin+lv2+ladspa", "reported-latency", "limiter"])
def test_process_equals_render(tmp_path, plugins, sets):
    x = noise(frames=70_001)
    expected = render(tmp_path, x, plugins, sets)
    chain = chain_with(plugins, sets)
    y = chain.process(x)
    assert y.shape == x.shape == expected.shape
    assert np.array_equal(y, expected)
    assert np.abs(y).max() > 0.01


@pytest.mark.parametrize("frames", [1, 250, 300, 5_000])
def test_a_short_signal_equals_render_and_so_do_longer_ones_after_it(tmp_path, frames):
    # A short whole signal runs in an engine sized to it; 250 frames and the limiter's 240 of
    # latency outgrow the first size chosen. A longer signal after it, and a stream (of
    # plug-ins whose sound does not depend on how runs are cut), need more.
    plugins, sets = ("lim=" + LIMITER, OVERDRIVE), ("lim.limit=-6", "overdrive.drive=0.3")
    chain = chain_with(plugins, sets)
    for length in (frames, 70_001):
        x = noise(frames=length, seed=length)
        expected = render(tmp_path, x, plugins, sets)
        y = chain.process(x)
        assert y.shape == expected.shape
        assert np.array_equal(y, expected), f"{length} frames after {frames}"
    plugins, sets = (LATENCY, OVERDRIVE), ("artificiallatency.delay=5", "overdrive.drive=0.4")
    chain = chain_with(plugins, sets)
    chain.process(noise(frames=frames))
    x = noise(frames=20_000, seed=5)
    parts = [chain.process(x[:, :frames], reset=False), chain.process(x[:, frames:], reset=True)]
    assert np.array_equal(np.concatenate(parts, axis=1), chain_with(plugins, sets).process(x))


def test_latency_is_compensated():
    chain = chain_with((LIMITER,), ())
    assert chain.latency == 240
    x = np.zeros((2, 4_800), dtype=np.float32)
    x[:, 1_000] = 0.5
    y = chain.process(x)
    assert y.shape == x.shape
    assert np.argmax(np.abs(y[0])) == 1_000
    assert np.abs(y[:, 1_000]).min() > 0.4


@pytest.mark.parametrize("plugins, sets", [
    ((), ("cutoff=700", "resonance=6")),
    ((LATENCY, OVERDRIVE), ("artificiallatency.delay=5", "overdrive.drive=0.4")),
], ids=["builtin", "latency+lv2"])
def test_ten_calls_equal_one(plugins, sets):
    x = noise(frames=96_000, seed=2)
    whole = chain_with(plugins, sets).process(x)
    chain = chain_with(plugins, sets)
    bounds = [0, 1, 480, 481, 5_000, 16_384, 16_385, 40_000, 70_000, 95_999, 96_000]
    parts = [chain.process(x[:, a:b], reset=(b == 96_000)) for a, b in zip(bounds, bounds[1:])]
    joined = np.concatenate(parts, axis=1)
    assert joined.shape == whole.shape
    assert np.array_equal(joined, whole)


def test_reset_starts_afresh_with_the_values():
    x = noise(frames=20_000, seed=3)
    chain = chain_with((), ("cutoff=500",))
    chain.process(x, reset=False)
    chain["cutoff"] = "3k"
    chain.process(x, reset=False)
    chain.reset()
    fresh = chain_with((), ("cutoff=3k",))
    assert chain["cutoff"] == pytest.approx(3_000)
    assert np.array_equal(chain.process(x), fresh.process(x))


def test_each_call_is_a_whole_signal_by_default():
    x = noise(frames=10_000, seed=4)
    chain = chain_with((OVERDRIVE, "builtin"), ("builtin.resonance=8",))
    assert np.array_equal(chain.process(x), chain.process(x))


def test_a_change_while_running_glides_as_a_live_one(tmp_path):
    """A value set between blocks lands at that frame and glides, exactly as an automation
    event at that time does in a render."""
    x = noise(frames=48_000, seed=5)
    automation = tmp_path / "gain.txt"
    automation.write_text("24000smp gain -20dB\n24000smp cutoff 300\n")
    expected = render(tmp_path, x, (), ("cutoff=4k",), ("--automation", str(automation)))
    chain = chain_with((), ("cutoff=4k",))
    first = chain.process(x[:, :24_000], reset=False)
    chain["gain"] = "-20dB"
    chain["cutoff"] = 300
    second = chain.process(x[:, 24_000:])
    y = np.concatenate([first, second], axis=1)
    assert np.array_equal(y, expected)
    # It glides: midway through the 30 ms glide the level is neither the old one (no change)
    # nor the new one (a jump) — about 0.12 between 0.41 and 0.011 (gain and cutoff both glide).
    def level(a, b):
        return np.sqrt(np.mean(y[:, a:b] ** 2) / np.mean(x[:, a:b] ** 2))
    old, new, midway = level(22_000, 24_000), level(30_000, 32_000), level(24_600, 24_800)
    assert new * 3 < midway < old * 0.5, (old, midway, new)


def test_numbers_are_in_the_parameters_unit(tmp_path):
    x = noise(frames=8_000, seed=6)
    as_text = chain_with((), ("cutoff=1.2k", "gain=-6dB")).process(x)
    chain = detent.Chain(sample_rate=48_000, channels=2)
    chain["cutoff"] = 1200
    chain["gain"] = -6.0
    assert np.array_equal(chain.process(x), as_text)


def test_mono_may_be_one_dimensional():
    x = noise(channels=1, frames=5_000, seed=7)
    chain = detent.Chain(sample_rate=44_100, channels=1)
    assert np.array_equal(chain.process(x[0]), chain.process(x)[0])


def test_presets_load_as_the_command_line_loads_them(tmp_path):
    x = noise(frames=30_000, seed=8)
    expected = render(tmp_path, x, (), (), ("--preset", "Telephone"))
    chain = detent.Chain(sample_rate=48_000, channels=2)
    chain.load_preset("Telephone")
    assert np.array_equal(chain.process(x), expected)


def test_a_saved_preset_renders_from_the_command_line(tmp_path):
    x = noise(frames=30_000, seed=9)
    chain = detent.Chain(sample_rate=48_000, channels=2)
    chain["cutoff"] = "650"
    chain["resonance"] = 3
    path = chain.save_preset("Mine")
    assert path.endswith(".json")
    with pytest.raises(detent.Error, match="exists"):
        chain.save_preset("Mine")
    assert chain.save_preset("Mine", replace=True) == path
    expected = render(tmp_path, x, (), (), ("--preset", "Mine"))
    assert np.array_equal(chain.process(x), expected)


def test_values_set_after_the_latency_is_read_are_still_starting_values():
    x = noise(frames=10_000, seed=14)
    asked = chain_with((LIMITER, "builtin"), ())
    assert asked.latency == 240
    asked["builtin.cutoff"] = 400
    asked["fastlookaheadlimiter.limit"] = -10
    fresh = chain_with((LIMITER, "builtin"), ("builtin.cutoff=400", "fastlookaheadlimiter.limit=-10"))
    assert np.array_equal(asked.process(x), fresh.process(x))
    builtin = detent.Chain()
    assert builtin.latency == 0
    builtin["cutoff"] = 400
    assert np.array_equal(builtin.process(x), chain_with((), ("cutoff=400",)).process(x))


def test_a_slots_mix_blends_its_dry_input_latency_aligned(tmp_path):
    """mix 50 % is exactly half the slot's input (delayed by its latency) plus half its output."""
    x = noise(frames=30_000, seed=15)
    common = ("builtin.cutoff=20k", "builtin.resonance=0.5", "lim.limit=-12")
    plugins = ("lim=" + LIMITER, "builtin")
    wet = chain_with(plugins, common).process(x)
    dry = chain_with(plugins, common + ("lim.mix=0",)).process(x)
    assert np.array_equal(dry, chain_with(plugins, common + ("lim.bypass=on",)).process(x))
    half = chain_with(plugins, common + ("lim.mix=50%",)).process(x)
    assert np.abs(half - (0.5 * wet + 0.5 * dry)).max() < 1e-5
    assert np.abs(wet - dry).max() > 0.1, "the limiter does limit"
    assert np.array_equal(half, render(tmp_path, x, plugins, common + ("lim.mix=50",)))


CONVOLVER = "http://gareus.org/oss/lv2/convoLV2#Mono"


def test_a_saved_preset_keeps_a_slots_impulse_response(tmp_path):
    response = np.zeros((1, 64), np.float32)
    response[0, 13] = 0.5
    path = str(tmp_path / "ir.wav")
    wavfloat.write(path, response, 48_000)
    x = noise(channels=1, frames=20_000, seed=21)
    plugins = ("lp=builtin", "conv=" + CONVOLVER)
    chain = detent.Chain(list(plugins), sample_rate=48_000, channels=1)
    chain["conv.impulse"] = path
    chain["lp.cutoff"] = "3k"
    y = chain.process(x)
    chain.save_preset("Room")
    os.remove(path)  # the preset holds a copy
    expected = render(tmp_path, x, plugins, (), ("--preset", "Room"))
    assert np.abs(expected).max() > 0
    assert np.array_equal(y, expected)


def _automation_lines(automation):
    """The lines Python makes of curves, for the command line's file."""
    from detent.chain import _automation
    return _automation(automation, None)


@pytest.mark.parametrize("curves", ["breakpoints", "per-frame"])
def test_automation_from_python_is_render_automation_sample_for_sample(tmp_path, curves):
    x = noise(frames=48_000, seed=41)
    if curves == "breakpoints":
        automation = {"cutoff": ([0.0, 0.25, 0.75], [200.0, 8000.0, 500.0]), "gain": ([0.1, 0.6], [-12.0, 0.0])}
    else:
        sweep = np.geomspace(100, 10_000, 48_000)
        automation = {"cutoff": sweep, "resonance": np.linspace(0.7, 4.0, 48_000)}
    path = tmp_path / "curves.txt"
    path.write_text(_automation_lines(automation) + "\n")
    expected = render(tmp_path, x, (), (), ("--automation", str(path)))
    y = detent.Chain().process(x, automation=automation)
    assert np.array_equal(y, expected)
    # The curve is heard: not what the chain gives at rest.
    assert not np.array_equal(y, detent.Chain().process(x))


def test_automation_beyond_a_call_carries_into_the_next_one(tmp_path):
    x = noise(frames=48_000, seed=42)
    automation = {"cutoff": ([0.0, 0.8], [300.0, 9000.0])}
    whole = detent.Chain().process(x, automation=automation)
    chain = detent.Chain()
    first = chain.process(x[:, :20_000], reset=False, automation=automation)
    second = chain.process(x[:, 20_000:])
    assert np.array_equal(np.concatenate([first, second], axis=1), whole)


@pytest.mark.parametrize("automation, words", [
    ({"cutoff": np.zeros(10)}, "10 values for 64 frames"),
    ({"cutoff": ([0.0, 0.5], [1.0])}, "as many of each"),
    ({"cutoff": ([0.5, 0.1], [1.0, 2.0])}, "in order"),
    ({"nosuch": ([0.0], [1.0])}, "nosuch"),
    ({"cutoff": "loud"}, "expected a 1-D array"),
    ([("cutoff", 1)], "expected a dict"),
])
def test_bad_automation_is_refused_in_one_line(automation, words):
    with pytest.raises(detent.InvalidValue, match=words):
        detent.Chain().process(np.zeros((2, 64), np.float32), automation=automation)


def test_values_set_many_times_between_calls_and_dense_automation_fit_together():
    # A thousand sets of one parameter between calls, then 900 changes at the call's first
    # frame: the one loop takes them all (they once overflowed the queue and aborted).
    x = noise(frames=4_800, seed=43)
    chain = detent.Chain()
    chain.process(x, reset=False)
    for i in range(2_000):
        chain["cutoff"] = 100 + i
    y = chain.process(x, reset=False, automation={"gain": ([0.0] * 900, [-6.0] * 900)})
    assert np.isfinite(y).all()
    assert chain["cutoff"] == pytest.approx(2_099)
    with pytest.raises(detent.InvalidValue, match="changes at one frame"):
        chain.process(x, automation={"gain": ([0.0] * 1_100, [-6.0] * 1_100)})
