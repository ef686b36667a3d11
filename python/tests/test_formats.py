"""VST2, VST3 and CLAP plug-ins in Python: one chain mixing the formats gives the samples the
same chain of the plug-ins' LV2 builds gives (zam-plugins builds each from one source), in
process and isolated."""
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
