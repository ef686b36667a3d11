"""Detent's exceptions: each carries the one line the command line prints for the same mistake."""


class Error(Exception):
    """Anything Detent refuses: a preset that cannot be read, a plug-in that fails."""


class InvalidValue(Error, ValueError):
    """A value that is wrong: unparseable, outside a parameter's words, a wrong shape or dtype."""


class UnknownParameter(Error, KeyError):
    """A parameter id the chain does not have."""

    def __str__(self):
        return str(self.args[0]) if self.args else ""


class ChainBusy(Error, RuntimeError):
    """The chain is being used by another thread: use one chain per thread."""


class PluginNotFound(Error, LookupError):
    """No installed plug-in answers to the reference, or several do."""


class PluginCrashed(Error):
    """A plug-in hosted in a process of its own (``isolate=True``) crashed."""


class RepairWarning(UserWarning):
    """A call repaired what it was given or what a plug-in made (NaN input made silence, a
    plug-in's absurd output passed over, MIDI that could not be played): said once per chain;
    ``chain.last_report`` counts each call's."""


_BY_STATUS = {1: Error, 2: InvalidValue, 3: UnknownParameter, 4: ChainBusy, 5: PluginNotFound, 6: PluginCrashed}


def raise_for(status, line):
    if status == 7:  # interrupted: the call ended at Ctrl-C
        raise KeyboardInterrupt
    raise _BY_STATUS.get(status, Error)(line)
