"""Natural detection on unset hands: median time per hand.

    python benchmarks/bench_naturals.py

Under the taiwanese preset (every natural but no-broadway enabled), for
(a) random 13-card hands, and (b) hands that are three straights or three
flushes, where the arrangement search runs and the strongest arrangement is
found.  For scale, (c) times a naive search that walks all 72,072 ways to
split 13 cards into 3 / 5 / 5 rows, on a few hands.
"""

from __future__ import annotations

import itertools
import random
import statistics
import time

from cpscore.cards import CARDS
from cpscore.naturals import detect
from cpscore.rules import get_rules


def _time(hands, function) -> list[float]:
    times = []
    for hand in hands:
        start = time.perf_counter()
        function(hand)
        times.append(time.perf_counter() - start)
    return times


def _row_natural_hands(rng: random.Random, count: int) -> list[list]:
    """Random hands built as three straights or three flushes (most are not also
    something more valuable)."""
    hands = []
    by_code = {(card.rank.number, card.suit.value): card for card in CARDS}
    while len(hands) < count:
        if rng.random() < 0.5:  # three flushes: a suit per row
            suits = [rng.choice("shdc") for _ in range(3)]
            cards = set()
            for size, suit in zip((5, 5, 3), suits):
                free = [r for r in range(2, 15) if (r, suit) not in cards]
                if len(free) < size:
                    break
                cards |= {(r, suit) for r in rng.sample(free, size)}
        else:  # three straights
            cards = set()
            for size in (5, 5, 3):
                top = rng.randint(size, 14)
                ranks = [r if r > 1 else 14 for r in range(top, top - size, -1)]
                for rank in ranks:
                    free = [s for s in "shdc" if (rank, s) not in cards]
                    if not free:
                        break
                    cards.add((rank, rng.choice(free)))
        if len(cards) == 13:
            hands.append([by_code[key] for key in cards])
    return hands


def naive_three_flushes(cards) -> bool:
    """Every split of 13 cards into a back, a middle and a front, in order."""
    found = False
    for back in itertools.combinations(cards, 5):
        rest = [card for card in cards if card not in back]
        for middle in itertools.combinations(rest, 5):
            front = [card for card in rest if card not in middle]
            if all(len({card.suit for card in row}) == 1 for row in (back, middle, front)):
                found = True
    return found


def main() -> None:
    rules = get_rules("taiwanese")
    rng = random.Random(2026)
    random_hands = [rng.sample(CARDS, 13) for _ in range(5_000)]
    row_hands = _row_natural_hands(rng, 1_000)
    claimed = sum(detect(hand, None, rules) is not None for hand in row_hands)
    print("natural detection on unset hands (taiwanese rules, every natural enabled)")
    for label, hands in (("random hands", random_hands), ("three straights / flushes", row_hands)):
        times = _time(hands, lambda hand: detect(hand, None, rules))
        print(
            f"    {label:26s} median {statistics.median(times) * 1e6:7.1f} us   "
            f"p99 {sorted(times)[int(len(times) * 0.99)] * 1e6:7.1f} us   max {max(times) * 1e3:5.2f} ms"
        )
    print(f"    ({claimed} of {len(row_hands)} built row-natural hands claim a natural)")
    naive = _time(random_hands[:5], naive_three_flushes)
    print(f"    naive walk of all 72,072 splits (one natural): median {statistics.median(naive) * 1e3:.0f} ms per hand")


if __name__ == "__main__":
    main()
