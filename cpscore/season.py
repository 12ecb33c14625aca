"""A club's standing over many nights: each night a session file settled on
its own (its rules, stakes, seats and payments), the nights added up.

A :class:`Season` takes each night once it is settled (a finished
:class:`cpscore.night.Night`, and how many deals each player held a hand in)
and keeps, per night, each player's units, money, payments and what they are
still owed; per player over the season, the nights and deals played, the
totals, the biggest night won; and the leaderboard.  What is still owed is
carried from night to night: a payment recorded in any night (``@paid``)
counts against the season's balance, so the transfers that settle the season
pay only what is still owed.  Nothing here reads a file or prints.

>>> from cpscore.night import Night
>>> one, two = Night(), Night()
>>> _ = one.settle_text("@date 2026-11-19\\n\\nAmy: +6\\nBob: -6\\n", "a.txt")
>>> _ = two.settle_text("@date 2026-11-26\\n@paid Bob Amy 6\\n\\nAmy: -2\\nBob: +2\\n", "b.txt")
>>> season = Season()
>>> season.add("a.txt", one, {"Amy": 1, "Bob": 1})
>>> season.add("b.txt", two, {"Amy": 1, "Bob": 1})
>>> [(player.name, player.units, player.balance) for player in season.leaderboard()]
[('Amy', 4, -2), ('Bob', -4, 2)]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpscore.records import Record

if TYPE_CHECKING:
    from collections.abc import Mapping

    from cpscore.amounts import Amount
    from cpscore.night import Night


class NightRow(Record):
    """One night of the season: its file, date (None: no ``@date``), rules,
    deals, whether its money differs from its units, and each player's
    ``(units, money, paid, balance)`` that night, in order of first appearance."""

    __slots__ = ("file", "date", "rules", "deals", "money", "players")

    def __init__(
        self,
        file: str,
        date: str | None,
        rules: str,
        deals: int,
        money: bool,
        players: dict[str, tuple[Amount, Amount, Amount, Amount]],
    ) -> None:
        self.file = file
        self.date = date
        self.rules = rules
        self.deals = deals
        self.money = money
        self.players = players


class Standing:
    """One player over the season, changed as nights come (so not a record):
    nights and deals played, units and money won, money handed over (net:
    negative when received), what they are still owed (negative: still owe),
    and their biggest night (the most money won; the earliest of equal ones)."""

    __slots__ = ("name", "nights", "deals", "units", "amount", "paid", "balance", "biggest")

    def __init__(self, name: str) -> None:
        self.name = name
        self.nights = 0
        self.deals = 0
        self.units: Amount = 0
        self.amount: Amount = 0
        self.paid: Amount = 0
        self.balance: Amount = 0
        self.biggest: tuple[int, Amount, Amount] | None = None  # (night index, money, units)


class Season:
    """The nights of a club, in the order given (see the module)."""

    def __init__(self) -> None:
        self.nights: list[NightRow] = []
        self.players: dict[str, Standing] = {}  # in order of first appearance
        self.money = False  # whether any night's money differs from its units

    def add(self, file: str, night: Night, deals_played: Mapping[str, int]) -> None:
        """Add a night, settled and finished (:meth:`cpscore.night.Night.finish`):
        ``deals_played`` is how many deals each player held a hand in."""
        ledger = night.ledger
        balances = ledger.balances()
        rows: dict[str, tuple[Amount, Amount, Amount, Amount]] = {}
        index = len(self.nights)
        for name, balance in balances.items():
            units = ledger.units.get(name, 0)
            amount = ledger.money.get(name, 0)
            paid = ledger.paid.get(name, 0)
            rows[name] = (units, amount, paid, balance)
            player = self.players.get(name)
            if player is None:
                player = self.players[name] = Standing(name)
            played = deals_played.get(name, 0)
            if played:
                player.nights += 1
                player.deals += played
                if amount > 0 and (player.biggest is None or amount > player.biggest[1]):
                    player.biggest = (index, amount, units)
            player.units += units
            player.amount += amount
            player.paid += paid
            player.balance += balance
        date = night.dates[0][1] if night.dates else None
        self.nights.append(NightRow(file, date, ledger.rules.id, ledger.deals, night.money, rows))
        self.money = self.money or night.money

    def leaderboard(self) -> list[Standing]:
        """The players, most money won first (then most units, then by name)."""
        return sorted(self.players.values(), key=lambda player: (-player.amount, -player.units, player.name))

    def balances(self) -> dict[str, Amount]:
        """What each player is still owed over the season (negative: still owes)."""
        return {name: player.balance for name, player in self.players.items()}

    def running(self) -> list[dict[str, Amount]]:
        """Each player's money won so far (units when no night's money differs
        from them), after each night: the chart's points."""
        totals: dict[str, Amount] = {}
        points = []
        for row in self.nights:
            for name, (units, amount, _, _) in row.players.items():
                totals[name] = totals.get(name, 0) + (amount if self.money else units)
            points.append(dict(totals))
        return points

    def out_of_order(self) -> tuple[NightRow, NightRow] | None:
        """The first two nights whose dates go backwards (a later night dated
        before an earlier one), or None."""
        dated = [row for row in self.nights if row.date is not None]
        for earlier, later in zip(dated, dated[1:]):
            assert earlier.date is not None and later.date is not None  # dated
            if later.date < earlier.date:
                return earlier, later
        return None
