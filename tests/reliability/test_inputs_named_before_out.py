"""An input that cannot be read is named as the mistake before ``--out`` is related to it (revC
#9): ``simulate --rules DIR --out DIR/x`` said "--out DIR/x: is inside DIR, which this command
reads" although the real mistake is that --rules is a directory."""

from __future__ import annotations

from in_process import balance


def test_rules_that_is_a_directory_is_named_before_an_out_inside_it(tmp_path):
    done = balance("simulate", "-n", 100, "--rules", tmp_path, "--out", tmp_path / "q10", check=False)
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert lines[0] == f"error: rules file {tmp_path}: is a directory (give a .toml file)"
    assert not (tmp_path / "q10").exists()


def test_a_missing_rules_file_is_named_before_any_work(tmp_path):
    done = balance("simulate", "-n", 100, "--rules", tmp_path / "nope.toml", "--out", tmp_path / "r",
                   check=False)
    assert done.returncode == 2 and "rules file not found" in done.stderr, done.stderr
    assert not (tmp_path / "r").exists()
