"""Review s37 (audit #4): the docs promised that balance skill says whether the seat advantage
"persists, grows or vanishes", but with seats alike the sentence never says "persists" or
"vanishes" (it says the largest gap grows, shrinks, changes by less than the difference that
matters, or cannot be told; "persists", "vanishes", "appears" and "reverses" are the words of a
game with roles). docs/search.md now says which words each kind of game gets, and every word it
promises is one the sentence says (checked here on constructed rows)."""

from __future__ import annotations

import re
from pathlib import Path

from analysis.skill_words import GAP, _change_words, _role_words

DOCS = Path(__file__).resolve().parents[2] / "docs" / "search.md"


def _skill_section() -> str:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("## `balance skill`")
    end = text.find("\n## ", start + 1)
    return re.sub(r"\s+", " ", text[start:end if end > 0 else None])


def _row(budget, value, low, high, figure=GAP, players=4, other="the Censitaires"):
    return {"budget": budget, "value": value, "low": low, "high": high, "figure": figure,
            "players": players, "other": other, "games": 400, "best": 0, "worst": 1, "level": 0.975}


def test_the_docs_promise_for_seats_alike_only_the_words_the_sentence_says():
    doc = _skill_section()
    assert "grows, shrinks or persists" not in doc
    assert ('With seats alike the sentence does not say "persists" or "vanishes"') in doc
    assert ('"persists", "vanishes", "appears" and "reverses" are the words of a game with roles') in doc
    # the seats-alike change words the docs name, each said by the sentence
    said = {
        "grows": _change_words(_row(0, 0.02, 0.01, 0.03), _row(64, 0.10, 0.08, 0.12), 0.01, "The gap",
                               "grows", "shrinks"),
        "shrinks": _change_words(_row(0, 0.10, 0.08, 0.12), _row(64, 0.02, 0.01, 0.03), 0.01, "The gap",
                                 "grows", "shrinks"),
        "changes by less than": _change_words(_row(0, 0.02, 0.018, 0.022), _row(64, 0.021, 0.019, 0.023),
                                              0.01, "The gap", "grows", "shrinks"),
        "cannot tell": _change_words(_row(0, 0.02, 0.0, 0.06), _row(64, 0.03, 0.0, 0.08), 0.01, "The gap",
                                     "grows", "shrinks"),
    }
    for word, text in said.items():
        assert f"**{word}**" in doc, word
        assert word in text.lower(), (word, text)
        assert "persists" not in text and "vanishes" not in text


def test_the_roles_words_the_docs_promise_are_said():
    doc = _skill_section()
    role = "Seigneur win share"
    behind = [_row(b, 0.01, 0.0, 0.03, role) for b in (0, 16)]
    assert "**persists**" in doc and "persists as play gets stronger" in _role_words(behind, 0.01)
    vanish = [_row(0, 0.01, 0.0, 0.03, role), _row(16, 0.35, 0.30, 0.40, role)]
    assert '"vanishes"' in doc and "vanishes as play gets stronger" in _role_words(vanish, 0.01)
