"""Whether a change of one seat's start coins was measured with bots that misjudge it, and the
caution every page and printout that draws a conclusion from such a change carries (review s46
#10; designer review #1; docs/sweep.md, "Caution: one seat's start coins").

Middle-Ages' heuristic bots price a Moulin or a Caserne by what each opponent can pay *now*, so a
seat given start coins makes the *other* seats' bots open on those tiles and take its income: the
win shares then measure those openings as much as the coins (with ``balanced``, 4 start coins for
seat 1 lower its win share; with ``random`` bots, which ignore coins, they raise it). One decision,
written once here:

* :func:`uneven_coins` — the first start-coins value of some rules that gives the seats of their
  player count different coins (a per-seat list whose first P entries differ), or None.
* :func:`heuristic_bots` — the bots of kind ``heuristic`` that runs played, from run.json
  (``strategy_kinds``, recorded as the runner resolved the bots; for a run recorded before it,
  the ``kind`` of the table each bot names in the strategy files the run recorded).
* :func:`start_coins_caution` — the tune's caution (its tuned rules, ``analysis.tune``).
* :func:`runs_caution` — the same caution worded for a page that compares runs (a sweep, a
  before/after, over one line-up or a panel): said when, and only when, among the runs of one
  player count the coins of the seats played (:func:`played_coins`: a list's first P entries, a
  number every seat's) are not all the same and some of those runs give their seats different
  coins, and some run played heuristic bots.
* :func:`dir_caution` — :func:`runs_caution` for a sweep, panel sweep or panel directory, or for a
  before/after's two directories, from every run.json they hold.
* :func:`skill_caution` — :func:`runs_caution` for a ``balance skill --against`` comparison, from
  the two directories' skill.json, when budget 0 (the line-up's own bots) is compared.

Reads run.json, skill.json records and rules texts only; plays nothing (reports use it). May import the standard
library, :mod:`analysis.rules_diff` (value text), :mod:`simcore.rundir` (the run.json name) and
:mod:`simcore.config` (a recorded rules text read as the rules files are: ``toml_loads``).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

from analysis.rules_diff import value_text
from simcore.config import toml_loads
from simcore.rundir import RUN_JSON

#: the games whose shipped heuristic bots misjudge one seat's start coins (docs/sweep.md, "Caution:
#: one seat's start coins"), and the per-seat setting that gives them
START_COINS_GAMES = {"middle-ages": "setup.start_coins"}

#: how a caution names the tune's rules file: relative to the tune's directory, as result.json names
#: its files (the same tune under another --out writes the same result.json);
#: :func:`analysis.tune.advice.cautions` names the file by its path when it knows the directory
IN_TUNE_DIR = ", in the tune's directory"

DOCS = "docs/sweep.md, \"Caution: one seat's start coins\""

#: why such coins mislead, as every caution says it (measured: docs/sweep.md)
WHY = ("Those bots judge a Moulin or a Caserne by what each opponent can pay at that moment, so "
       "against a seat that starts with coins the other seats open on those tiles far more often "
       "and take its income")


def coins_of(game: str, rules_text: str):
    """The start-coins value of ``rules_text`` (a number, a per-seat list) for ``game``, or None
    (another game, no such setting, or text that is not TOML)."""
    path = START_COINS_GAMES.get(game)
    if path is None or not rules_text:
        return None
    try:
        node = toml_loads(rules_text)       # (nested too deeply: a decode error, session 63)
    except tomllib.TOMLDecodeError:
        return None
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def uneven(coins, counts) -> bool:
    """Whether ``coins`` give the seats of some player count of ``counts`` different coins."""
    return isinstance(coins, list) and any(len(set(map(str, coins[:n]))) > 1 for n in counts)


def uneven_coins(game: str, rules_texts, counts):
    """The first start-coins value among ``rules_texts`` that gives the seats of a player count of
    ``counts`` different coins, or None."""
    for text in rules_texts:
        coins = coins_of(game, text)
        if uneven(coins, counts):
            return coins
    return None


def names_start_coins(game: str, names) -> bool:
    """Whether one of the setting names (``--vary``'s, ``setup.start_coins[0]``) is the game's
    start coins."""
    path = START_COINS_GAMES.get(game)
    return path is not None and any(re.sub(r"\[\d+\]$", "", str(n)) == path for n in names)


def _recorded_kind(name: str, files: dict) -> str | None:
    """The ``kind`` of the table bot ``name`` names in a run's recorded strategy files (run.json
    ``strategy_files``): ``file.toml:table``, a one-table ``file.toml``, or a preset (a table of
    that name in a recorded file of the game's presets); else None (``searchN`` is no table)."""
    texts = {str(k): v.get("text") for k, v in (files or {}).items()
             if isinstance(v, dict) and isinstance(v.get("text"), str)}
    path, sep, table = name.rpartition(":")
    candidates = [(path, table)] if sep and path in texts else []
    if name in texts:
        candidates.append((name, ""))
    candidates += [(k, name) for k in texts if k.endswith("strategies.toml")]
    for key, table in candidates:
        try:
            data = toml_loads(texts[key])   # (nested too deeply: a decode error, session 63)
        except tomllib.TOMLDecodeError:
            continue
        tables = {k: v for k, v in data.items() if isinstance(v, dict)}
        if not table and len(tables) == 1:
            table = next(iter(tables))
        if isinstance(tables.get(table), dict):
            return str(tables[table].get("kind"))
    return None


def heuristic_bots(metas) -> list[str]:
    """The bots of kind ``heuristic`` the runs (their run.json) played, sorted: from
    ``strategy_kinds``, else from the strategy files the run recorded."""
    out = set()
    for meta in metas:
        kinds = meta.get("strategy_kinds")
        for name in meta.get("strategies") or []:
            kind = kinds.get(name) if isinstance(kinds, dict) else _recorded_kind(
                str(name), meta.get("strategy_files") or {})
            if kind == "heuristic":
                out.add(str(name))
    return sorted(out)


def start_coins_caution(game: str, varies, rules_text: str, counts, heuristic) -> str:
    """The caution a tune of one seat's start coins carries when its line-ups hold heuristic bots
    (review s46 #10): said when a ``--vary`` names the game's start coins, the tuned rules
    (``rules_text``, best_rules.toml's) give the seats of some played count (``counts``) different
    coins, and ``heuristic`` (the line-ups' heuristic bots) is not empty; else "". The checks it
    suggests name best_rules.toml in the tune's directory."""
    coins = uneven_coins(game, [rules_text], counts)
    if not heuristic or not names_start_coins(game, varies) or coins is None:
        return ""
    path = START_COINS_GAMES[game]
    bots = ", ".join(sorted(heuristic))
    players = ",".join(str(n) for n in sorted(set(counts)))
    return (f"Caution: the tuned rules give the seats different start coins ({path} = "
            f"{value_text(coins)}), and they were tuned with heuristic bots ({bots}). {WHY}: the "
            f"win shares measure the bots' openings as much as the coins ({DOCS}). Before relying "
            f"on these coins, check them with bots that ignore coins, random (simulate --game {game} "
            f"--players {players} --strategies random --rules best_rules.toml{IN_TUNE_DIR}), or with "
            f"the search bot (balance skill --game {game} --players {players} --rules best_rules.toml).")


#: per kind of page: whose bots played, what the page concludes that the coins may not bear out,
#: and what to do before relying on it
PAGES = {
    "sweep": ("heuristic bots ({}) played the sweep's games", "which value this page finds fairest "
              "measures the bots' openings as much as the coins",
              "Before compensating a seat by this page, play the same sweep with bots that ignore "
              "coins (--strategies random) or with the search bot (--strategies search16)"),
    "panel sweep": ("the cells' line-ups hold heuristic bots ({})", "how each cell's win shares "
                    "move with the coins measures the bots' openings as much as the coins",
                    "Before compensating a seat by this page, play the same sweep with bots that "
                    "ignore coins (--players N --strategies random instead of --panel) or with the "
                    "search bot (--strategies search16)"),
    "before/after": ("heuristic bots ({}) played the runs' games", "whether the change helped a seat, "
                     "and whether it made the game fairer, measures the bots' openings as much as "
                     "the coins", "Before relying on this answer, play both rule sets with bots that "
                     "ignore coins (simulate … --strategies random) or with the search bot "
                     "(--strategies search16)"),
    "panel before/after": ("the cells' line-ups hold heuristic bots ({})", "whether the change "
                           "helped a seat, and whether it made the game fairer, measures the bots' "
                           "openings as much as the coins", "Before relying on this answer, play "
                           "both rule sets with bots that ignore coins (simulate … --players N "
                           "--strategies random instead of --panel) or with the search bot "
                           "(--strategies search16)"),
    "skill against": ("at budget 0 every seat plays the line-up's own bots, here heuristic bots ({})",
                      "what the comparison says at budget 0 measures the bots' openings as much as the "
                      "coins", "Before relying on budget 0, read the budgets where every seat searches, "
                      "or play both rule sets with bots that ignore coins (simulate … --strategies "
                      "random)"),
}


def played_coins(coins, players: int):
    """The start coins of the seats a game of ``players`` plays under a start-coins value: a
    per-seat list's first ``players`` entries, a number every seat's; None without the setting.
    ([2, 1, 0, 0] and [2, 1, 0, 0, 5] start the seats of a 4-player game alike.)"""
    if coins is None:
        return None
    return list(coins[:players]) if isinstance(coins, list) else [coins] * players


def _coins_of_meta(game: str, meta: dict):
    """A run's start-coins value: ``start_coins`` where the meta records it (a skill directory's,
    :func:`skill_caution`), else read from its ``rules_text``."""
    if "start_coins" in meta:
        return meta["start_coins"]
    return coins_of(game, str(meta.get("rules_text") or ""))


def runs_caution(metas, page: str) -> str:
    """The caution of a page of kind ``page`` (a key of :data:`PAGES`) that compares the runs whose
    run.json are ``metas`` (a before/after's: the baseline's first): said when, among the runs of
    one player count, the coins of the seats played (:func:`played_coins`) are not the same in
    every run and some of those runs give their seats different coins, and some run played
    heuristic bots (:func:`heuristic_bots`); else "". The values it names are those of the first
    such player count: the first run's and the first whose seats start otherwise."""
    metas = [m for m in metas if isinstance(m, dict)]
    if not metas:
        return ""
    game = str(metas[0].get("game"))
    path = START_COINS_GAMES.get(game)
    if path is None:
        return ""
    found = None
    runs = [(int(m.get("players") or 0), _coins_of_meta(game, m)) for m in metas]
    for players in dict.fromkeys(p for p, _ in runs):
        values = [v for p, v in runs if p == players]
        keys = [json.dumps(played_coins(v, players), sort_keys=True) for v in values]
        coins = next((v for v in values if uneven(v, [players])), None)
        if len(set(keys)) > 1 and coins is not None:
            found = (coins, values[0], next(v for v, k in zip(values, keys) if k != keys[0]))
            break
    heuristic = heuristic_bots(metas)
    if found is None or not heuristic:
        return ""
    coins, first, other = found
    played, so, check = PAGES[page]
    if page.endswith("sweep"):
        what = f"some values tried give the seats different start coins ({path} = {value_text(coins)}, …)"
    else:
        what = (f"the rules compared give the seats different start coins ({path}: "
                f"{value_text(first)} → {value_text(other)})")
    return (f"Caution: {what}, and {played.format(', '.join(heuristic))}. {WHY}: {so} ({DOCS}). "
            f"{check}.")


def skill_caution(q: dict, budgets) -> str:
    """The caution of a ``balance skill --against`` comparison (the directory's skill.json ``q``:
    its cells' line-ups, ``strategy_kinds`` and ``start_coins`` by player count, and its
    ``against`` record's ``start_coins``) at the budgets compared: at budget 0 every seat plays its
    line-up's own bots, so :func:`runs_caution` decides for the cells of both rules when budget 0 is
    compared; at other budgets every seat searches, and no caution is said. "" too when either
    side's start coins were not recorded (nothing to decide from)."""
    a = q.get("against")
    if not isinstance(a, dict) or 0 not in {int(b) for b in budgets}:
        return ""
    mine, theirs = q.get("start_coins"), a.get("start_coins")
    if not isinstance(mine, dict) or not isinstance(theirs, dict):
        return ""
    cells = [c for c in (q.get("panel") or {}).get("cells") or [] if isinstance(c, dict)]

    def metas(coins: dict) -> list[dict]:
        return [{"game": q.get("game"), "players": int(c.get("players") or 0),
                 "start_coins": coins[str(c.get("players"))], "strategies": list(c.get("lineup") or []),
                 "strategy_kinds": q.get("strategy_kinds") or {}}
                for c in cells if str(c.get("players")) in coins]

    return runs_caution(metas(theirs) + metas(mine), "skill against")


def _metas_in(path: Path) -> list[dict]:
    """Every run.json a run, sweep, panel sweep or panel directory holds (its finished runs)."""
    path = Path(path)
    files = ([path / RUN_JSON] if (path / RUN_JSON).is_file() else
             [f for pattern in ("variants/*", "*/variants/*", "*/*/variants/*", "cell-*")
              for f in sorted(path.glob(f"{pattern}/{RUN_JSON}"))])
    out = []
    for f in files:
        try:
            out.append(json.loads(f.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return out


def dir_caution(paths, page: str) -> str:
    """:func:`runs_caution` over every run the directories ``paths`` hold (a sweep's variants, a
    panel sweep's cells' variants, a panel's cells, a run)."""
    return runs_caution([m for p in paths for m in _metas_in(Path(p))], page)


__all__ = ["START_COINS_GAMES", "IN_TUNE_DIR", "PAGES", "coins_of", "uneven", "uneven_coins",
           "names_start_coins", "heuristic_bots", "start_coins_caution", "played_coins", "runs_caution",
           "skill_caution", "dir_caution"]
