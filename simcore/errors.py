"""Errors a user can fix. The CLI prints them as one line and exits with code 2.

May import nothing from the project.
"""


class UsageError(Exception):
    """Bad input from the user: a config key or value, an option, an output path.

    The message must be one line that names what is wrong (file, key, value) and, where it helps,
    what would be accepted.
    """

    exit_code = 2

    def __init__(self, message: object = "", *args: object) -> None:
        # One line whatever the user typed: a newline in a value is shown escaped.
        super().__init__(str(message).replace("\r", "\\r").replace("\n", "\\n"), *args)


class ConfigError(UsageError):
    """A rules or strategies file that does not validate."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source, self.key, self.problem = source, key, problem
        where = f"{source}: {key}" if key else source
        super().__init__(f"{where}: {problem}")


class Interrupted(BaseException):
    """Ctrl-C (SIGINT) or SIGTERM during a command.

    Raised by the command line's signal handler instead of :class:`KeyboardInterrupt`, which click
    turns into a silent abort. A ``BaseException`` like ``KeyboardInterrupt``: ``except Exception``
    does not swallow it, and every writer's cleanup (``finally``, context managers) still runs, so
    no temporary file is left and nothing appears under a final name half-written.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum
