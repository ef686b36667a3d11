"""Side chains and graphs from Python: a keyed compressor and a graph sound as `detent render`
with --sidechain, --graph and --input do, sample for sample."""
import json
import os

import numpy as np
import pytest

import detent
import wavfloat
from conftest import noise, render, run_detent

COMPRESSOR = "urn:zamaudio:ZamComp"
KEYED = ("sidech=1", "thr=-30", "rat=20")


def tone_and_key(frames=96_000):
    t = np.arange(frames) / 48_000
    tone = (0.25 * np.sin(2 * np.pi * 1_000 * t)).astype(np.float32).reshape(1, -1)
    key = noise(channels=1, frames=frames, seed=5, level=0.5)
    key[:, : frames // 3] = 0
    key[:, 2 * frames // 3:] = 0
    return tone, key


def keyed_chain(plugins=(COMPRESSOR,), prefix=""):
    chain = detent.Chain(list(plugins), sample_rate=48_000, channels=1)
    for assignment in KEYED:
        parameter, value = assignment.split("=", 1)
        chain[prefix + parameter] = value
    return chain


def test_a_keyed_compressor_equals_render_with_sidechain(tmp_path):
    tone, key = tone_and_key()
    key_path = os.path.join(tmp_path, "key.wav")
    wavfloat.write(key_path, key, 48_000)
    expected = render(tmp_path, tone, (COMPRESSOR,), KEYED, extra=("--sidechain", key_path))
    y = keyed_chain().process(tone, sidechain=key)
    assert np.array_equal(y, expected)
    third = tone.shape[1] // 3
    level = lambda part: 10 * np.log10(np.mean(part.astype(np.float64) ** 2))  # noqa: E731
    assert level(y[0, 4_800:third]) - level(y[0, third + 4_800: 2 * third]) >= 10
    # Named, in a chain; and unkeyed, it does not duck.
    named = keyed_chain(("builtin", COMPRESSOR), prefix="zamcomp.").process(tone, sidechain={"zamcomp": key})
    assert level(named[0, 4_800:third]) - level(named[0, third + 4_800: 2 * third]) >= 10
    plain = keyed_chain().process(tone)
    assert abs(level(plain[0, 4_800:third]) - level(plain[0, third + 4_800: 2 * third])) < 0.5


def test_a_graph_file_equals_render_with_graph_and_input(tmp_path):
    tone, key = tone_and_key()
    graph = os.path.join(tmp_path, "graph.json")
    with open(graph, "w") as f:
        json.dump({"slots": {"lo": {"plugin": "builtin", "values": {"cutoff": 300, "gain": -6}},
                             "comp": {"plugin": COMPRESSOR, "values": {"sidech": 1, "thr": -30, "rat": 20}}},
                   "connections": [["input", "lo"], ["input", "comp"], ["key", "comp:sidechain"],
                                   ["lo", "output"], ["comp", "output"]]}, f)
    key_path = os.path.join(tmp_path, "key.wav")
    wavfloat.write(key_path, key, 48_000)
    expected = render(tmp_path, tone, extra=("--graph", graph, "--input", f"key={key_path}"))
    chain = detent.Chain(graph=graph, sample_rate=48_000, channels=1)
    assert chain["lo.cutoff"] == 300
    assert np.array_equal(chain.process(tone, sidechain={"key": key}), expected)
    # detent.render takes the same.
    results = detent.render([os.path.join(tmp_path, "in.wav")], output=os.path.join(tmp_path, "py.wav"), graph=graph,
                            graph_inputs={"key": key_path}, force=True)
    assert results[0].get("error") is None, results
    samples, _ = wavfloat.read(os.path.join(tmp_path, "py.wav"))
    assert np.array_equal(samples, expected)


def test_keys_that_do_not_fit_raise():
    tone, key = tone_and_key(frames=4_800)
    with pytest.raises(detent.InvalidValue, match="as long as x"):
        keyed_chain().process(tone, sidechain=key[:, :100])
    with pytest.raises(detent.InvalidValue, match="no keyed slot or named input of that name"):
        keyed_chain().process(tone, sidechain={"nope": key})
    with pytest.raises(detent.InvalidValue, match="has no side-chain input"):
        detent.Chain(None, channels=1).process(tone, sidechain=key)
    with pytest.raises(detent.InvalidValue, match="float32"):
        keyed_chain().process(tone, sidechain=key.astype(np.float64))
