"""Files rendered as `detent render` renders them, in this process."""
import ctypes
import json
import numbers
import os
import sys
from typing import Any, Callable, Sequence, Union

from ._native import RENDER_LINE, lib, take_string
from .chain import _text
from .errors import InvalidValue, raise_for


def render(inputs: "str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None",
           out_dir: "str | os.PathLike[str] | None" = None, output: "str | os.PathLike[str] | None" = None,
           plugins: "str | Sequence[str] | None" = None, values: "dict[str, Any] | None" = None,
           preset: "str | os.PathLike[str] | None" = None, jobs: "int | None" = None, force: bool = False,
           graph: "str | os.PathLike[str] | None" = None, sidechain: "str | os.PathLike[str] | dict[str, Any] | None" = None,
           graph_inputs: "dict[str, Any] | None" = None, progress: "Progress" = False,
           _manifest: "str | None" = None, _total: "int | None" = None,
           **options: Any) -> "list[dict[str, Any]]":
    """Renders audio files through a processor or chain, as ``detent render --json`` does.

    ``inputs`` is a path or a list of them; outputs go to ``out_dir`` (named like their
    inputs), to ``output`` (one input), or beside each input (``<stem>.detent.<ext>``).
    ``plugins`` names the processors as ``Chain`` does, ``values`` maps ids to values
    (strings as ``--set`` reads them, numbers in the unit), ``preset`` starts from a preset;
    ``jobs`` files render at once (default: every core). Further options by their long
    names, ``-`` written ``_`` (``automation``, ``midi``, ``bpm``, ``tail``, ``format``,
    ``subtype``, ``dither``, ``quality``, ``normalize``, ``block``, ``chain``, …:
    ``detent.render_options()`` lists them all); with no inputs, ``midi`` and ``output``
    render an instrument from the MIDI file alone (``rate``, ``channels``).

    ``graph`` hosts a graph file (``--graph``); ``sidechain`` keys a slot with a file (a
    path for the one keyed slot, or a dict of slot name to path); ``graph_inputs`` feeds a
    graph's named inputs (a dict of name to path), as ``--sidechain`` and ``--input`` do.

    ``progress`` shows the files as they are done: ``True`` for a tqdm bar (when tqdm can be
    imported; otherwise a count on stderr, rewritten in place, when stderr is a terminal), or
    a function called with each file's dict as soon as it and every file before it are done.

    Returns one dict per file, in the order of ``inputs``: what ``--json`` prints, with
    ``error`` and ``exitCode`` for a file that failed (the others still render). A problem
    that concerns every file raises.
    """
    if inputs is None:
        inputs = []
    elif isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    request = {"inputs": [os.fspath(i) for i in inputs], "force": bool(force)}
    if out_dir is not None:
        request["out_dir"] = os.fspath(out_dir)
    if output is not None:
        request["output"] = os.fspath(output)
    if plugins is not None:
        request["plugins"] = [plugins] if isinstance(plugins, str) else [os.fspath(p) for p in plugins]
    if preset is not None:
        request["preset"] = os.fspath(preset)
    if values:
        request["sets"] = [f"{k}={_text(v)}" for k, v in values.items()]
    if graph is not None:
        request["graph"] = os.fspath(graph)
    if sidechain is not None:
        pairs = sidechain.items() if isinstance(sidechain, dict) else [(None, sidechain)]
        request["sidechains"] = [(f"{k}=" if k else "") + os.fspath(v) for k, v in pairs]
    if graph_inputs:
        request["named_inputs"] = [f"{k}={os.fspath(v)}" for k, v in graph_inputs.items()]
    if jobs is not None:
        if isinstance(jobs, bool) or not isinstance(jobs, numbers.Integral):
            raise InvalidValue(f"jobs {jobs!r}: expected a whole number")
        request["jobs"] = int(jobs)
    allowed = render_options()
    if _manifest is not None:  # render_many's jobs
        request["manifest"] = _manifest
    for key, value in options.items():
        if key not in allowed or key in _SPELLED_OUT:
            hint = f" (use {_SPELLED_OUT[key]}=)" if key in _SPELLED_OUT else ""
            raise InvalidValue(f"render: unknown option {key!r}{hint}")
        if allowed[key] == "flag" and not isinstance(value, bool):
            raise InvalidValue(f"{key} {value!r}: expected True or False")
        request[key] = os.fspath(value) if isinstance(value, os.PathLike) else value
    _refuse_nul(request)
    report = _reporter(progress, _total if _total is not None else len(request["inputs"]) or 1)
    if report is not None:
        return _render_streaming(request, *report)
    error = ctypes.c_void_p()
    results = ctypes.c_void_p()
    status = lib.detent_render(json.dumps(request).encode(), ctypes.byref(results), ctypes.byref(error))
    if status:
        raise_for(status, take_string(error.value))
    return [json.loads(line) for line in take_string(results.value).split("\n") if line]


