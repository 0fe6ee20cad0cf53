"""``balance replay``'s words against the other places that name the same things (review: replay).

* Seigneurial Objective cards: the replay numbers and words a card as the report's objective-card
  table does (its numbering from #1 and its requirement, ``grain ≥ 6, wood ≥ 4``, read from the
  run by :mod:`analysis.games.seigneurial` and numbered by :mod:`reports.games.seigneurial`), and
  names resources as the report (the rules file's ``grain`` / ``wood`` / ``fish``), not by their
  French names.
* ``--find role=NAME`` on a game without roles: one line saying it has no roles, for exactly the
  games ``balance export --what roles`` refuses as having none; the seat query it suggests works.
* A panel directory given instead of a run: the same line as ``balance export``'s.
* Médiévallons: guilds numbered from 1 (as seats), "an Étoile" (the report's articles), and a
  Rôdeur's take said before the guild it breaks (MV-5: the card is taken, then the guild breaks).
"""

from __future__ import annotations

import re

import polars as pl
import pytest

from cli import _run
from simcore import runner
from simcore.replay import find_game, replay


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("words")
    return {
        "seigneurial": runner.simulate("seigneurial", games=30, seed=5, out=root / "sg", quiet=True,
                                       players=4),
        "middle-ages": runner.simulate("middle-ages", games=8, seed=5, out=root / "ma", quiet=True,
                                       players=4),
        # random bots: they reinforce, use guilds and send the Rôdeur more than the presets do
        "medievallons": runner.simulate("medievallons", games=12, seed=3, out=root / "mv", quiet=True,
                                        players=4, strategies="random"),
        "fief-combat": runner.simulate("fief-combat", games=8, seed=5, out=root / "fief", quiet=True),
    }


# ---------------------------------------------------------------------------------------------
# 1. Seigneurial Objective cards: the report's numbers and words
# ---------------------------------------------------------------------------------------------

def _report_cards(run) -> dict[int, tuple[str, str]]:
    """objective (players.parquet, 0-based) → (the report's card number, its requirement), from
    the report's own code: analysis's objective table, numbered by the report's card table."""
    from analysis.games.seigneurial import objective_table
    from analysis.load import open_runs
    from reports.games import seigneurial as report

    table = objective_table(open_runs([run]))
    cards = report._cards({"objectives": table.drop("same_as")})     # one row per card, unpooled
    return {int(o): (c, lab) for o, c, lab in zip(cards["objective"], cards["cards"], cards["label"])}


def test_objective_cards_are_numbered_and_worded_as_in_the_report(runs):
    from simcore.games.seigneurial.rules import RESOURCE_NAMES

    run = runs["seigneurial"]
    report = _report_cards(run)
    players = pl.read_parquet(run / "players.parquet").filter(pl.col("role") == "censitaire")
    # games dealing card 2, { wood = 6, grain = 4 }: its words keep the rules file's order
    games = sorted(set(players.filter(pl.col("objective") == 2)["game"].to_list()[:2]) | {0})
    assert len(games) > 1, "no game dealt { wood = 6, grain = 4 }"
    seen = 0
    for g in games:
        text = replay(run, g).text
        for r in players.filter(pl.col("game") == g).iter_rows(named=True):
            number, label = report[r["objective"]]
            assert f"  P{r['seat'] + 1} objective {number}: {label}" in text, (g, r["seat"], number, label)
            seen += 1
        for french in RESOURCE_NAMES:               # the report's resource names, not the book's
            assert french not in text, (g, french)
        assert re.search(r"\b(grain|wood|fish) \d", text), "resource cards named as in the report"
    assert seen >= 6
    assert report[2] == ("#3", "wood ≥ 6, grain ≥ 4")     # the rules file's card 3 (sanity)


# ---------------------------------------------------------------------------------------------
# 2. --find role=NAME on a game without roles
# ---------------------------------------------------------------------------------------------

ROLES = {"middle-ages": (), "medievallons": (), "fief-combat": ("attacker", "defender"),
         "seigneurial": ("seigneur", "censitaire")}       # as docs/seigneurial.md and docs/fief.md name them


@pytest.mark.parametrize("game", list(ROLES))
def test_find_role_takes_a_games_roles_and_says_when_it_has_none(runs, game, capsys):
    """Review J #9: on Middle-Ages ``--find role=seigneur`` said "roles are player" (its one
    role, meaning nothing to a designer). A game whose seats all play alike says it has no roles
    and what --find takes instead; a game of several roles takes their names (Fief's one-seat
    sides included: ``role=defender`` is seat 2's games) and names them for any other."""
    run = runs[game]
    roles = ROLES[game]
    for role in ("seigneur", "defender", "player"):
        code = _run(["replay", str(run), "--find", f"role={role} max score"])
        out = capsys.readouterr()
        if role in roles:
            assert code == 0, out.err
            continue
        err = out.err.strip()
        assert code == 2 and len(err.splitlines()) == 1, err
        if roles:
            assert f"roles are {', '.join(roles)}" in err, err
        else:
            assert "has no roles (every seat plays alike)" in err and "roles are" not in err, err
            assert "seat=N (1 to 4)" in err, err
    if not roles:                       # what the line suggests instead is taken
        g, why = find_game(run, "seat=1 max score")
        assert 0 <= g < 12 and "seat 1" in why
    if game == "fief-combat":           # the defender is seat 2
        assert find_game(run, "role=defender max score")[0] == find_game(run, "seat=2 max score")[0]


