"""The rules diff of a before/after: every setting that differs, read from the recorded rules texts."""

from __future__ import annotations

from reports.rules_diff import diff_sentences, rules_diff

BASE = """
[setup]
start_coins = 0
[income.palais]
base = 3
[[events]]
name = "Peste"
coins = -2
[[events]]
name = "Alliance"
coins = 1
"""


def meta(text: str, **kw) -> dict:
    return {"rules_text": text, "rules_name": "rules.toml", **kw}


def test_every_changed_setting_is_listed_with_before_and_after():
    after = BASE.replace("base = 3", "base = 4").replace("start_coins = 0", "start_coins = [0, 0, 3, 0]") \
        .replace("coins = 1", "coins = 2")
    changes = rules_diff(meta(BASE), meta(after, settings=["income.palais.base=4"]))
    assert [c.text for c in changes] == ["setup.start_coins: 0 → [0, 0, 3, 0]",
                                         "income.palais.base: 3 → 4",
                                         'events["Alliance"].coins: 1 → 2']
    line = diff_sentences(changes, "base", "var", meta(BASE), meta(after, settings=["income.palais.base=4"]))[0]
    assert line.startswith("var changes 3 rule settings of base: setup.start_coins: 0 → [0, 0, 3, 0]")
    assert "--set income.palais.base=4" in line


def test_same_rules_and_missing_rules_are_said_plainly():
    assert rules_diff(meta(BASE), meta(BASE + "\n# a comment\n")) == []
    assert "same rule settings" in diff_sentences([], "a", "b", meta(BASE), meta(BASE))[0]
    assert rules_diff({}, meta(BASE)) is None
    assert "not recorded" in diff_sentences(None, "a", "b", {}, meta(BASE))[0]
