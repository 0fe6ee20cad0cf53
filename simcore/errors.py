"""Errors a user can fix. The CLI prints them as one line and exits with code 2. Also the words for
why a place cannot be written (:func:`unwritable_why`), shared by every output check.

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


class OtherGameRules(ConfigError):
    """A rules file that holds another registered game's rules (``other``) where ``mine``'s were
    to be played. Its line ends with the fix of a command that takes ``--game``; a command whose
    game comes from elsewhere (``balance check``: the baseline's) words its own from the fields
    (review s58 #3: check, which has no --game, was told to "add --game seigneurial")."""

    def __init__(self, source: str, mine: str, other: str, sections: str) -> None:
        self.mine, self.other, self.sections = mine, other, sections
        super().__init__(source, "", f"holds the rules of {other} (sections {sections}), not of {mine}: "
                                     f"add --game {other}")


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


def unwritable_why(path) -> str:
    """Why ``path`` (an existing place ``os.access`` said is not writable) cannot be written:
    "read-only file system" when it is on one (EROFS: no permission would help), else "permission
    denied" (revC #10: a read-only mount was reported as a permission problem)."""
    import os

    try:
        read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    return "read-only file system" if read_only else "permission denied"
