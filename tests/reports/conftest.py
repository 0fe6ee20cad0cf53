"""Report tests reuse the synthetic run factories of tests/analysis/analysis_runs.py."""

from __future__ import annotations

import sys
from pathlib import Path


_RUNS = str(Path(__file__).resolve().parents[1] / "analysis")
if _RUNS not in sys.path:
    sys.path.insert(0, _RUNS)
