"""numba's start without its yaml and scipy imports (:mod:`simcore.numba_start`): skipped only for
numba's own start, found by everything else, and numba's config file still read when there is one.
Each case in a fresh interpreter (the finder acts before numba's first import)."""

from __future__ import annotations

import pytest
import subprocess
import sys

CODE = """
import sys
import simcore, numba
print('yaml' in sys.modules, 'scipy' in sys.modules)
import yaml, scipy
print(yaml.__name__, scipy.__name__)
"""


def _run(cwd) -> list[str]:
    out = subprocess.run([sys.executable, "-c", CODE], cwd=cwd, capture_output=True, text=True, check=True)
    return out.stdout.split("\n")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_numba_starts_without_yaml_and_scipy_and_both_import_afterwards(tmp_path):
    assert _run(tmp_path)[:2] == ["False False", "yaml scipy"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_numba_config_file_is_still_read(tmp_path):
    (tmp_path / ".numba_config.yaml").write_text("disable_jit: 0\n")
    assert _run(tmp_path)[0] == "True False"       # numba imported yaml to read it
