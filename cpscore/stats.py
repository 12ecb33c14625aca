"""Statistics for a night: per player, what the deals of a session did.

Every figure is read from the kernel's results (:class:`~cpscore.scoring.Outcome`,
or a :class:`~cpscore.scoring.Settlement` built from one): nothing here
compares a row, prices a royalty or pays a unit.  Deals are taken one at a
time as the session streams, and what is kept grows with the players, not
with the deals.

Per player (the owner of the hands, so a criss-cross player's hands count
together):

- ``deals``: the deals they held a hand in (a surrender included); ``hands``:
  the hands they held (more than the deals only in criss-cross);
  ``results``: those of their deals written as results, without cards
  (docs/rules.md 13): their units count, they have no rows, naturals or fouls;
- ``rows_won``, ``rows_lost``, ``rows_tied``: the rows of the pairs whose rows
  were played, as the kernel counted them (a fouled hand loses every row to a
  live one; two fouled hands tie theirs; a pair a natural or a surrender
  decided has no rows);
- ``scoops_made``, ``scoops_suffered``: pairs whose three rows all went one way
  (a live hand scoops a fouled one, as the 1-6 bonus pays it);
- ``fouls``, ``surrenders``; ``naturals``: the naturals claimed, by id;
  ``false_claims``: 13 cards declared a natural that were none;
- ``royalties``: the royalty units the hands held (the score table's
  Royalties column; a fouled hand holds none), whatever the pairs then paid;
- ``fantasyland_entries`` (hands that qualified from outside Fantasyland) and
  ``fantasyland_stays`` (hands that played in it and stayed);
- ``biggest_win``, ``biggest_loss``: the deal with the most units won (lost),
  the earliest of equal ones; None when no deal was won (lost);
- ``units``, ``amount``: the totals, as the ledger's.

>>> from cpscore.rules import get_rules
>>> from cpscore.session import Ledger, read_session
>>> text = '''A: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d
... B: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h
... '''
>>> ledger, stats = Ledger(get_rules("1-6")), Stats()
>>> for deal_text in read_session(text.splitlines(), "night.txt")[1]:
...     deal, outcome = ledger.take(deal_text, "night.txt")
...     stats.add(deal_text.number, deal, outcome)
>>> a = stats.players["A"]
>>> (a.deals, a.rows_won, a.rows_lost, a.scoops_made, a.biggest_win)
(1, 2, 1, 0, Biggest(deal=1, units=1, amount=1))
"""

from __future__ import annotations

from collections.abc import Iterable

from cpscore.amounts import Amount
from cpscore.deal import Deal
from cpscore.naturals import Natural
from cpscore.records import Record
from cpscore.scoring import FALSE_CLAIM, Core, Fantasyland, Outcome, Settlement


class Biggest(Record):
    """One player's result in one deal: the deal's number, units and money."""

    __slots__ = ("deal", "units", "amount")

    def __init__(self, deal: int, units: Amount, amount: Amount) -> None:
        self.deal = deal
        self.units = units
        self.amount = amount


class PlayerStats:
    """One player's running figures (see the module's docstring); changed by
    :class:`Stats` as deals come, so not a record."""

    __slots__ = (
        "name",
        "deals",
        "hands",
        "results",
        "rows_won",
        "rows_lost",
        "rows_tied",
        "scoops_made",
        "scoops_suffered",
        "fouls",
        "surrenders",
        "naturals",
        "false_claims",
        "royalties",
        "fantasyland_entries",
        "fantasyland_stays",
        "biggest_win",
        "biggest_loss",
        "units",
        "amount",
    )

    def __init__(self, name: str) -> None:
        self.name = name
        self.deals = 0
        self.hands = 0
        self.results = 0
        self.rows_won = 0
        self.rows_lost = 0
        self.rows_tied = 0
        self.scoops_made = 0
        self.scoops_suffered = 0
        self.fouls = 0
        self.surrenders = 0
        self.naturals: dict[str, int] = {}  # natural id -> claims, in order of the first claim
        self.false_claims = 0
        self.royalties: Amount = 0
        self.fantasyland_entries = 0
        self.fantasyland_stays = 0
        self.biggest_win: Biggest | None = None
        self.biggest_loss: Biggest | None = None
        self.units: Amount = 0
        self.amount: Amount = 0

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"PlayerStats({fields})"


# (owner, core, natural, Fantasyland, surrendered, units, money) of one hand, and
# (owner a, owner b, decided_by, rows from a's side) of one pair.
_Hand = tuple[str, Core | None, Natural | None, Fantasyland | None, bool, Amount, Amount]
_Pair = tuple[str, str, str, tuple[int, int, int]]


