"""reports.games: the report sections of one game each, found through the game's spec.

A game's spec (:mod:`simcore.games`, ``report_hooks``) names its module here; the generic report code
(:mod:`reports.text`, :mod:`reports.sections`, :mod:`reports.build`) asks :func:`hook_for` and never
tests a game's name. A hook module may define, each optional:

- ``lead_headlines(t, rs) -> list[str]``: the page's first findings of the game's own (right
  after the seats' or sides'; a game of one-seat sides, before them); with ``LEAD_IN_TERMINAL =
  True`` the lines ``balance report RUN`` prints end with them too (:mod:`reports.build`, after
  the run's first findings: Seigneurial's SG-6 tie-break line);
- ``headlines(t, rs) -> list[str]``: the game's headline sentences (after the common ones on game
  length, before the strategies');
- ``margin_headline(t, rs) -> str | None``: in a game of one-seat sides, the sentence on the
  winning side's lead in place of the generic one (Fief: over the combats with a winner, since a
  mutual wipe-out has none); None keeps the generic sentence;
- ``side_share_note(role, runs) -> str``: beside a side's win share on a sweep's or a tune's page,
  what it counts and the side's outcomes in each of ``runs`` ((where, run.json) pairs: a sweep's
  variants, a tune's confirmations; Fief: how often the attacker takes the fief and both armies
  are wiped out); '' to say nothing;
- ``sections(t, rs, figures, questions) -> list[Section]``: the game's sections, placed after the
  common section named by ``SECTIONS_AFTER`` (default: before the score distributions);
  ``figures`` is the report's :class:`reports.sections.FigureSet`, ``questions`` a
  :class:`reports.questions.Questions` or ``None``;
- ``comparison_figures(name, base_t, var_t, base_label, var_label, figures) -> list[str]``: figures
  the game adds to a before/after section;
- ``start_scores(rules_text, n_players) -> {seat: score}``: the scores the rules fix before the
  first turn (run.json's ``rules_text``; seats whose start follows the deal left out): a
  before/after says where a rule change moved them, beside the final scores it compares, since
  those then move partly by construction (Seigneurial's starting square, Middle-Ages's start
  coins);
- ``panel_notes(cells) -> list[str]``: paragraphs the panel page (:mod:`reports.panel`) and its
  printed lead add after the panel's finding, from the panel's rows and calls
  (:func:`analysis.panel.panel_table`'s ``cells``; Seigneurial: the payment order behind the
  Censitaire seats' gaps, :func:`reports.games.seigneurial.panel_payment_order_notes`);
- ``QUESTIONS``: the command that writes a questions directory for this game; a report of a game
  without it refuses ``--questions``. ``question_files(questions, rs) -> {path: DataFrame | str}``:
  what of it the report directory keeps.

Hooks read tables and draw; they never play games.

May import the standard library and :mod:`simcore.games` (the registry); the hook modules may import
:mod:`reports.text`, :mod:`reports.sections`, their game's :mod:`reports.figures` module, polars,
numpy, :mod:`analysis`, their game's rules module (the rules' loader; no kernel) and
:func:`simcore.rundir.read_meta` (a panel cell's run.json).
"""

from __future__ import annotations

from simcore import games as registry
from simcore.contract import GameSpec


def spec_for(game: str) -> GameSpec | None:
    """The registered spec of ``game`` (run.json's name), or None for a game the registry does not
    know (a run written by an older version, a synthetic test run)."""
    return registry.specs().get(game)


def hook_for(game: str):
    """The report hook module of ``game``, or None when it has none."""
    spec = spec_for(game)
    return registry.import_hook(spec.report_hooks) if spec is not None else None
