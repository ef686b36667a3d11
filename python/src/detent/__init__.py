"""Detent's engine in process: the built-in lowpass + gain and every installed LV2, LADSPA and
DSSI plug-in, alone or in chains, over numpy arrays, with the command line's semantics.

    import detent
    chain = detent.Chain(["builtin", "http://drobilla.net/plugins/mda/Overdrive"], sample_rate=48000)
    chain["builtin.cutoff"] = "2k"
    y = chain.process(x)            # x: float32, (channels, frames)

docs/python.md has the whole API.
"""
from .chain import Chain
from .catalogue import plugins, version
from .render import render, render_options
from .errors import ChainBusy, Error, InvalidValue, PluginCrashed, PluginNotFound, RepairWarning, UnknownParameter

__version__ = version()

__all__ = ["Chain", "plugins", "render", "render_options", "Error", "InvalidValue", "UnknownParameter", "ChainBusy", "PluginNotFound",
           "PluginCrashed", "RepairWarning", "__version__"]
