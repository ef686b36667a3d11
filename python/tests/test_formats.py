"""VST2, VST3 and CLAP plug-ins in Python: one chain mixing the formats gives the samples the
same chain of the plug-ins' LV2 builds gives (zam-plugins builds each from one source), in
process and isolated."""
import subprocess
import sys

import numpy as np

import detent
from conftest import noise

BINARY = ["vst3:ZamComp", "clap:ZamEQ2", "vst2:ZamTube"]
LV2 = ["urn:zamaudio:ZamComp", "urn:zamaudio:ZamEQ2", "urn:zamaudio:ZamTube"]


def test_a_chain_of_every_binary_format_sounds_as_its_lv2_builds():
    x = noise(1, 48000)
    mixed = detent.Chain(BINARY, channels=1)
    assert mixed.slots == ["zamcomp", "zameq2", "zamtube"]
    reference = detent.Chain(LV2, channels=1).process(x)
    y = mixed.process(x)
    # Within 1e-6, not equal: a VST2 plug-in processes one frame of silence when activated (to
    # learn its latency), and ZamTube's activation keeps a trace of it (6e-8 here).
    assert np.abs(y - reference).max() <= 1e-6
    assert np.abs(y).max() > 0.01


def test_binary_format_slots_run_isolated_alike():
    x = noise(1, 24000)
    here = detent.Chain(BINARY, channels=1).process(x)
    isolated = detent.Chain(BINARY, channels=1, isolate=True).process(x)
    assert np.array_equal(here, isolated)


def test_a_parameter_of_a_binary_plugin_is_set_by_its_name():
    x = noise(1, 24000)
    clap = detent.Chain(["clap:ZamComp"], channels=1)
    lv2 = detent.Chain(["urn:zamaudio:ZamComp"], channels=1)
    clap["threshold"] = -30
    lv2["thr"] = -30
    assert np.array_equal(clap.process(x), lv2.process(x))


def test_a_plugins_own_words_are_shown_and_read():
    # LSP's Compressor Mono (VST2): its attack time follows a curve of its own, so its row runs
    # 0…1 and its value is shown, and typed, in the plug-in's words.
    chain = detent.Chain(["vst2:1650946937"], channels=1)
    assert chain.text("attack_time") == "20.0 ms"
    chain["attack_time"] = "30 ms"
    assert chain.text("attack_time") == "30.0 ms"
    assert 0 < chain["attack_time"] < 1
    row = next(r for r in chain.parameters if r["id"] == "attack_time")
    assert row["text"] == "30.0 ms" and row["value"] == chain["attack_time"]
    # A ratio in CLAP's words: the plug-in reads "4:1".
    clap = detent.Chain(["clap:ZamComp"], channels=1)
    clap["ratio"] = "6:1"
    assert clap["ratio"] == 6 and clap.text("ratio") == "6.00"


ISOLATED_WORDS = """
import numpy as np, detent
binary = "lsp-plugins"
assert binary not in open("/proc/self/maps").read()
chain = detent.Chain(["vst2:1650946937"], channels=1, isolate=True)
assert chain.text("attack_time") == "20.0 ms", chain.text("attack_time")
chain["attack_time"] = "30 ms"
assert chain.text("attack_time") == "30.0 ms", chain.text("attack_time")
chain.process(np.zeros((1, 4_800), dtype=np.float32))
assert binary not in open("/proc/self/maps").read(), "the plug-in was loaded here"
"""


def test_an_isolated_plugins_words_are_asked_where_it_runs():
    # The same words with isolate=True, asked of a process of their own: the plug-in is
    # never loaded into this one, neither by its words nor by its sound (a fresh Python, as
    # this one has loaded it for the tests before).
    done = subprocess.run([sys.executable, "-c", ISOLATED_WORDS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


# The reference VST3 host (pedalboard, from PyPI for the tests alone): the Zam VST3 plug-ins
# it runs as their LV2 builds do give Detent's samples. Three it runs otherwise, and Detent's
# output equals the LV2 builds' for these too: ZamGrains starts at a loop time of 1000 ms while
# declaring 160, and DPF's VST3 wrapper drops a value it believes is set already, so pedalboard
# leaves it at 1000 (Detent gives the plug-in its own state back first); ZamDelay and
# ZamDynamicEQ are not yet examined. ZamVerb, pedalboard does not finish loading here (left out:
# it would hang the test); Detent runs it.
PEDALBOARD_EQUAL = ["ZamAutoSat", "ZaMaximX2", "ZamComp", "ZamCompX2", "ZamEQ2", "ZamGate", "ZamGateX2",
                    "ZamGEQ31", "ZamHeadX2", "ZamPhono", "ZamTube", "ZaMultiComp", "ZaMultiCompX2"]
PEDALBOARD_OTHERWISE = ["ZamDelay", "ZamDynamicEQ", "ZamGrains"]
STEREO = {"ZaMaximX2", "ZamCompX2", "ZamGateX2", "ZamHeadX2", "ZaMultiCompX2", "ZamVerb"}


def test_vst3_plugins_give_the_reference_hosts_samples():
    import pedalboard

    for name in PEDALBOARD_EQUAL + PEDALBOARD_OTHERWISE:
        channels = 2 if name in STEREO else 1
        x = noise(channels, 48000)
        # pedalboard's own output is not always the same from one instance to the next (ZamTube:
        # 1.6e-4 apart between two of six in one process, while Detent's six agreed exactly), so
        # Detent's is held to the nearest of three of its instances.
        theirs = [pedalboard.load_plugin(f"/usr/lib/vst3/{name}.vst3")(x, 48000, buffer_size=256) for _ in range(3)]
        ours = detent.Chain([f"vst3:{name}"], channels=channels).process(x)
        lv2 = detent.Chain([f"urn:zamaudio:{name}"], channels=channels).process(x)
        difference = min(np.abs(reference - ours).max() for reference in theirs)
        if name in PEDALBOARD_EQUAL:
            assert difference <= 1e-6, name
        else:
            assert difference > 1e-3, name
        if name != "ZamHeadX2":
            assert np.abs(ours - lv2).max() <= 1e-6, name


def test_zamverb_as_vst3_runs():
    x = noise(2, 48000)
    ours = detent.Chain(["vst3:ZamVerb"], channels=2).process(x)
    lv2 = detent.Chain(["urn:zamaudio:ZamVerb"], channels=2).process(x)
    assert np.abs(ours - lv2).max() <= 1e-6


def test_binary_plugin_state_goes_with_its_preset(tmp_path, monkeypatch):
    """A preset of a VST3 and a VST2 plug-in that keep a state of their own (the VST3 component's
    and controller's; LSP's VST2 chunk) keeps it beside the preset, and a chain that loads
    the preset sounds as the one that saved it."""
    import os

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    for plugin, parameter, value, channels in [("vst3:ZamComp", "threshold", -30, 1),
                                               ("vst2:Compressor Mono", "input_gain", 0.75, 1)]:
        x = noise(channels, 24000)
        saved = detent.Chain([plugin], channels=channels)
        saved[parameter] = value
        name = "kept-" + plugin.split(":")[1].replace(" ", "-")
        path = saved.save_preset(name)
        assert os.path.isfile(os.path.join(os.path.dirname(path), name + ".state", "state.bin")), plugin
        loaded = detent.Chain([plugin], channels=channels)
        loaded.load_preset(name)
        assert np.array_equal(loaded.process(x), saved.process(x)), plugin
        assert not np.array_equal(detent.Chain([plugin], channels=channels).process(x), saved.process(x)), plugin
