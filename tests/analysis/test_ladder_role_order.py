"""``balance ladder`` of a game with roles shows its rows and columns in the order ``--bots`` names
them: the Censitaire table listed ``standard`` last (after the bots it had been played against
first), though the designer named it first."""

from __future__ import annotations

from analysis import ladder as L
from cli import _run


def test_role_tables_follow_the_order_of_bots(monkeypatch, capsys):
    names = ["standard", "fair-share", "objective"]
    nan = float("nan")

    def fake(bots, games, **kw):
        # grouped by opponent, as role_ladder plays them: standard is a row only against fair-share
        cen = [L.Cell(a, b, 4, 0.3, 0.1, 0.2, 0.4, 1 / 3) for b in bots for a in bots if a != b]
        sei = [L.Cell("standard", b, 4, 0.0, 0.0, 0.0, 0.1, nan) for b in bots]
        return {"seigneur": sei, "censitaire": cen}

    monkeypatch.setattr(L, "role_ladder", fake)
    monkeypatch.setenv("COLUMNS", "200")
    assert _run(["ladder", "--game", "seigneurial", "--bots", ",".join(names), "--games", "4"]) == 0
    out = capsys.readouterr().out
    cen = out[out.index("win share of one Censitaire bot"):]
    rows = [line.split("│")[1].strip() for line in cen.splitlines()
            if line.startswith("│") and line.split("│")[1].strip() in names]
    assert rows == names, rows
    header = next(line for line in cen.splitlines() if "opponents" in line)
    assert [header.index(b) for b in names] == sorted(header.index(b) for b in names), header
