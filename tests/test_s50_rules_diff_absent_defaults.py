"""A rules text recorded before a setting existed is read at the value the loader takes for it
(review s50 today #3: a Seigneurial run recorded before the SG-3 card effects became settings was
said to "change 4 rule settings … (absent) → 1" against a run of the same rules, beside 3,000
identical games)."""

from __future__ import annotations

import re

from analysis.rules_diff import settings_diff
from simcore.games import absent_defaults
from simcore.games.seigneurial import rules as R

SHIPPED = R.default_rules_path().read_text(encoding="utf-8")


def _without_the_effects(text: str) -> str:
    return re.sub(r"^(recolte_draws|troc_draws|requisition_draws|corvee_discards|troc_discards|cachette_hides) = .*\n", "", text,
                  flags=re.M)


def test_a_text_without_the_new_settings_is_the_same_rules():
    old = _without_the_effects(SHIPPED)
    assert "corvee_discards" not in old and "corvee_discards = 1" in SHIPPED
    assert "cachette_hides" not in old and "cachette_hides = true" in SHIPPED
    # the loader takes each absent setting at the value declared (so the two texts are one game)
    assert list(R.loads(old).card_effects) == [absent_defaults()[f"{t}.{k}"] for t, k in (
        ("censitaire_cards", "recolte_draws"), ("censitaire_cards", "troc_draws"),
        ("seigneur_cards", "requisition_draws"), ("seigneur_cards", "corvee_discards"),
        ("censitaire_cards", "troc_discards"), ("censitaire_cards", "cachette_hides"))]
    assert settings_diff(old, SHIPPED) == [] and settings_diff(SHIPPED, old) == []


def test_a_real_change_of_an_absent_setting_is_still_said():
    old = _without_the_effects(SHIPPED)
    new = SHIPPED.replace("corvee_discards = 1 ", "corvee_discards = 2 ")
    # said with the value the older run played (review s51: "(absent) → 2" hid that it played 1)
    assert [c.text for c in settings_diff(old, new)] == [
        "seigneur_cards.corvee_discards: 1 (left out: the default) → 2"]
    assert [c.inline for c in settings_diff(new, old)] == [
        "seigneur_cards.corvee_discards 2 → 1 (left out: the default)"]
