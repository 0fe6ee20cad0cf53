"""The checks test_figure_checklist.py makes of a real report's figures and sections, for the
report tests that build a real report's figures anyway (one report built for both: a game's
figures measured here need not be built a second time for the checklist, about 2 s of CPU for a
game's before/after played, analysed and built).

:func:`checklist_breaches` measures every figure drawn (:func:`reports.figures.checklist.problems`:
text inside the figure's box, one unit per axis label, whole-number ticks on integer settings,
share axes within 0–100%, a zoomed axis saying so); :func:`sections_showing_nothing` names every
section with data that shows neither a figure nor a sentence."""

from __future__ import annotations

import contextlib


def checklist_breaches(figs) -> list[str]:
    """Every breach of the figure checklist in ``figs`` ({name: Figure}), as "name: problem"."""
    from reports.figures.checklist import problems

    found = []
    for name, fig in figs.items():
        found += [f"{name}: {p}" for p in problems(fig)]
    return found


def sections_showing_nothing(secs) -> list[str]:
    """The titles of the sections that show neither a figure nor a sentence (text sections aside:
    the glossary, and a before/after's "How this is measured" note, whose findings are the
    sentences of the before/after section above it)."""
    return [s.title for s in secs if s.id != "glossary" and not s.id.endswith("_how")
            and not s.figures and not s.sentences]


def seigneurial_sections_missing(secs, figs) -> list[str]:
    """What the Seigneurial sections issue #9 named lack: the final-square section's figure and
    sentence, the game flow's sentences (it has no figure), the land improvements' figure titled
    for the improvements (not "before and after", which a before/after page reads as the runs)."""
    by_id = {s.id: s for s in secs}
    missing = []
    if by_id["squares"].figures != ["seigneur_squares"]:
        missing.append(f"squares figures: {by_id['squares'].figures}")
    if not by_id["squares"].sentences[0].startswith("The Seigneur most often ends on square"):
        missing.append(f"squares sentence: {by_id['squares'].sentences[0]}")
    if not by_id["flow"].sentences:
        missing.append("Seigneurial game flow has no figure, so it must say something")
    titles = [ax.get_title() for ax in figs["improvements"].axes]
    if any("before and after" in x.lower() for x in titles):
        missing.append(f"improvements titles: {titles}")
    return missing


@contextlib.contextmanager
def sections_kept(into: dict):
    """Within it, ``build_report`` keeps the sections and figures it built in ``into``
    (``into["secs"]``, ``into["figs"]``: the last report's)."""
    import pytest

    import reports.build as build

    real = build.build_sections

    def keep(*args, **kwargs):
        secs, figs = real(*args, **kwargs)
        into["secs"], into["figs"] = secs, figs
        return secs, figs

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(build, "build_sections", keep)
        yield into
