"""Review s53 Médiévallons #1, the figure's part: with ``deck.copies.etoile=2`` the Étoile had 24
founders with one copy fewer; the page's table printed "too few founders (24)" and its sentences left
the type out of the family, but the ablation figure still drew a win-share bar of +26.7 pp for it.
The figure now draws the same family as the sentences and the played questions' verdicts
(:func:`analysis.guilds.ablation_tested`): such a type keeps its game-length bar and is labelled
"too few players to say" in the win-share panel."""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.guilds import ablation_tested
from reports.figures import medievallons as F
from reports.games import medievallons as M
from tests.reports.test_mv_review_g import _card_table

# the Étoile founded by 3% of the players, but by only 24 with one copy fewer, with a change
# large enough to be "clear" on its own: +26.7 pp (z 3.7)
ETOILE = {"etoile": dict(founded_share=0.03, founders=240, founded_share_after=0.004,
                         founders_after=24, founders_win_share=0.25, founders_win_share_after=0.517,
                         delta_founders_win_share=0.267, delta_std_error=0.072, z=0.267 / 0.072)}


def _bars(ax) -> dict[str, float]:
    """Card label → width of the win-share bar drawn in its row (rows without a bar left out)."""
    labels = {round(t): lab.get_text() for t, lab in zip(ax.get_yticks(), ax.get_yticklabels())}
    return {labels[round(p.get_y() + p.get_height() / 2)]: p.get_width() for p in ax.patches
            if p.get_height() > 0 and round(p.get_y() + p.get_height() / 2) in labels}


def test_a_type_of_too_few_founders_has_no_win_share_bar():
    ct = _card_table(over=ETOILE)
    fig = F.played_ablation(ct, M._ablation_verdict_map(ct, 0.01), length_verdicts=M.length_verdict_map(ct, 2.0))
    bars = _bars(fig.axes[0])
    etoile = [k for k in bars if k.startswith("Étoile")]
    assert not etoile, f"a win-share bar for the Étoile (24 founders with one copy fewer): {bars}"
    assert not any(np.isclose(w, 26.7) for w in bars.values()), bars
    # every type the sentences test has its bar, and only those
    tested = ct.filter(ablation_tested(ct))
    assert len(bars) == tested.height == ct.height - 2, (sorted(bars), tested["card"].to_list())
    # the Étoile's row is still in the figure (its game length is tested), with the words
    notes = [t.get_text() for t in fig.axes[0].texts]
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert any(lab.startswith("Étoile") for lab in labels), labels
    assert "too few players to say" in notes, notes


def test_the_rule_is_the_sentences_and_the_verdicts_rule():
    """One rule, three readers: the report's sentences count the same family the figure draws and
    the played questions test (analysis.questions.medievallons.ablation_family)."""
    from analysis.questions.medievallons import ablation_family

    ct = _card_table(over=ETOILE)
    fam = ablation_family(ct)
    assert fam.tolist() == ablation_tested(ct).to_list()
    assert M._ablation_rows(ct)["card"].to_list() == ct.filter(pl.Series(fam))["card"].to_list()
    assert "etoile" not in M._ablation_rows(ct)["card"].to_list()
    # a type of 30 founders on each side is in it
    ok = _card_table(over={"etoile": dict(ETOILE["etoile"], founders_after=30, founded_share_after=0.006)})
    assert "etoile" in M._ablation_rows(ok)["card"].to_list()


def test_the_sentence_says_why_a_type_is_left_out_with_its_founders():
    """"left out, too few players to say: Étoile (3.0% of players found one; 0.4% with one copy
    fewer)" did not say what left it out (24 founders with one copy fewer); a share of 0 read
    "0.0%"; a deck of one copy left read "(1 copies)"."""
    ct = _card_table(over={**ETOILE, "magicien": dict(copies_after=1, delta_founders_win_share=0.05,
                                                      z=0.05 / 0.0107, founders_win_share_after=0.325)})
    first, largest = M.ablation_sentences(ct, 0.01, 2.0)[:2]
    assert ("left out (founded by under 0.5% of the players or by fewer than 30 with either deck: too few "
            "players to say): ") in first, first
    assert "Étoile (240 founders, 3.0% of players, with the full deck; 24 founders, 0.4% of players, " \
           "with one copy fewer)" in first, first
    assert "Bouffon (no founder with the full deck; 4 founders, 0.1% of players, with one copy fewer)" in first, first
    assert "0.0%" not in first
    assert "with one Magicien fewer (1 copy)," in largest, largest
