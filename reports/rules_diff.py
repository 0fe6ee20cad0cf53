"""The rules diff of a before/after: every setting that differs between two runs' rules.

Each run directory records the rules it was played with (run.json ``rules_text``, the TOML after
any ``--set``; ``settings`` lists the ``--set`` lines; ``rules_name`` the file). :func:`rules_diff`
parses both texts and lists every dotted setting whose value differs (``income.palais.base: 3 →
4``), whatever made it differ: a ``--set``, an edited rules file or a tuned candidate's rules. The
diff itself is :mod:`analysis.rules_diff` (``balance check`` says the same diff, and the analysis
layer may not import reports); this module words it for a before/after report.

May import polars, the standard library and :mod:`analysis.rules_diff`.
"""

from __future__ import annotations

import polars as pl

# flatten, parse_rules and rules_diff are read from here too (reports.sweep, reports.sections)
from analysis.rules_diff import SettingChange, flatten, parse_rules, rules_diff, value_text  # noqa: F401

SHOWN = 6            # settings named in the sentence; the table lists every one


def origin(meta: dict) -> str:
    """How a run's rules were given, in words: its ``--set`` lines and the file they applied to."""
    name = str(meta.get("rules_name") or "the shipped rules")
    sets = meta.get("settings") or []
    base = name.split(" with --set")[0]
    if sets:
        return f"{base} with " + ", ".join(f"--set {s}" for s in sets)
    return base


def diff_table(changes: list[SettingChange]) -> pl.DataFrame:
    """One row a setting: its values before and after as typed (a change already in words, a
    panel's values per player count, as given)."""
    rows = [(getattr(c, "named", c.path),
             *(v if not isinstance(c, SettingChange) else value_text(v) for v in (c.before, c.after)))
            for c in changes]
    return pl.DataFrame({"Setting": [r[0] for r in rows], "Before": [r[1] for r in rows],
                         "After": [r[2] for r in rows]},
                        schema={"Setting": pl.String, "Before": pl.String, "After": pl.String})


def diff_sentences(changes: list[SettingChange] | None, before_label: str, after_label: str,
                   before_meta: dict, after_meta: dict) -> list[str]:
    """One sentence on what differs, then one per setting (``income.palais.base: 3 → 4``)."""
    if changes is None:
        return [f"The rules of {before_label} or {after_label} are not recorded in run.json, so the "
                f"settings that differ cannot be listed."]
    fought = matchup_changes(before_meta, after_meta)
    edited = bot_file_changes(before_meta, after_meta)
    bots = (f" and bots of the same names read from files edited between the runs ({edited})"
            if edited else "")
    if not changes:
        same = ("" if before_meta.get("rules_sha256") != after_meta.get("rules_sha256")
                else " (same rules file hash)")
        if fought:
            return [f"{after_label} plays the same rule settings as {before_label}{same}{bots} but "
                    f"another matchup: {fought}."]
        if edited:
            return [f"{after_label} plays the same rule settings as {before_label}{same}{bots}: the "
                    f"differences come from those bots (and the seed or the number of games, where "
                    f"they differ)."]
        differ = [what for key, what in (("strategies", "the bots"), ("seed", "the seed"),
                                         ("games", "the number of games"), ("players", "the player count"),
                                         ("rotate_seats", "the seat rotation"), ("engine", "the engine"))
                  if before_meta.get(key) != after_meta.get(key)]
        if not differ:
            # review s53 #4: "any difference comes from the bots, the seed or the number of games"
            # beside runs of the same bots, seed and games, every game identical (a forgotten edit)
            layout = (" (the rules files differ only in comments or layout)" if not same else "")
            return [f"{after_label} plays the same rule settings, bots, seed and number of games as "
                    f"{before_label}{same}{layout}: the same games, so the runs should not differ "
                    f"(was the change saved?)."]
        return [f"{after_label} plays the same rule settings as {before_label}{same}: any difference "
                f"comes from {_listed_words(differ)}, which differ{'s' if len(differ) == 1 else ''}."]
    n = len(changes)
    listed = "; ".join(c.text for c in changes[:SHOWN])
    more = f"; and {n - SHOWN} more in the table" if n > SHOWN else ""
    also = f"; it also plays another matchup: {fought}" if fought else ""
    also += (f"; its bots of the same names were read from files edited between the runs ({edited})"
             if edited else "")
    return [f"{after_label} changes {n} rule setting{'s' if n != 1 else ''} of {before_label}: "
            f"{listed}{more} (rules: {origin(after_meta)}){also}."]


def _listed_words(xs: list[str]) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " or " + xs[-1]


