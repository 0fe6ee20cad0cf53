"""Review V #9: a before/after of two panels' cell-0 was titled "cell-0 #2 vs cell-0": which run
was the variant could not be told. Runs of the same folder name are told apart by their parent
folder too; the order's "#2" is left for runs whose parents do not tell them apart either."""

from __future__ import annotations

from pathlib import Path

from reports.build import _unique_labels


def test_runs_of_one_folder_name_are_named_with_their_parent():
    paths = [[Path("/x/P0/cell-0")], [Path("/x/P1/cell-0")]]
    assert _unique_labels(["cell-0", "cell-0"], paths) == ["P0/cell-0", "P1/cell-0"]
    assert _unique_labels(["a", "b"], [[Path("/x/a")], [Path("/y/b")]]) == ["a", "b"]
    # the same parent too (the same run given twice): by order
    assert _unique_labels(["r", "r"], [[Path("/x/r")], [Path("/x/r")]]) == ["r", "r #2"]


def test_the_report_of_two_panels_cells_names_them_by_panel(tmp_path):
    from undrawn_figures import figures_undrawn

    from reports.build import build_report
    from simcore import runner

    for name, settings in (("P0", []), ("P1", ["income.palais.base=4"])):
        runner.simulate("middle-ages", games=300, seed=1, out=tmp_path / name / "cell-0", quiet=True,
                        settings=settings)
    with figures_undrawn():
        page = build_report([tmp_path / "P0" / "cell-0", tmp_path / "P1" / "cell-0"], tmp_path / "r").read_text()
    assert "Before / after: P1/cell-0 vs P0/cell-0" in page and "cell-0 #2" not in page