# What ``progress=`` takes: False (nothing), True (a bar or a count), or a function of each
# file's result.
Progress = Union[bool, None, Callable[["dict[str, Any]"], Any]]


def _render_streaming(request, tell, finish):
    """Renders as ``detent_render`` does, each file's result handed to ``tell`` as it is done
    (on a thread of the render's: ctypes takes the GIL for each call, and lets it go for the
    render itself), and ``finish`` called at the end. An exception ``tell`` raises stops the
    telling and is raised once the render is over (the files still render)."""
    results = []
    raised = []

    def receive(line, _context):
        try:
            result = json.loads(line.decode("utf-8", "replace"))
            results.append(result)
            if not raised:
                tell(result)
        except BaseException as problem:  # raised after the render, not lost inside ctypes
            raised.append(problem)

    callback = RENDER_LINE(receive)
    error = ctypes.c_void_p()
    try:
        status = lib.detent_render_streaming(json.dumps(request).encode(), callback, None, ctypes.byref(error))
    finally:
        finish()
    if status:
        raise_for(status, take_string(error.value))
    if raised:
        raise raised[0]
    return results


def _reporter(progress, total):
    """What ``progress=`` asks for, as the function each file's result goes to and the one
    that ends the report; None for no progress."""
    if progress is None or progress is False:
        return None
    if progress is True:
        try:
            import tqdm
        except ImportError:
            counter = _Counter(total)
            return counter, counter.close
        bar = tqdm.tqdm(total=total, unit="file", desc="detent render")
        return (lambda result: bar.update(1)), bar.close
    if callable(progress):
        return progress, lambda: None
    raise InvalidValue(f"progress {progress!r}: expected True, False or a function of each file's result")


class _Counter:
    """``progress=True`` without tqdm: ``detent render: 3/10 files`` on stderr, rewritten in
    place, when stderr is a terminal; nothing otherwise."""

    def __init__(self, total):
        self.total = total
        self.done = 0
        self.failed = 0
        self.stream = sys.stderr
        try:
            self.shows = self.stream.isatty()
        except (AttributeError, ValueError):  # no stderr, or a closed one
            self.shows = False

    def __call__(self, result):
        self.done += 1
        self.failed += "error" in result
        if self.shows:
            failed = f", {self.failed} failed" if self.failed else ""
            self.stream.write(f"\rdetent render: {self.done}/{self.total} files{failed}")
            self.stream.flush()

    def close(self):
        if self.shows and self.done:
            self.stream.write("\n")
            self.stream.flush()


# The request keys that render()'s own arguments fill, by the argument that fills them.
_SPELLED_OUT = {"inputs": "inputs", "sets": "values", "sidechains": "sidechain", "named_inputs": "graph_inputs",
                "manifest": "render_many"}

# A job's fields that name files: made absolute, as the jobs' manifest is written elsewhere.
_JOB_PATHS = ("input", "output", "automation", "midi", "chain", "graph")