def bot_file_changes(before_meta: dict, after_meta: dict) -> str:
    """The strategy files both runs read their bots from (run.json ``strategy_files``) whose
    contents differ, for seats that name the same bots in both: "bots.toml", or "the game's preset
    bots (configs/middle_ages/strategies.toml)"; "" when none differ, the line-ups differ (then
    the bots' names say it) or a run recorded no files (earlier versions)."""
    a, b = before_meta.get("strategy_files"), after_meta.get("strategy_files")
    if (not isinstance(a, dict) or not isinstance(b, dict)
            or list(before_meta.get("strategies") or []) != list(after_meta.get("strategies") or [])):
        return ""
    names = []
    for key in a:
        if key in b and isinstance(a[key], dict) and isinstance(b[key], dict) \
                and a[key].get("sha256") != b[key].get("sha256"):
            names.append(f"the game's preset bots ({key})" if key.startswith("configs/") else key)
    return ", ".join(names)


def matchup_changes(before_meta: dict, after_meta: dict) -> str:
    """What differs in the two runs' matchups (run.json ``matchup``: Fief's attacker, defender,
    terrain, …), "terrain castle → city"; "" when they agree or neither has one."""
    a, b = before_meta.get("matchup") or {}, after_meta.get("matchup") or {}
    keys = list(dict.fromkeys([*a, *b]))
    def shown(v) -> str:
        return v if isinstance(v, str) else value_text(v)

    return ", ".join(f"{k.replace('_', ' ')} {shown(a.get(k))} → {shown(b.get(k))}"
                     for k in keys if a.get(k) != b.get(k))


def _deals(metas: list[dict]) -> set[tuple]:
    """The games a run set plays: (seed, game number) for every game of every run."""
    out = set()
    for m in metas:
        first = m.get("first_game", 0) if isinstance(m.get("first_game", 0), int) else 0
        games = m.get("games") if isinstance(m.get("games"), int) else 0
        out.add((m.get("seed"), first, first + games))
    return out


def pairing_sentence(before_metas: list[dict], after_metas: list[dict], before_label: str,
                     after_label: str, same_rules: bool = False) -> str:
    """Whether a before/after's two sides played the same deals (common random numbers: the same
    seed and game numbers, each game drawing from its own stream of (seed, game)) or independent
    ones, and what else differs besides the rules (the bots, the number of games). The comparison's
    tests treat the two sides as independent samples: right for different seeds, and for the same
    deals the intervals are, if anything, wider than a paired comparison's. ``same_rules``: the two
    sides play the same rule settings, so different bots are not "too" (review s46 #6: "so not all
    of a change comes from the rules" where none of it does)."""
    seeds_b = sorted({m.get("seed") for m in before_metas}, key=str)
    seeds_a = sorted({m.get("seed") for m in after_metas}, key=str)
    games_b = sum(m.get("games") or 0 for m in before_metas)
    games_a = sum(m.get("games") or 0 for m in after_metas)
    shown = lambda seeds: ", ".join(str(s) for s in seeds)  # noqa: E731
    if _deals(before_metas) == _deals(after_metas):
        out = (f"Both sides played the same {games_b:,} deals (seed {shown(seeds_b)}, the same game "
               f"numbers: common random numbers, game N of each starts from the same random stream); "
               f"the intervals treat the two runs as independent, so they are if anything wider than "
               f"needed.")
    elif not ({s for s, _, _ in _deals(before_metas)} & {s for s, _, _ in _deals(after_metas)}):
        out = (f"The two sides played different deals (seed {shown(seeds_b)} before, {shown(seeds_a)} "
               f"after): independent games, as the intervals assume.")
    else:
        out = (f"The two sides share a seed ({shown(sorted(set(seeds_b) & set(seeds_a), key=str))}) "
               f"but not every game number, so only some deals are the same; the intervals treat the "
               f"two runs as independent.")
    if games_b != games_a:
        out += f" They played {games_b:,} games before and {games_a:,} after."
    bots_b = {tuple(m.get("strategies") or ()) for m in before_metas}
    bots_a = {tuple(m.get("strategies") or ()) for m in after_metas}
    if bots_b != bots_a:
        b = "; ".join(", ".join(x) for x in sorted(bots_b))
        a = "; ".join(", ".join(x) for x in sorted(bots_a))
        out += (f" The bots differ ({before_label}: {b}; {after_label}: {a})." if same_rules else
                f" The bots differ too ({before_label}: {b}; {after_label}: {a}), so not all of a "
                f"change comes from the rules.")
    return out
