"""Review L #1: two panels given to `balance report` (a baseline's and a variant's, the same line-ups
under two rule sets) were merged into one "panel of 6 cells" whose finding averaged the before and
the after; `--cells` from both likewise. A panel's page is about one set of rules: cells of
different rules are refused in one line (exit 2, nothing written) that says what to give instead;
the two cells of one line-up still make a before/after."""

from __future__ import annotations

import json

import pytest

from cli import _run


@pytest.fixture(scope="module")
def panels(tmp_path_factory):
    root = tmp_path_factory.mktemp("review_l_panels")
    for name, extra in (("base", []), ("palais4", ["--set", "income.palais.base=4"])):
        assert _run(["simulate", "--panel", "default", "--games", "300", "--seed", "3", "--quiet",
                     "--out", str(root / name), *extra]) == 0
    return root


def test_two_panels_of_different_rules_are_refused_in_one_line(panels, tmp_path, capsys):
    base, variant = panels / "base", panels / "palais4"
    sha = {json.loads((p / "cell-0" / "run.json").read_text())["rules_sha256"] for p in (base, variant)}
    assert len(sha) == 2                        # the variant's cells did play other rules
    for args in ([str(base), str(variant)], ["--cells", str(base / "cell-0"), str(variant / "cell-0")]):
        out = tmp_path / "page"
        capsys.readouterr()
        assert _run(["report", *args, "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: the cells were played under 2 different rule sets") and \
            err.count("\n") == 1, err
        assert "with --set income.palais.base=4" in err and "mix a before and an after" in err
        assert f"balance report {base / 'cell-0'} {variant / 'cell-0'} --out DIR" in err, err
        assert not out.exists()


def test_each_panel_alone_and_one_line_ups_before_after_still_report(panels, tmp_path, capsys):
    assert _run(["report", str(panels / "base"), "--out", str(tmp_path / "p")]) == 0
    assert _run(["report", str(panels / "base" / "cell-0"), str(panels / "palais4" / "cell-0"),
                 "--out", str(tmp_path / "ba")]) == 0
    page = (tmp_path / "ba" / "report.html").read_text()
    assert "income.palais.base" in page            # the before/after's rules diff
