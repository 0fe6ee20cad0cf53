"""``balance`` commands run in the test's own process, for tests about what a command does rather
than about the process it runs in (signals, exit of a killed process, start-up, a read-only
checkout keep a process of their own).

:func:`balance` runs ``cli._run`` (what the console script runs, without ``sys.exit``) and returns
what :func:`subprocess.run` would have: the exit code, stdout and stderr. A ``balance`` process
costs about a second of CPU in imports alone (numba, polars, matplotlib); in the test's process
they are imported once (docs/testing.md). May import the standard library and :mod:`cli`.
"""

from __future__ import annotations

import contextlib
import io
from types import SimpleNamespace


def balance(*args, check: bool = True) -> SimpleNamespace:
    """``balance ARGS`` in this process: ``returncode``, ``stdout`` and ``stderr``, as from
    :func:`subprocess.run`; with ``check`` a non-zero exit fails with its stderr."""
    from cli import _run

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _run([str(a) for a in args])
    done = SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())
    if check and code != 0:
        raise AssertionError(f"balance {' '.join(map(str, args))} exited {code}:\n{done.stderr}")
    return done
