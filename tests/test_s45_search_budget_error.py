"""``searchN`` out of range is refused by what it is (review 45 #5: ``--bots balanced,search200000``
and ``search0`` said "unknown strategy …; did you mean search16?", though ``balance strategies``
says N runs from 1 to 100,000)."""

from __future__ import annotations

import pytest

from simcore.errors import UsageError
from strategies import medievallons, middle_ages, seigneurial
from strategies.search import MAX_PLAYOUTS


@pytest.mark.parametrize("module", [middle_ages, medievallons, seigneurial])
@pytest.mark.parametrize("name", ["search0", f"search{MAX_PLAYOUTS + 1}"])
def test_search_budget_out_of_range_names_the_range(module, name):
    with pytest.raises(UsageError) as e:
        module.lookup(name, option="--bots")
    said = str(e.value)
    assert said.startswith("--bots: ") and "from 1 to 100,000" in said and "did you mean" not in said


@pytest.mark.parametrize("module", [middle_ages, medievallons, seigneurial])
def test_search_budgets_in_range_are_bots(module):
    for n in (1, MAX_PLAYOUTS):
        assert module.lookup(f"search{n}") is not None
