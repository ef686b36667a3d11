"""A chain of processors over numpy arrays."""
import collections.abc
import ctypes
import json
import numbers
import os
import sys
import threading
import warnings
from typing import Any, Sequence

import numpy as np

from ._native import lib, take_string
from .errors import Error, InvalidValue, RepairWarning, raise_for


def _call(function, *arguments):
    """Calls a function of the C interface whose last argument is its error line."""
    error = ctypes.c_void_p()
    status = function(*arguments, ctypes.byref(error))
    if status:
        raise_for(status, take_string(error.value))


def _c_string(what, text):
    """`text` as the C interface takes it: bytes without a NUL, which would cut it short there
    (``"800\\x00junk"`` read as ``800``). Paths keep the bytes they stand for."""
    if isinstance(text, os.PathLike):
        text = os.fspath(text)
    if isinstance(text, str):
        try:
            data = os.fsencode(text)
        except UnicodeEncodeError:
            raise InvalidValue(f"{what} {text!r}: not text that can be passed on (a lone surrogate)") from None
    elif isinstance(text, bytes):
        data = text
    else:
        raise InvalidValue(f"{what} {text!r}: expected a string")
    if b"\0" in data:
        raise InvalidValue(f"{what} {text!r}: holds a NUL character")
    return data


def _whole(what, value, low, high):
    """`value` as an int from `low` to `high` (the C type's range, or less): ctypes would wrap
    a larger one silently (2**63 frames read as a negative count)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise InvalidValue(f"{what} {value!r}: expected a whole number")
    if not low <= value <= high:
        raise InvalidValue(f"{what} {value!r}: expected {low} … {high}")
    return int(value)


_INT32 = 2**31 - 1
_INT64 = 2**63 - 1


def _text(value):
    """A value as `--set` reads it: strings as they are, paths as paths, numbers in the unit."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, numbers.Real):
        try:
            number = float(value)
        except OverflowError:
            raise InvalidValue(f"{value!r}: not a finite number") from None
        if number != number or number in (float("inf"), float("-inf")):
            raise InvalidValue(f"{value!r}: not a finite number")
        # Whole numbers as whole numbers: a toggle, an integer or an enumeration's index reads
        # `1`, not `1.0`.
        return str(int(number)) if number.is_integer() and abs(number) < 2**53 else repr(number)
    raise InvalidValue(f"{value!r}: expected a number, a string as --set reads it, or a path")


def _references(plugins, graph):
    """The processors' references as the C interface takes them: one string, a path, or a list
    of them; or the graph file ``graph``, which must be a file."""
    if graph is not None:
        if plugins is not None and not (isinstance(plugins, (list, tuple)) and len(plugins) == 0):
            raise InvalidValue("give plugins or graph, not both")
        path = _c_string("graph", graph)
        if os.path.isdir(path):
            raise InvalidValue(f"graph {os.fsdecode(path)!r}: a folder, not a graph file")
        return [path]
    if plugins is None:
        return []
    if isinstance(plugins, (str, os.PathLike)):
        plugins = [plugins]
    elif isinstance(plugins, (bytes, dict)) or not isinstance(plugins, collections.abc.Iterable):
        raise InvalidValue(f"plugins {plugins!r}: expected a string or a list of strings")
    plugins = list(plugins)
    if not all(isinstance(p, (str, os.PathLike)) for p in plugins):
        raise InvalidValue("plugins: expected a string or a list of strings")
    return [_c_string("plug-in", p) for p in plugins]


def _parameter(parameter):
    """A parameter id as the C interface takes it."""
    if not isinstance(parameter, str):
        raise InvalidValue(f"{parameter!r}: a parameter id is a string")
    return _c_string("parameter", parameter)


