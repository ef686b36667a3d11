"""A chain of processors over numpy arrays."""
import ctypes
import json
import numbers
import os
import sys

import numpy as np

from ._native import lib, take_string
from .errors import Error, InvalidValue, raise_for


def _call(function, *arguments):
    """Calls a function of the C interface whose last argument is its error line."""
    error = ctypes.c_void_p()
    status = function(*arguments, ctypes.byref(error))
    if status:
        raise_for(status, take_string(error.value))


def _text(value):
    """A value as `--set` reads it: strings as they are, paths as paths, numbers in the unit."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, numbers.Real):
        number = float(value)
        if number != number or number in (float("inf"), float("-inf")):
            raise InvalidValue(f"{value!r}: not a finite number")
        # Whole numbers as whole numbers: a toggle, an integer or an enumeration's index reads
        # `1`, not `1.0`.
        return str(int(number)) if number.is_integer() and abs(number) < 2**53 else repr(number)
    raise InvalidValue(f"{value!r}: expected a number, a string as --set reads it, or a path")


class Chain:
    """The built-in, one plug-in or several in series, as `--plugin` names them.

    ``plugins`` is one reference or a list of them (``"builtin"``, an LV2 URI or name, a
    LADSPA ``ladspa:ID`` or label, ``FILE.so:LABEL``, ``NAME=REFERENCE`` to name a slot);
    none is the built-in lowpass + gain. In a chain a parameter is ``SLOT.ID``.

    Values set before the first ``process`` (or after ``reset``) are starting values, as
    ``--set``; later ones glide with the engine's smoothing, as live.

    With ``isolate=True`` each plug-in runs in a process of its own: one that crashes, aborts
    or hangs raises ``PluginCrashed``, and the next call starts afresh.
    """

    def __init__(self, plugins=None, sample_rate=48000, channels=2, isolate=False, graph=None):
        if graph is not None:
            if plugins:
                raise InvalidValue("give plugins or graph, not both")
            plugins = [os.fspath(graph)]
        if plugins is None:
            plugins = []
        elif isinstance(plugins, (str, os.PathLike)):
            plugins = [plugins]
        references = [os.fspath(p) if isinstance(p, os.PathLike) else p for p in plugins]
        if not all(isinstance(r, str) for r in references):
            raise InvalidValue("plugins: expected a string or a list of strings")
        if isinstance(channels, bool) or not isinstance(channels, numbers.Integral):
            raise InvalidValue(f"channels {channels!r}: expected a whole number")
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, numbers.Real):
            raise InvalidValue(f"sample_rate {sample_rate!r}: expected a number of Hz")
        array = (ctypes.c_char_p * max(1, len(references)))(*[r.encode() for r in references])
        handle = ctypes.c_void_p()
        self._handle = None
        _call(lib.detent_chain_new, array, len(references), float(sample_rate), int(channels), ctypes.byref(handle))
        self._handle = handle
        if isolate:
            # Each plug-in runs in a process of its own: this interpreter serving it
            # (``python -m detent._slot slot REQUEST``), so a crash raises PluginCrashed.
            words = [b"-m", b"detent._slot"]
            argv = (ctypes.c_char_p * len(words))(*words)
            _call(lib.detent_chain_isolate, handle, os.fsencode(sys.executable), argv, len(words))
        self.sample_rate = float(sample_rate)
        self.channels = int(channels)

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._handle = None
            try:
                lib.detent_chain_free(handle)
            except Exception:  # the interpreter is shutting down and ctypes is gone
                pass

    def __repr__(self):
        return f"detent.Chain({self.identifier!r}, sample_rate={self.sample_rate:g}, channels={self.channels})"

    @property
    def identifier(self):
        """What presets and sessions store to name this processor."""
        return take_string(lib.detent_chain_identifier(self._handle))

    @property
    def parameters(self):
        """The rows `detent params --json` prints, as dicts."""
        text = take_string(lib.detent_chain_parameters(self._handle))
        return [json.loads(line) for line in text.split("\n") if line]

    @property
    def latency(self):
        """Frames of latency, which ``process`` compensates for a whole signal."""
        frames = ctypes.c_int64()
        _call(lib.detent_chain_latency, self._handle, ctypes.byref(frames))
        return frames.value

    def __setitem__(self, parameter, value):
        if not isinstance(parameter, str):
            raise InvalidValue(f"{parameter!r}: a parameter id is a string")
        _call(lib.detent_chain_set, self._handle, parameter.encode(), _text(value).encode())

    def __getitem__(self, parameter):
        if not isinstance(parameter, str):
            raise InvalidValue(f"{parameter!r}: a parameter id is a string")
        value = ctypes.c_double()
        _call(lib.detent_chain_get, self._handle, parameter.encode(), ctypes.byref(value))
        return value.value

    def reset(self):
        """Starts afresh: state cleared, the values kept as starting values."""
        _call(lib.detent_chain_reset, self._handle)

    def load_preset(self, preset):
        """Loads a preset by name or file, as ``--preset``: starting values, or glides once running."""
        _call(lib.detent_chain_load_preset, self._handle, os.fspath(preset).encode())

    def save_preset(self, name, replace=False):
        """Saves the values as the user preset ``name``; returns the file written."""
        path = ctypes.c_void_p()
        _call(lib.detent_chain_save_preset, self._handle, name.encode(), 1 if replace else 0, ctypes.byref(path))
        return take_string(path.value)

    def process(self, x=None, *, frames=None, midi=None, reset=True, sidechain=None):
        """Processes ``x`` (float32, ``(channels, frames)``; mono may be 1-D) and returns the output.

        With ``reset=True`` (the default) ``x`` is a whole signal: the output is as long,
        the processor's latency compensated as ``detent render`` does, and the chain then
        starts afresh. With ``reset=False`` state carries into the next call (streaming):
        the first calls give fewer frames, by the latency, and the last call of a stream
        (``reset=True``) renders it out, so the parts joined equal one call over the whole.

        With no ``x``, ``frames`` frames of silence are processed: an instrument's notes come
        in ``midi``, a list of ``(frame, bytes)`` counted from this call's start, in order.

        ``sidechain`` keys a compressor or feeds a graph's named inputs: a float32 array as
        long as ``x`` (1-D or ``(channels, frames)``, folded to the chain's channels) for the
        one keyed slot, or a dict of slot or input name to array (``{"comp": voice}``).
        """
        if x is None:
            if frames is None:
                raise InvalidValue("process: give the input x, or frames=N for an instrument")
            if isinstance(frames, bool) or not isinstance(frames, numbers.Integral) or frames < 0:
                raise InvalidValue(f"frames {frames!r}: expected a whole number, 0 or more")
            count = int(frames)
            source = None
            stride = 0
        else:
            if not isinstance(x, np.ndarray):
                raise InvalidValue(f"input is {type(x).__name__}: expected a numpy array of float32")
            if x.dtype != np.float32:
                raise InvalidValue(f"input is {x.dtype}: expected float32 (x.astype(numpy.float32))")
            if x.ndim == 1:
                x = x.reshape(1, -1)
            if x.ndim != 2:
                raise InvalidValue(f"input has {x.ndim} dimensions: expected (channels, frames)")
            if x.shape[0] != self.channels:
                raise InvalidValue(f"input has {x.shape[0]} channels (shape {x.shape}); the chain was made for "
                                   f"{self.channels}: the shape is (channels, frames)")
            if frames is not None and frames != x.shape[1]:
                raise InvalidValue(f"frames {frames!r}: x holds {x.shape[1]}")
            if not x.flags.c_contiguous:
                x = np.ascontiguousarray(x)
            count = x.shape[1]
            source = x.ctypes.data
            stride = count
        events, keep = _midi(midi)
        keys, keep_keys = _keys(sidechain, count if x is not None else None)
        final = 1 if reset else 0
        written = ctypes.c_int64()
        _call(lib.detent_chain_output_frames, self._handle, count, final, ctypes.byref(written))
        out = np.empty((self.channels, written.value), dtype=np.float32)
        _call(lib.detent_chain_process, self._handle, source, stride, count, out.ctypes.data, out.shape[1], final,
              *events, *keys, ctypes.byref(written))
        del keep, keep_keys
        if written.value != out.shape[1]:
            raise Error(f"the chain wrote {written.value} frames where {out.shape[1]} were expected")
        return out


def _keys(sidechain, frames):
    """Side-chain keys as the C interface takes them (count, names, data, channels), and the
    arrays that hold them, to keep until the call returns."""
    if sidechain is None:
        return (0, None, None, None), None
    if frames is None:
        raise InvalidValue("sidechain: keys go with an input x, as long as it")
    named = sidechain.items() if isinstance(sidechain, dict) else [("", sidechain)]
    names, arrays = [], []
    for name, key in named:
        label = f"sidechain {name!r}" if name else "sidechain"
        if not isinstance(key, np.ndarray) or key.dtype != np.float32:
            raise InvalidValue(f"{label}: expected a numpy array of float32")
        if key.ndim == 1:
            key = key.reshape(1, -1)
        if key.ndim != 2 or key.shape[1] != frames:
            raise InvalidValue(f"{label} has shape {key.shape}: expected (channels, {frames}), as long as x")
        names.append(str(name).encode())
        arrays.append(np.ascontiguousarray(key))
    count = len(arrays)
    names_array = (ctypes.c_char_p * count)(*names)
    data_array = (ctypes.c_void_p * count)(*[a.ctypes.data for a in arrays])
    channels_array = (ctypes.c_int64 * count)(*[a.shape[0] for a in arrays])
    return (count, names_array, data_array, channels_array), (arrays, names_array, data_array, channels_array)


def _midi(midi):
    """MIDI messages as the C interface takes them (bytes, frames, offsets, sizes, count), and
    the buffers that hold them, to keep until the call returns."""
    if not midi:
        return (None, None, None, None, 0), None
    data = bytearray()
    at, offsets, sizes = [], [], []
    for item in midi:
        try:
            frame, message = item
        except (TypeError, ValueError):
            raise InvalidValue(f"MIDI message {item!r}: expected (frame, bytes)") from None
        if isinstance(frame, bool) or not isinstance(frame, numbers.Integral):
            raise InvalidValue(f"MIDI message {item!r}: the frame is not a whole number")
        message = bytes(message)
        if not message:
            raise InvalidValue(f"MIDI message {item!r}: no bytes")
        at.append(int(frame))
        offsets.append(len(data))
        sizes.append(len(message))
        data += message
    buffer = (ctypes.c_uint8 * len(data)).from_buffer(data)
    frames_array = (ctypes.c_int64 * len(at))(*at)
    offsets_array = (ctypes.c_int64 * len(at))(*offsets)
    sizes_array = (ctypes.c_int32 * len(at))(*sizes)
    keep = (data, buffer, frames_array, offsets_array, sizes_array)
    return (ctypes.addressof(buffer), ctypes.addressof(frames_array), ctypes.addressof(offsets_array),
            ctypes.addressof(sizes_array), len(at)), keep
