"""The win-rate regression check behind ``balance baseline`` and ``balance check`` (docs/ci.md).

One module per job, listed in the order they import one another (each imports only modules listed
before it, and not all of those):

1. :mod:`analysis.check.measure` — the checked metrics (:class:`Kind`, :class:`Measurement`) and
   measuring a run (:func:`measure`, :func:`measure_run`);
2. :mod:`analysis.check.decision` — the statistical decision, pure and without I/O
   (:func:`compare`, :class:`MetricResult`, :class:`CheckResult`, :func:`check_configuration`,
   :func:`check_notes`, :func:`shifted`); imports only the metric types of ``measure``;
3. :mod:`analysis.check.baseline` — the baseline TOML file, written and read (:class:`Baseline`,
   :func:`render_baseline`, :func:`make_baseline`, :func:`load_baseline`, :func:`check_settings`);
4. :mod:`analysis.check.run` — :func:`check`: read a run directory, measure it, decide against a
   loaded baseline (the only function that combines the modules above);
5. :mod:`analysis.check.presentation` — a result in words, for a terminal, a CI job summary and
   CI test reporters (:func:`explain`, :func:`text_report`, :func:`markdown_summary`,
   :func:`junit_xml`, :func:`write_reports`); imports ``decision`` only, and nothing imports it.

This file re-exports nothing: import names from the module that defines them (so that importing
``decision`` never loads the file-handling modules). The package as a whole may import polars,
numpy, the standard library, :mod:`analysis` and its modules, :mod:`simcore.config`,
:mod:`simcore.errors` and :mod:`simcore.rundir` (never the runner: playing the games of a check is
:mod:`cli.check`'s job).
"""