# ---------------------------------------------------------------------------------------------
# 3. A panel instead of a run
# ---------------------------------------------------------------------------------------------

def test_panel_directory_gets_exports_line(tmp_path, capsys):
    panel = tmp_path / "panel"
    assert _run(["simulate", "--panel", "default", "--games", "6", "--out", str(panel), "-q"]) == 0
    capsys.readouterr()
    assert _run(["export", str(panel), "--what", "seats", "--out", "-"]) == 2
    export_err = capsys.readouterr().err
    assert "a panel, not a run: give a cell" in export_err
    assert _run(["replay", str(panel), "--game", "1"]) == 2
    replay_err = capsys.readouterr().err
    assert replay_err == export_err and len(replay_err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------------------------
# 4. Médiévallons: guild numbers, articles, order of a Rôdeur's take and the break it causes
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def mv_texts(runs):
    return [replay(runs["medievallons"], g).text for g in range(12)]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_medievallons_guilds_numbered_from_1(mv_texts):
    """Guilds are counted from 1 in the words, as seats are (the log says so): a first guild is
    guild 1, and a player holds fewer guilds than the rules' winning number (MV-7)."""
    from simcore.games.medievallons.rules import load

    to_win = load().to_win
    numbers = [int(n) for t in mv_texts for n in re.findall(r"\bguild (\d+)\b", t)]
    assert numbers, "no guild named in 12 games"
    assert min(numbers) == 1 and max(numbers) <= to_win - 1, sorted(set(numbers))
    # a player's own guild k is the k-th of the guilds its turn line lists (in founding order)
    checked = 0
    for text in mv_texts:
        listed: dict[str, list[str]] = {}
        for line in text.splitlines():
            turn = re.match(r"Turn \d+: (P\d) hand .*; guilds (.*)$", line)
            if turn:
                listed[turn.group(1)] = [] if turn.group(2) == "-" else turn.group(2).split(" ")
            own = re.match(r"    (P\d) (uses|reinforces) guild (\d+):? (\S+)$", line)
            if own:
                guilds, k = listed[own.group(1)], int(own.group(3))
                assert 1 <= k <= len(guilds), (line, guilds)
                if own.group(2) == "uses":
                    assert guilds[k - 1] == own.group(4), (line, guilds)
                checked += 1
    assert checked, "no player used or reinforced a guild in 12 games"


def test_medievallons_card_articles_follow_the_report(mv_texts):
    """Every card name follows the article the report gives it ("an Étoile", "a Prêtre")."""
    from reports.games.medievallons import with_article
    from simcore.games.medievallons.rules import CARD_NAMES

    text = "\n".join(mv_texts)
    for name in CARD_NAMES:
        right = with_article(name)
        wrong = ("a " if right.startswith("an ") else "an ") + name
        assert not re.search(rf"(?<![\w']){re.escape(wrong)}\b", text), wrong
    for name in ("Étoile", "Artisan", "Assassin"):          # the vowel names were met
        assert f"an {name}" in text, name


def test_rodeur_take_is_said_before_the_guild_breaks(mv_texts):
    """MV-5 Rôdeur: the chosen card is taken from the guild, then the guild breaks if it falls
    below its minimum: the log's lines come in that order, right after the choice."""
    pairs = 0
    for text in mv_texts:
        lines = text.splitlines()
        for i, line in enumerate(lines):
            m = re.search(r"\[Rôdeur: card to take\] P(\d) chooses P(\d) guild (\d+)", line)
            if not m:
                continue
            q, g = m.group(2), m.group(3)
            assert re.search(rf"Rôdeur: takes an? \S+ from P{q}'s guild {g}$", lines[i + 1]), lines[i:i + 3]
            if f"P{q}'s guild {g} breaks up" in lines[i + 2]:
                pairs += 1
            assert not any("breaks up" in x for x in lines[i + 1:i + 2])
    assert pairs, "no Rôdeur broke a guild in 12 games: pick another seed"


def test_find_names_who_was_found_and_suggests_a_bot_the_run_played(runs):
    """``--find 'wins min score'`` said "a game wins with the lowest score": with no seat named,
    the player found is the winner (or a loser, or a player); ``strategy=`` with a misspelt bot
    names the run's bots and the closest."""
    import polars as pl

    from simcore.errors import UsageError

    run = runs["middle-ages"]
    players = pl.read_parquet(run / "players.parquet")
    winners = players.filter(pl.col("win_share") > 0)
    game, said = find_game(run, "wins min score")
    low = int(winners["score"].min())
    assert said.startswith(f"game {game}: the winner with the fewest coins ({low} coins; among the "
                           f"{winners.height:,} winners of {winners['game'].n_unique():,} games)"), said
    assert game == int(winners.filter(pl.col("score") == low)["game"].min())
    _, said = find_game(run, "loses max score")
    assert ": a loser with the most coins (" in said, said
    _, said = find_game(run, "max score")
    assert ": a player with the most coins (" in said, said
    with pytest.raises(UsageError) as e:
        find_game(run, "strategy=balancd wins max score")
    assert str(e.value) == ("--find strategy=balancd: no seat of this run played it; did you mean "
                            "balanced? (its bots: balanced)")
