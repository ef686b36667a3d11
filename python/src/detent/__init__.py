"""Detent's engine in process: the built-in lowpass + gain and every installed LV2, LADSPA,
DSSI, VST2, VST3 and CLAP plug-in, alone or in chains and graphs, over numpy arrays, with the
command line's semantics.

    import detent
    chain = detent.Chain(["builtin", "http://drobilla.net/plugins/mda/Overdrive"], sample_rate=48000)
    chain["builtin.cutoff"] = "2k"
    y = chain.process(x)            # x: float32 or float64, (channels, frames) or (frames, channels)
    with detent.io.AudioFile("take.flac") as f:     # files read and written as `render` does
        x = f.read()

docs/python.md has the whole API.
"""
from . import io
from .chain import Chain, Plugin
from .catalogue import plugins, version
from .render import render, render_many, render_options
from .errors import ChainBusy, Error, InvalidValue, PluginCrashed, PluginNotFound, RepairWarning, UnknownParameter

__version__ = version()


def load_plugin(reference: str, sample_rate: float = 48000, channels: int = 2, **options) -> Plugin:
    """One plug-in of any format Detent hosts (or the built-in), alone, as pedalboard loads
    one: its parameters as attributes (``plugin.drive = 0.6``), called on audio
    (``plugin(x, 48000)``); ``plugin.chain`` is the chain of it alone, to add others to."""
    return Chain([reference], sample_rate=sample_rate, channels=channels, **options)[0]

__all__ = ["Chain", "Plugin", "load_plugin", "io", "plugins", "render", "render_many", "render_options", "Error", "InvalidValue", "UnknownParameter", "ChainBusy", "PluginNotFound",
           "PluginCrashed", "RepairWarning", "__version__"]