def render_many(jobs: "Sequence[dict[str, Any]]", workers: "int | None" = None, progress: Progress = False,
                **options: Any) -> "list[dict[str, Any]]":
    """Renders many files, each with its own settings, on every core (``workers`` files at
    once; default: every core), as ``detent render --manifest`` does: the jobs are streamed
    into a manifest and rendered by the same machinery, a bad job failing alone.

    Each job is a dict: ``input`` (a file), and any of ``output`` (default: beside the input,
    or in ``out_dir``), ``values`` (a dict of id to value, over those of ``options``),
    ``automation`` (a file, or curves as ``Chain.process`` takes them: ``{id: (times,
    values)}``), ``preset``, ``plugins``, and the other options ``render`` takes, by name.
    ``options`` hold for every job (``plugins``, ``values``, ``out_dir``, ``tail`` …).

    ``progress`` shows the jobs as they are done, as ``render``'s does: ``True`` for a tqdm
    bar (or a count on a terminal's stderr), or a function called with each job's dict.

    Returns one dict per job, in order: what ``--json`` prints, with ``error`` and
    ``exitCode`` for a job that failed.
    """
    import json as _json
    import tempfile
    from .chain import _automation

    with tempfile.TemporaryDirectory(prefix="detent-jobs-") as folder:
        manifest = os.path.join(folder, "jobs.jsonl")
        count = 0
        with open(manifest, "w", encoding="utf-8") as lines:
            for job in jobs:
                if not isinstance(job, dict) or "input" not in job:
                    raise InvalidValue(f"job {count + 1}: expected a dict with an 'input'")
                line = {}
                for key, value in job.items():
                    name = {"plugins": "plugin", "sidechain": "sidechain", "values": "values"}.get(key, key.replace("_", "-"))
                    if key == "automation" and isinstance(value, dict):
                        path = os.path.join(folder, f"automation-{count + 1}.txt")
                        with open(path, "w", encoding="utf-8") as text:
                            text.write(_automation(value, None) + "\n")
                        value = path
                    elif key == "values":
                        if not isinstance(value, dict):
                            raise InvalidValue(f"job {count + 1}: values: expected a dict of id to value")
                        value = {k: (v if isinstance(v, (int, float)) and not isinstance(v, bool) else _text(v))
                                 for k, v in value.items()}
                    elif isinstance(value, os.PathLike):
                        value = os.fspath(value)
                    if key in _JOB_PATHS and isinstance(value, str) and value != "-":
                        value = os.path.abspath(value)
                    line[name] = value
                _refuse_nul(line)
                lines.write(_json.dumps(line) + "\n")
                count += 1
        if count == 0:
            return []
        if workers is not None:
            options["jobs"] = workers
        return render([], _manifest=manifest, progress=progress, _total=count, **options)
_options = None


def render_options() -> "dict[str, str]":
    """The options ``render`` takes by keyword, each with the kind of value it wants (``text``,
    ``texts``, ``number``, ``whole`` or ``flag``): read from the library's one table of render
    options, the one the command line and manifests read too. The few the table has that
    ``render`` takes by arguments of their own (``inputs``, ``values`` for ``sets``,
    ``sidechain``, ``graph_inputs``, ``render_many`` for a manifest) are not listed."""
    return {key: kind for key, kind in _table().items() if key not in _SPELLED_OUT}


def _table():
    """Every key of the library's table of render options, with its kind, read once."""
    global _options
    if _options is None:
        text = take_string(lib.detent_render_options())
        _options = dict(line.split(" ", 1) for line in text.split("\n") if line)
    return _options


def _refuse_nul(value, field="render"):
    """Refuses a NUL character in any string of the request: the library's file calls would
    read the path or value only up to it."""
    if isinstance(value, str):
        if "\0" in value:
            raise InvalidValue(f"{field} {value!r}: holds a NUL character")
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_nul(item, key)
    elif isinstance(value, list):
        for item in value:
            _refuse_nul(item, field)
