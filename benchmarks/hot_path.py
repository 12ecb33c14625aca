"""A minimal hot path for a session's totals: the baseline of bench_session.py.

It reads a session file of plain deals (``NAME: F F F / M M M M M / B B B B B``
lines, as benchmarks/make_session.py writes them) and returns each player's
units, doing only what the totals need: tokens to primes, the shipped lookup
tables, the foul test, royalties looked up once per row value, the pairs in
one flat loop, and for the rare hand that might make a natural (a screen
inlined per rule set) the library's own settlement of that deal.  No names are
checked, no records are built and no error is worded: it is what a hand-written
script for one file would do, and the figure cpscore's ``session --totals`` is
measured against.  It gives the same totals as cpscore (bench_session.py checks).
"""

from __future__ import annotations

from cpscore._tables import FIVE, THREE
from cpscore.amounts import Amount
from cpscore.rules import RuleSet

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_RANKS = "23456789TJQKA"
_SUITS = "cdhs"
#: token -> (prime, suit, rank number)
_TOKENS = {r + s: (_PRIMES[i], s, i + 2) for i, r in enumerate(_RANKS) for s in _SUITS}
_PRIME = {token: prime for token, (prime, _, _) in _TOKENS.items()}
_FLUSH = 5 << 20
_HIGH = 0
_STRAIGHT = 4 << 20
_SF = 8 << 20
_LOW = set("234567")  # all-high: no card below 8
_HIGH_RANKS = set("9TJQKA")  # all-low: no card above 8


def _five(tokens: list[str]) -> int:
    a, b, c, d, e = tokens
    value = FIVE[_PRIME[a] * _PRIME[b] * _PRIME[c] * _PRIME[d] * _PRIME[e]]
    if a[1] == b[1] == c[1] == d[1] == e[1]:
        value += (_SF - _STRAIGHT) if value >= _STRAIGHT else (_FLUSH - _HIGH)
    return value


def hot_totals(path: str, rules: RuleSet) -> dict[str, Amount]:
    """Each player's units over the session file at ``path`` under ``rules``
    (the rule sets 1-6, ofc and taiwanese; no stakes, no surrender, no markers)."""
    from cpscore.scoring import royalty

    method = rules.methods.method
    mode = rules.royalties.mode
    naturals = bool(rules.naturals.units)
    scoop_doubles, home_run = rules.multipliers.scoop_doubles, rules.multipliers.home_run
    fewest = rules.multipliers.home_run_min_opponents  # opponents a home run needs
    memo: dict[tuple[int, int], Amount] = {}
    totals: dict[str, Amount] = {}
    deal: list[tuple[str, str]] = []

    def settle_deal() -> None:
        hands = []
        fallback = False
        for name, text in deal:
            front, middle, back = text.split("/")
            ft, mt, bt = front.split(), middle.split(), back.split()
            f = THREE[_PRIME[ft[0]] * _PRIME[ft[1]] * _PRIME[ft[2]]]
            m, b = _five(mt), _five(bt)
            foul = m > b or f > m
            if naturals:  # a screen that never misses a natural of these rule sets
                cards = ft + mt + bt
                ranks = [t[0] for t in cards]
                distinct = len(set(ranks))
                mc, bc = m >> 20, b >> 20
                if (
                    distinct == 13
                    or (distinct <= 7 and sum(ranks.count(r) // 2 for r in set(ranks)) >= 6)
                    or distinct <= 5
                    or (mc in (4, 8) and bc in (4, 8))
                    or (mc in (5, 8) and bc in (5, 8) and ft[0][1] == ft[1][1] == ft[2][1])
                    or not set(ranks) & _LOW
                    or not set(ranks) & _HIGH_RANKS
                    or len({t[1] in "dh" for t in cards}) == 1
                ):
                    fallback = True
                    break
            if mode != "none" and not foul:
                rows = []
                for index, value in enumerate((f, m, b)):
                    got = memo.get((index, value))
                    if got is None:
                        got = memo[index, value] = royalty(rules, ("front", "middle", "back")[index], value)
                    rows.append(got)
            else:
                rows = [0, 0, 0]
            hands.append((name, f, m, b, foul, rows))
        if fallback:
            from cpscore.deal import build_deal, entry_from_line
            from cpscore.scoring import settle

            result = settle(build_deal([entry_from_line(f"{n}:{t}", "") for n, t in deal], rules), rules)
            for player in result.players:
                totals[player.name] = totals.get(player.name, 0) + player.units
            return
        count = len(hands)
        units = [0] * count
        scoops = [0] * count
        outcomes = []
        for i in range(count):
            _, f1, m1, b1, foul1, r1 = hands[i]
            for j in range(i + 1, count):
                _, f2, m2, b2, foul2, r2 = hands[j]
                if foul1 or foul2:
                    rows = (0, 0, 0) if foul1 and foul2 else (-1, -1, -1) if foul1 else (1, 1, 1)
                else:
                    rows = ((f1 > f2) - (f1 < f2), (m1 > m2) - (m1 < m2), (b1 > b2) - (b1 < b2))
                won = sum(rows)
                if mode == "holder":
                    extra = sum(r1) - sum(r2)
                elif mode == "none":
                    extra = 0
                else:  # the row's winner collects its value (row-bonus) or its value less 1 (row-value)
                    extra = 0
                    less = 0 if mode == "row-bonus" else 1
                    for outcome, x, y in zip(rows, r1, r2):
                        if outcome > 0 and x:
                            extra += x - less
                        elif outcome < 0 and y:
                            extra -= y - less
                scoop = 1 if rows == (1, 1, 1) else -1 if rows == (-1, -1, -1) else 0
                bonus = 3 * scoop if method == "1-6" else 0
                if scoop > 0:
                    scoops[i] += 1
                elif scoop < 0:
                    scoops[j] += 1
                outcomes.append((i, j, won + bonus + extra, scoop))
        for i, j, amount, scoop in outcomes:
            if scoop and scoop_doubles:
                amount *= 2
            if scoop and home_run and count - 1 >= fewest and scoops[i if scoop > 0 else j] == count - 1:
                amount *= 2
            units[i] += amount
            units[j] -= amount
        for (name, *_), amount in zip(hands, units):
            totals[name] = totals.get(name, 0) + amount

    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line[0] in "#@":
                continue
            if line == "\n":
                if deal:
                    settle_deal()
                    deal = []
                continue
            name, _, text = line.partition(":")
            deal.append((name, text))
    if deal:
        settle_deal()
    return totals