class Stats:
    """Per-player statistics over the deals of a session, taken in order with
    :meth:`add` (from the kernel's outcome, as :meth:`cpscore.session.Ledger.take`
    gives it) or :meth:`add_settlement`; both read the same facts."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerStats] = {}  # in order of first appearance
        self.deals = 0
        self.result_deals = 0  # deals written as results, without cards

    def add(self, number: int, deal: Deal, outcome: Outcome) -> None:
        """Count deal ``number``, settled by :func:`cpscore.scoring.kernel`."""
        seats = deal.seats
        hands = [
            (seat.owner, core, natural, land, seat.surrendered, units, money)
            for seat, core, natural, land, units, money in zip(
                seats, outcome.cores, outcome.naturals, outcome.fantasyland, outcome.units, outcome.money
            )
        ]
        pairs = [(seats[pair.i].owner, seats[pair.j].owner, pair.decided_by, pair.rows) for pair in outcome.pairs]
        self._take(number, hands, pairs)

    def add_settlement(self, number: int, settlement: Settlement) -> None:
        """Count deal ``number`` from its records (a session's spooled results)."""
        owner_of = {player.seat.name: player.seat.owner for player in settlement.players}
        hands = [
            (
                player.seat.owner,
                None if player.assessment is None else player.assessment.core,
                player.natural,
                player.fantasyland,
                player.seat.surrendered,
                player.units,
                player.amount,
            )
            for player in settlement.players
        ]
        pairs = [(owner_of[pair.a], owner_of[pair.b], pair.decided_by, pair.rows) for pair in settlement.pairs]
        self._take(number, hands, pairs)

    def _player(self, name: str) -> PlayerStats:
        found = self.players.get(name)
        if found is None:
            found = self.players[name] = PlayerStats(name)
        return found

    def _take(self, number: int, hands: Iterable[_Hand], pairs: list[_Pair]) -> None:
        self.deals += 1
        results = bool(pairs) and pairs[0][2] == "result"  # a deal of results: every pair says so
        self.result_deals += results
        deal_units: dict[str, Amount] = {}
        deal_money: dict[str, Amount] = {}
        for owner, core, natural, land, surrendered, units, money in hands:
            player = self._player(owner)
            player.hands += 1
            deal_units[owner] = deal_units.get(owner, 0) + units
            deal_money[owner] = deal_money.get(owner, 0) + money
            if surrendered:
                player.surrenders += 1
            if core is not None:
                if core.foul is not None:
                    player.fouls += 1
                else:
                    player.royalties += sum(core.royalties) + core.broken
            if natural is not None:
                if natural.id == FALSE_CLAIM:
                    player.false_claims += 1
                else:
                    player.naturals[natural.id] = player.naturals.get(natural.id, 0) + 1
            if land is not None and land.next:
                if land.playing:
                    player.fantasyland_stays += 1
                else:
                    player.fantasyland_entries += 1
        for owner_a, owner_b, decided_by, rows in pairs:
            if decided_by != "rows":
                continue
            a, b = self.players[owner_a], self.players[owner_b]
            won, lost = rows.count(1), rows.count(-1)
            a.rows_won += won
            a.rows_lost += lost
            b.rows_won += lost
            b.rows_lost += won
            tied = 3 - won - lost
            a.rows_tied += tied
            b.rows_tied += tied
            if won == 3:
                a.scoops_made += 1
                b.scoops_suffered += 1
            elif lost == 3:
                b.scoops_made += 1
                a.scoops_suffered += 1
        for owner, units in deal_units.items():
            player = self.players[owner]
            player.deals += 1
            player.results += results
            player.units += units
            player.amount += deal_money[owner]
            if units > 0 and (player.biggest_win is None or units > player.biggest_win.units):
                player.biggest_win = Biggest(number, units, deal_money[owner])
            elif units < 0 and (player.biggest_loss is None or units < player.biggest_loss.units):
                player.biggest_loss = Biggest(number, units, deal_money[owner])

    def natural_ids(self, rank: Iterable[str] = ()) -> list[str]:
        """Every natural claimed in the session, in the order of ``rank`` (the
        rules' ``natural_rank``: highest first), then any other by first claim."""
        claimed: dict[str, None] = {}
        for player in self.players.values():
            claimed.update(dict.fromkeys(player.naturals))
        ranked = [natural for natural in rank if natural in claimed]
        return ranked + [natural for natural in claimed if natural not in ranked]