class Chain:
    """The built-in, one plug-in or several in series, as `--plugin` names them.

    ``plugins`` is one reference or a list of them (``"builtin"``, an LV2 URI or name, a
    LADSPA ``ladspa:ID`` or label, ``FILE.so:LABEL``, ``vst3:NAME``, ``clap:NAME``,
    ``vst2:NAME`` or a plug-in's file, ``NAME=REFERENCE`` to name a slot);
    none is the built-in lowpass + gain. In a chain a parameter is ``SLOT.ID``.

    Values set before the first ``process`` (or after ``reset``) are starting values, as
    ``--set``; later ones glide with the engine's smoothing, as live.

    With ``isolate=True`` each plug-in runs in a process of its own: one that crashes, aborts
    or hangs raises ``PluginCrashed``, and the next call starts afresh. ``isolate="together"``
    runs them all in one process, and ``isolate="drive+eq,verb"`` in the groups of slots named
    (each other slot alone): a fault then takes its whole sandbox down. ``timeout`` (seconds)
    is how long an isolated plug-in may take to start, or to run one block, before it counts
    as hung; by default 10 s to start and, to run, 10 s or four times the block's length — a
    slow plug-in offline is not a hung one.

    Ctrl-C interrupts a call that is processing in the main thread (a long signal, or an
    isolated chain waiting on its plug-ins): it raises ``KeyboardInterrupt`` at once, an
    isolated chain's processes stopped, and the next call starts afresh.
    """

    def __init__(self, plugins: "str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None" = None,
                 sample_rate: float = 48000, channels: int = 2, isolate: "bool | str" = False,
                 graph: "str | os.PathLike[str] | None" = None, timeout: "float | None" = None) -> None:
        self._handle = None
        references = _references(plugins, graph)
        channels = _whole("channels", channels, -_INT32, _INT32)
        if isinstance(sample_rate, bool) or not isinstance(sample_rate, numbers.Real):
            raise InvalidValue(f"sample_rate {sample_rate!r}: expected a number of Hz")
        try:
            rate = float(sample_rate)
        except OverflowError:
            raise InvalidValue(f"sample_rate {sample_rate!r}: expected a number of Hz") from None
        array = (ctypes.c_char_p * max(1, len(references)))(*references)
        handle = ctypes.c_void_p()
        _call(lib.detent_chain_new, array, len(references), rate, channels, ctypes.byref(handle))
        self._handle = handle
        if isolate is not False and isolate is not None:
            if isolate is True:
                plan = None
            elif isinstance(isolate, str):
                plan = isolate.encode()
            else:
                self.close()
                raise InvalidValue(f"isolate {isolate!r}: expected True, \"together\" or groups of slots (\"a+b,c\")")
            # The plug-ins run in processes of their own: this interpreter serving them
            # (``python -m detent._slot slot SANDBOX``), so a crash raises PluginCrashed.
            words = [b"-m", b"detent._slot"]
            argv = (ctypes.c_char_p * len(words))(*words)
            try:
                _call(lib.detent_chain_isolate, handle, os.fsencode(sys.executable), argv, len(words), plan)
                if timeout is not None:
                    _call(lib.detent_chain_timeout, handle, _seconds("timeout", timeout))
            except BaseException:
                self.close()
                raise
        elif timeout is not None:
            self.close()
            raise InvalidValue(f"timeout {timeout!r}: applies to an isolated chain (isolate=True)")
        self.sample_rate = rate
        self.channels = channels
        # What a copy is made again from beside the chain's snapshot (``__reduce__``).
        self._graph = None if graph is None else os.fsdecode(_c_string("graph", graph))
        self._isolate = isolate if isolate is not None else False
        self._timeout = timeout

    def close(self) -> None:
        """Frees the chain now rather than when it is collected; any later use raises
        ``detent.Error("chain is closed")``. Closing twice does nothing."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            lib.detent_chain_free(handle)

    def _live(self):
        """The handle of a chain still open: every call goes through here, so a closed chain
        raises instead of handing the library a null pointer."""
        handle = getattr(self, "_handle", None)
        if not handle:
            raise Error("chain is closed")
        return handle

    def __reduce__(self):
        """A chain travels as what it was made from and what makes it what it is now — every
        value, its files and a preset's plug-in state — and is made again from them: a copy
        (``copy.copy``, ``copy.deepcopy``), a pickle, a chain sent to a Dask, Ray or
        ``multiprocessing`` worker is an independent chain with its own plug-in instances,
        starting afresh at those values."""
        snapshot = ctypes.c_void_p()
        _call(lib.detent_chain_snapshot, self._live(), ctypes.byref(snapshot))
        return _remade, (self._graph, self._isolate, self.sample_rate, self.channels, take_string(snapshot.value),
                         self._timeout)

    def __copy__(self):
        function, arguments = self.__reduce__()
        return function(*arguments)

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __del__(self):
        try:
            self.close()
        except Exception:  # the interpreter is shutting down and ctypes is gone
            pass

    def __repr__(self):
        if not getattr(self, "_handle", None):
            return "<detent.Chain, closed>"
        plugins = [f"{slot['name']}={slot['identifier']}" for slot in self._slot_rows()]
        return f"detent.Chain({plugins!r}, sample_rate={self.sample_rate:g}, channels={self.channels})"

    @property
    def identifier(self) -> str:
        """What presets and sessions store to name this processor."""
        return take_string(lib.detent_chain_identifier(self._live()))

    @property
    def parameters(self) -> "list[dict[str, Any]]":
        """The rows `detent params --json` prints, as dicts, each with its ``value`` now (the
        starting value, or the target it glides to) and that value's ``text`` as Detent shows
        it (``"800 Hz"``; a plug-in's own words, ``"20.0 ms"``, for a row it knows only as 0…1)."""
        rows = self._rows()
        for row in rows:
            if "id" in row and row.get("kind") != "file":
                try:
                    row["value"] = self[row["id"]]
                    row["text"] = self.text(row["id"])
                except Error:
                    pass
        return rows

    def text(self, parameter: str) -> str:
        """A parameter's value now as Detent shows it: ``"1.20 kHz"``, ``"-6.0 dB"``, ``"on"``, or
        the plug-in's own words (``"20.0 ms"``) for a row it knows only as 0…1. Setting a
        parameter takes such words too: ``chain["attack_time"] = "30 ms"``."""
        handle = self._live()
        text = ctypes.c_void_p()
        _call(lib.detent_chain_text, handle, _parameter(parameter), ctypes.byref(text))
        return take_string(text.value)

    def _rows(self):
        """The rows `detent params --json` prints, without values: one call to the library."""
        text = take_string(lib.detent_chain_parameters(self._live()))
        return [json.loads(line) for line in text.split("\n") if line]

    def __contains__(self, name: object) -> bool:
        """True for a parameter id (``"builtin.cutoff"``) or a slot's name the chain has."""
        if not isinstance(name, str):
            return False
        if any(row.get("id") == name for row in self._rows()):
            return True
        return name.lower() in (slot.lower() for slot in self.slots)

    @property
    def slots(self) -> "list[str]":
        """The slots' names, in order (a processor alone is the one slot it would be in a chain)."""
        return [slot["name"] for slot in self._slot_rows()]

    def _slot_rows(self):
        """Each slot's name, plug-in and identifier."""
        return json.loads(take_string(lib.detent_chain_slots(self._live())))

    def __len__(self) -> int:
        """How many slots the chain has."""
        return len(self.slots)

    def append(self, plugin: "str | os.PathLike[str] | Plugin") -> None:
        """Adds a plug-in (a reference as ``Chain`` takes one; ``NAME=REFERENCE`` names its
        slot; or a ``Plugin``, of this chain or another, copied: the same plug-in under its
        name, at its values) at the end. The slots there keep their values, files and state;
        a new one starts at its defaults; the next call starts afresh, as after ``reset``."""
        self.insert(len(self), plugin)

    def insert(self, index: int, plugin: "str | os.PathLike[str] | Plugin") -> None:
        """Adds a plug-in before the slot at ``index`` (``len(chain)``: at the end)."""
        index = _whole("index", index, -_INT32, _INT32)
        index = max(0, min(len(self), index + len(self) if index < 0 else index))
        if isinstance(plugin, Plugin):
            return self._insert_copy(index, plugin)
        _call(lib.detent_chain_add, self._live(), _c_string("plug-in", plugin), index + 1)

    def _insert_copy(self, index, plugin):
        """A copy of ``plugin``'s slot before ``index``: its plug-in under its name (or the
        plug-in's own where this chain has that name already), then its values."""
        source = plugin._chain
        slot = next(row for row in source._slot_rows() if row["name"] == plugin.name)
        before = set(self.slots)
        named = plugin.name not in before
        reference = f"{plugin.name}={slot['identifier']}" if named else slot["identifier"]
        _call(lib.detent_chain_add, self._live(), _c_string("plug-in", reference), index + 1)
        added = next(name for name in self.slots if name not in before)
        copy = Plugin(self, added)
        rows = plugin.parameters
        prefix = plugin._prefix(rows)
        target = copy._prefix(self._rows())
        for row in rows:
            if "value" in row:
                self[target + row["id"][len(prefix):]] = row["value"]

    def remove(self, slot: str) -> None:
        """Removes the slot named ``slot``."""
        _call(lib.detent_chain_remove, self._live(), _c_string("slot", slot))

    def __delitem__(self, slot):
        """``del chain[i]`` or ``del chain["name"]``: removes that slot."""
        if isinstance(slot, str):
            self.remove(slot)
        else:
            names = self.slots
            i = _whole("index", slot, -len(names), len(names) - 1)
            self.remove(names[i])

    def move(self, slot: str, index: int) -> None:
        """Moves the slot named ``slot`` to ``index`` (0 is first)."""
        index = _whole("index", index, 0, _INT32 - 1)
        _call(lib.detent_chain_move, self._live(), _c_string("slot", slot), index + 1)

    @property
    def latency(self) -> int:
        """Frames of latency, which ``process`` compensates for a whole signal."""
        frames = ctypes.c_int64()
        _call(lib.detent_chain_latency, self._live(), ctypes.byref(frames))
        return frames.value

    @property
    def last_report(self) -> "dict[str, Any]":
        """What the last ``process`` call repaired, counted as ``detent render``'s summary
        counts it: ``nonFiniteBlocks`` (input blocks that held NaN or infinity, made silence),
        ``sanitizedOutputSamples`` (output samples made silence), ``absurdOutput`` (by slot,
        the frames it passed its input through for output that was not finite or beyond
        ±1e6), ``midiDropped`` and ``latency``."""
        report = ctypes.c_void_p()
        _call(lib.detent_chain_report, self._live(), ctypes.byref(report))
        return json.loads(take_string(report.value))

    @property
    def midi_dropped(self) -> int:
        """MIDI messages given to ``process`` that could not be played, since the chain was
        made: more than 512 at one frame, or more than a plug-in's list holds (counted as
        ``detent render`` counts them in its summary's ``midiDropped``)."""
        count = ctypes.c_int64()
        _call(lib.detent_chain_dropped_midi, self._live(), ctypes.byref(count))
        return count.value

    def __setitem__(self, parameter: str, value: "float | str | os.PathLike[str]") -> None:
        handle = self._live()
        _call(lib.detent_chain_set, handle, _parameter(parameter), _c_string("value", _text(value)))

    def __getitem__(self, parameter: "str | int") -> "float | Plugin":
        """``chain["builtin.cutoff"]``: a parameter's value; ``chain[0]``: the first slot, as a
        ``Plugin`` whose parameters are its attributes."""
        if isinstance(parameter, numbers.Integral) and not isinstance(parameter, bool):
            names = self.slots
            i = _whole("index", parameter, -len(names), len(names) - 1)
            return Plugin(self, names[i])
        handle = self._live()
        value = ctypes.c_double()
        _call(lib.detent_chain_get, handle, _parameter(parameter), ctypes.byref(value))
        return value.value

    def __iter__(self):
        """The slots, as ``Plugin`` views, in order."""
        return iter([Plugin(self, name) for name in self.slots])

    def __call__(self, x: "np.ndarray | None" = None, sample_rate: "float | None" = None, **options: Any) -> np.ndarray:
        """``chain(x, sample_rate)``, as pedalboard's boards are called: ``process``, after
        checking that ``sample_rate`` (if given) is the chain's."""
        if sample_rate is not None and sample_rate != self.sample_rate:
            raise InvalidValue(f"sample_rate {sample_rate!r}: this chain was made for {self.sample_rate:g} Hz")
        return self.process(x, **options)

    def reset(self) -> None:
        """Starts afresh: state cleared, the values kept as starting values."""
        _call(lib.detent_chain_reset, self._live())

    def load_preset(self, preset: "str | os.PathLike[str]") -> None:
        """Loads a preset by name or file, as ``--preset``: starting values, or glides once running."""
        handle = self._live()
        _call(lib.detent_chain_load_preset, handle, _c_string("preset", preset))

    def save_preset(self, name: str, replace: bool = False) -> str:
        """Saves the values as the user preset ``name``; returns the file written."""
        handle = self._live()
        if not isinstance(name, str):
            raise InvalidValue(f"preset name {name!r}: expected a string")
        path = ctypes.c_void_p()
        _call(lib.detent_chain_save_preset, handle, _c_string("preset name", name), 1 if replace else 0, ctypes.byref(path))
        return take_string(path.value)

    def process(self, x: "np.ndarray | None" = None, *, frames: "int | None" = None,
                midi: "Sequence[tuple[int, bytes]] | None" = None, reset: bool = True,
                sidechain: "np.ndarray | dict[str, np.ndarray] | None" = None,
                automation: "dict[str, Any] | None" = None) -> np.ndarray:
        """Processes ``x`` and returns the output, laid out as ``x`` was: float32 or float64,
        ``(channels, frames)`` or ``(frames, channels)``, mono also 1-D (the output is float32).

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

        ``automation`` moves parameters sample-accurately within the call: a dict of id to a
        curve, either one value per frame (a 1-D array as long as the call) or breakpoints
        ``(times, values)``, times in seconds from the call's start — the first a jump, each
        later one reached by a glide from the one before, as the parameter glides. It is
        what ``detent render --automation`` does with the same events, sample for sample.
        """
        handle = self._live()
        transposed = False
        if x is None:
            if frames is None:
                raise InvalidValue("process: give the input x, or frames=N for an instrument")
            count = _whole("frames", frames, 0, _INT64)
            source = None
            stride = 0
        else:
            # (frames, channels) comes back the same way round, and 1-D mono as 1-D.
            one_dimensional = isinstance(x, np.ndarray) and x.ndim == 1
            x, transposed = _planar(x, self.channels, "the chain was made for")
            if frames is not None and frames != x.shape[1]:
                raise InvalidValue(f"frames {frames!r}: x holds {x.shape[1]}")
            count = x.shape[1]
            source = x.ctypes.data
            stride = count
        if automation is not None:
            _call(lib.detent_chain_automate, handle, _c_string("automation", _automation(automation, count)))
        events, keep = _midi(midi)
        keys, keep_keys = _keys(sidechain, count if x is not None else None)
        final = 1 if reset else 0
        written = ctypes.c_int64()
        _call(lib.detent_chain_output_frames, handle, count, final, ctypes.byref(written))
        try:
            out = np.empty((self.channels, written.value), dtype=np.float32)
        except (MemoryError, ValueError):
            raise InvalidValue(f"frames {count}: {written.value} frames of output do not fit in memory") from None
        repaired = ctypes.c_int32()
        arguments = (handle, source, stride, count, out.ctypes.data, out.shape[1], final, *events, *keys,
                     ctypes.byref(written), ctypes.byref(repaired))
        if self._isolate is not False or count > 5 * self.sample_rate:
            _interruptible(handle, lambda: _call(lib.detent_chain_process, *arguments))
        else:
            _call(lib.detent_chain_process, *arguments)
        del keep, keep_keys
        if written.value != out.shape[1]:
            raise Error(f"the chain wrote {written.value} frames where {out.shape[1]} were expected")
        # The report is read only when the call repaired something: most calls repair nothing.
        if repaired.value and not getattr(self, "_warned", False):
            repairs = _repairs(self.last_report)
            if repairs:
                self._warned = True
                warnings.warn(f"detent: {repairs} (chain.last_report counts each call's; said once per chain)",
                              RepairWarning, stacklevel=2)
        if x is not None and one_dimensional and not transposed:
            return out[0]
        return out.T if transposed else out


def _seconds(what, value):
    """A positive number of seconds, at most a day."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0 < float(value) <= 86_400:
        raise InvalidValue(f"{what} {value!r}: expected seconds above 0, at most a day (86400)")
    return float(value)


def _interruptible(handle, call):
    """Runs ``call`` (one that processes on ``handle``) so that Ctrl-C ends it: in the main
    thread, it runs on a worker while the main thread waits on an event, where Python takes
    the KeyboardInterrupt; the library is then told to stop the call (it ends at its next
    piece, an isolated chain's processes stopped), and the interrupt is raised once it has.
    (Not in ``Thread.join``: an interrupted join can take a live thread for ended.) In any
    other thread, where no KeyboardInterrupt arrives, it runs there."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    outcome = []
    finished = threading.Event()

    def work():
        try:
            outcome.append((True, call()))
        except BaseException as error:  # handed to the caller's thread
            outcome.append((False, error))
        finally:
            finished.set()

    threading.Thread(target=work, name="detent-process", daemon=True).start()
    try:
        while not finished.wait(0.5):
            pass
    except KeyboardInterrupt:
        lib.detent_chain_interrupt(handle)
        finished.wait()
        raise
    done, value = outcome[0]
    if not done:
        raise value
    return value


def _planar(x, channels, made_for):
    """``x`` as the library takes samples — float32, ``(channels, frames)``, C-contiguous —
    and whether it was given ``(frames, channels)``, as soundfile reads and pedalboard takes
    it (told by which side is ``channels`` long; ``(channels, frames)`` when both are). Mono
    may be 1-D; float64 is converted. ``made_for`` ends the refusal of another channel count
    (``"the chain was made for"`` 2 channels)."""
    if not isinstance(x, np.ndarray):
        raise InvalidValue(f"input is {type(x).__name__}: expected a numpy array of float32 or float64")
    if x.dtype not in (np.float32, np.float64):
        raise InvalidValue(f"input is {x.dtype}: expected float32 or float64 (x.astype(numpy.float32))")
    given = x.shape
    if x.ndim == 1:
        x = x.reshape(1, -1)
    if x.ndim != 2:
        raise InvalidValue(f"input has {x.ndim} dimensions (shape {given}): expected (channels, frames)")
    transposed = False
    if x.shape[0] != channels and x.shape[1] == channels:
        x = x.T
        transposed = True
    if x.shape[0] != channels:
        raise InvalidValue(f"input has shape {given}; {made_for} {channels} channel"
                           f"{'' if channels == 1 else 's'}: give (channels, frames) or (frames, channels)")
    if x.dtype != np.float32:
        x = x.astype(np.float32)
    if not x.flags.c_contiguous:
        x = np.ascontiguousarray(x)
    return x, transposed


def _automation(automation, frames):
    """Curves as the automation file's lines ``render --automation`` reads: one value per
    frame (a jump at each), or breakpoints ``(times, values)`` in seconds (a jump to the
    first, then a glide to each from the one before)."""
    if not isinstance(automation, dict):
        raise InvalidValue("automation: expected a dict of parameter id to curve")
    lines = []
    for parameter, curve in automation.items():
        name = os.fsdecode(_parameter(parameter))
        if isinstance(curve, np.ndarray) and curve.ndim == 1:
            if frames is not None and len(curve) != frames:
                raise InvalidValue(f"automation {name!r}: {len(curve)} values for {frames} frames (one per frame, or (times, values))")
            values = curve.astype(np.float64)
            if not np.isfinite(values).all():
                raise InvalidValue(f"automation {name!r}: not every value is a finite number")
            lines += [f"{i}smp {name} {v!r} ramp 0smp" for i, v in enumerate(values.tolist())]
        elif isinstance(curve, tuple) and len(curve) == 2:
            try:
                times, values = (np.asarray(part, dtype=np.float64).reshape(-1) for part in curve)
            except (TypeError, ValueError):
                raise InvalidValue(f"automation {name!r}: (times, values) must be numbers") from None
            if len(times) != len(values) or len(times) == 0:
                raise InvalidValue(f"automation {name!r}: {len(times)} times and {len(values)} values; give as many of each, at least one")
            if not (np.isfinite(times).all() and np.isfinite(values).all()) or times[0] < 0 or (np.diff(times) < 0).any():
                raise InvalidValue(f"automation {name!r}: times must be finite, from 0, in order; values finite")
            times, values = times.tolist(), values.tolist()  # Python floats: their repr is the number
            lines.append(f"{times[0]!r}s {name} {values[0]!r} ramp 0smp")
            for k in range(1, len(times)):
                lines.append(f"{times[k - 1]!r}s {name} {values[k]!r} ramp {times[k] - times[k - 1]!r}s")
        else:
            raise InvalidValue(f"automation {name!r}: expected a 1-D array of one value per frame, or (times, values) in seconds")
    return "\n".join(lines)


class Plugin:
    """One slot of a chain (``chain[0]``, ``for plugin in chain``): its parameters as
    attributes, by id with ``-`` written ``_`` (``plugin.cutoff = "1.2k"``, ``plugin.cutoff`` →
    1200.0), and in ``plugin.parameters`` with range, unit, default and value. A view: it sets
    and reads the chain's values, and follows the slot by name."""

    def __init__(self, chain: Chain, name: str) -> None:
        object.__setattr__(self, "_chain", chain)
        object.__setattr__(self, "name", name)

    def _prefix(self, rows):
        """What this slot's ids start with: its name and a dot, or nothing for a processor
        alone (whose ids have no slot's name before them)."""
        prefix = self.name + "."
        return prefix if any(row.get("id", "").startswith(prefix) for row in rows) else ""

    def _id(self, attribute):
        rows = self._chain._rows()
        prefix = self._prefix(rows)
        for row in rows:
            if row["id"].startswith(prefix):
                local = row["id"][len(prefix):]
                if attribute in (local, local.replace("-", "_")):
                    return row["id"]
        raise AttributeError(f"{self.name} has no parameter {attribute!r}")

    @property
    def parameters(self):
        """This slot's rows of ``chain.parameters``."""
        rows = self._chain.parameters
        prefix = self._prefix(rows)
        return [row for row in rows if row["id"].startswith(prefix)]

    def __getattr__(self, attribute):
        if attribute.startswith("_"):
            raise AttributeError(attribute)
        return self._chain[self._id(attribute)]

    def __setattr__(self, attribute, value):
        self._chain[self._id(attribute)] = value

    def process(self, x: "np.ndarray | None" = None, **options: Any) -> np.ndarray:
        """Processes ``x`` through this plug-in (one loaded alone: ``detent.load_plugin``);
        a slot of a larger chain is processed with its chain."""
        if len(self._chain.slots) != 1:
            raise Error(f"{self.name} is a slot of a chain of {len(self._chain.slots)}: process the chain")
        return self._chain.process(x, **options)

    def __call__(self, x: "np.ndarray | None" = None, sample_rate: "float | None" = None, **options: Any) -> np.ndarray:
        """``plugin(x, sample_rate)``, as pedalboard's plug-ins are called."""
        if len(self._chain.slots) != 1:
            raise Error(f"{self.name} is a slot of a chain of {len(self._chain.slots)}: process the chain")
        return self._chain(x, sample_rate, **options)

    @property
    def chain(self) -> Chain:
        """The chain this plug-in is a slot of."""
        return self._chain

    def __dir__(self):
        rows = self.parameters
        prefix = self._prefix(rows)
        return sorted({row["id"][len(prefix):].replace("-", "_") for row in rows} | {"name", "parameters"})

    def __repr__(self):
        rows = self.parameters
        prefix = self._prefix(rows)
        values = ", ".join(f"{row['id'][len(prefix):]}={row['value']:g}" for row in rows if "value" in row)
        return f"<detent.Plugin {self.name}: {values}>"


def _remade(graph, isolate, sample_rate, channels, snapshot, timeout=None):
    """A chain made again from what ``Chain.__reduce__`` gave: its plug-ins (or its graph),
    then the snapshot's shape (a chain edited since it was made, a chain of one slot),
    values, files and state."""
    shape = json.loads(snapshot)
    slots = shape.get("slots") or []
    plugins = None if graph is not None else (
        [slots[0]["identifier"]] if shape.get("alone") else [f"{slot['name']}={slot['identifier']}" for slot in slots])
    chain = Chain(plugins, sample_rate=sample_rate, channels=channels, isolate=isolate, graph=graph, timeout=timeout)
    _call(lib.detent_chain_restore, chain._live(), _c_string("snapshot", snapshot))
    return chain


def _repairs(report):
    """What a call's report says was repaired, in words; empty when nothing was."""
    said = []
    if report["nonFiniteBlocks"]:
        said.append("NaN or infinite input samples were made silence")
    for slot, frames in report["absurdOutput"].items():
        said.append(f"slot {slot} put out NaN, infinity or samples beyond ±1e6 for {frames} frames and passed its input through")
    if report["sanitizedOutputSamples"] and not report["absurdOutput"]:
        said.append(f"{report['sanitizedOutputSamples']} denormal output samples were made silence")
    if report["midiDropped"]:
        said.append(f"{report['midiDropped']} MIDI messages could not be played")
    return "; ".join(said)


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
        names.append(_c_string("sidechain name", str(name)))
        arrays.append(np.ascontiguousarray(key))
    count = len(arrays)
    names_array = (ctypes.c_char_p * count)(*names)
    data_array = (ctypes.c_void_p * count)(*[a.ctypes.data for a in arrays])
    channels_array = (ctypes.c_int64 * count)(*[a.shape[0] for a in arrays])
    return (count, names_array, data_array, channels_array), (arrays, names_array, data_array, channels_array)


def _midi(midi):
    """MIDI messages as the C interface takes them (bytes, frames, offsets, sizes, count), and
    the buffers that hold them, to keep until the call returns."""
    if midi is None:
        return (None, None, None, None, 0), None
    if isinstance(midi, (str, bytes, bytearray)) or not isinstance(midi, collections.abc.Iterable):
        raise InvalidValue(f"midi {midi!r}: expected a list of (frame, bytes)")
    data = bytearray()
    at, offsets, sizes = [], [], []
    for item in midi:
        try:
            frame, message = item
        except (TypeError, ValueError):
            raise InvalidValue(f"MIDI message {item!r}: expected (frame, bytes)") from None
        if isinstance(frame, bool) or not isinstance(frame, numbers.Integral) or not -_INT64 <= frame <= _INT64:
            raise InvalidValue(f"MIDI message {item!r}: the frame is not a whole number of frames")
        message = _midi_bytes(item, message)
        at.append(int(frame))
        offsets.append(len(data))
        sizes.append(len(message))
        data += message
    if not at:
        return (None, None, None, None, 0), None
    buffer = (ctypes.c_uint8 * len(data)).from_buffer(data)
    frames_array = (ctypes.c_int64 * len(at))(*at)
    offsets_array = (ctypes.c_int64 * len(at))(*offsets)
    sizes_array = (ctypes.c_int32 * len(at))(*sizes)
    keep = (data, buffer, frames_array, offsets_array, sizes_array)
    return (ctypes.addressof(buffer), ctypes.addressof(frames_array), ctypes.addressof(offsets_array),
            ctypes.addressof(sizes_array), len(at)), keep


def _midi_bytes(item, message):
    """A MIDI message's bytes: bytes, a bytearray or a list of numbers 0 … 255 (not text,
    nor a number, which ``bytes`` would take as a count of zeros)."""
    if isinstance(message, str):
        raise InvalidValue(f"MIDI message {item!r}: expected bytes such as b'\\x90\\x3c\\x64', not text")
    if isinstance(message, numbers.Number):
        raise InvalidValue(f"MIDI message {item!r}: expected bytes, not a number")
    try:
        message = bytes(message)
    except (TypeError, ValueError):
        raise InvalidValue(f"MIDI message {item!r}: expected bytes (each 0 … 255)") from None
    if not message:
        raise InvalidValue(f"MIDI message {item!r}: no bytes")
    if len(message) > _INT32:
        raise InvalidValue(f"MIDI message {item!r}: longer than any MIDI message")
    return message
