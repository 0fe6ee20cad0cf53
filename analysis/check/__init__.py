"""The win-rate regression check behind ``balance baseline`` and ``balance check`` (docs/ci.md).

One module per job, listed in the order they import one another (each imports only modules listed
before it, and not all of those):

1. :mod:`analysis.check.measure` — the checked metrics (:class:`Kind`, :class:`Measurement`),
   measuring a run (:func:`measure`, :func:`measure_run`) and measuring played games per unit,
   batch by batch (:func:`unit_values`, :class:`UnitMeasure`, :class:`PairedMeasure`);
2. :mod:`analysis.check.decision` — the statistical decision, pure and without I/O: the sequential
   probability ratio test per metric (:class:`SequentialTest`, :func:`llr`, :func:`compare` for one
   look), the power calculation (:func:`plan_games`), :class:`MetricResult`, :class:`CheckResult`
   (exit codes 0 / 1 / 3), :func:`check_configuration`, :func:`check_notes`, :func:`shifted`;
   imports only the metric types of ``measure``;
3. :mod:`analysis.check.baseline` — the baseline TOML file, written and read (:class:`Baseline`,
   :func:`render_baseline`, :func:`make_baseline`, :func:`load_baseline`, :func:`check_settings`),
   and the rule settings a run changes from the baseline's measured rules (:func:`rules_changes`);
4. :mod:`analysis.check.run` — :func:`check`: read a run directory, measure it, decide in one look;
5. :mod:`analysis.check.play` — :func:`play_check`: play the baseline's configuration through the
   runner in batches (paired with old rules on the same deals, or not) until every metric is decided;
6. :mod:`analysis.check.presentation` — a result in words, for a terminal, a CI job summary and
   CI test reporters (:func:`explain`, :func:`text_report`, :func:`markdown_summary`,
   :func:`junit_xml`, :func:`write_reports`, :func:`panel_report`), each led by the verdict and
   the rule settings the checked rules change (:func:`rules_lead`); imports ``decision`` and
   ``measure`` (and :mod:`analysis.rules_diff`), and nothing in the package imports it.

This file re-exports nothing: import names from the module that defines them (so that importing
``decision`` never loads the file-handling modules). The package as a whole may import polars,
numpy, the standard library, :mod:`analysis` and its modules, :mod:`simcore.config`,
:mod:`simcore.errors`, :mod:`simcore.options`, :mod:`simcore.rundir` and — in
:mod:`analysis.check.play` only — :mod:`simcore.runner` (the analysis layer sits above the runner,
as :mod:`analysis.questions` does); the command line (:mod:`cli.check`) only parses options and prints.
"""
