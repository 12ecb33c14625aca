"""Write a random session file: 4-player deals, mostly legal hands, some fouls.

    python benchmarks/make_session.py 100000 > big-session.txt
    python benchmarks/make_session.py 1000 --rules ofc --seed 7 > small.txt

Each hand is 13 random cards of a shuffled deck; most are then set sensibly
(the stronger five-card row in the back, the weaker in the middle, the three
remaining cards in front), about one in ten is left as dealt, which usually
fouls.
"""

from __future__ import annotations

import argparse
import random
import sys

from cpscore.cards import CARDS
from cpscore.hands import evaluate_row

PLAYERS = ("Amy", "Bob", "Cy", "Dee")


def random_hand(rng: random.Random, cards: list) -> str:
    if rng.random() < 0.1:
        rows = (cards[:3], cards[3:8], cards[8:])
    else:
        best = None
        for _ in range(4):  # a few random splits; keep the one with the strongest back
            rng.shuffle(cards)
            middle, back = cards[3:8], cards[8:]
            if evaluate_row(middle) > evaluate_row(back):
                middle, back = back, middle
            candidate = (evaluate_row(back), cards[:3], middle, back)
            if best is None or candidate[0] > best[0]:
                best = candidate
        rows = best[1:]
    return " / ".join(" ".join(map(str, row)) for row in rows)


def write_session(count: int, rules: str, seed: int, out) -> None:
    rng = random.Random(seed)
    deck = list(CARDS)
    out.write(f"# {count} random deals (benchmarks/make_session.py, seed {seed})\n@rules {rules}\n")
    for _ in range(count):
        rng.shuffle(deck)
        out.write("\n")
        for seat, name in enumerate(PLAYERS):
            out.write(f"{name}: {random_hand(rng, deck[13 * seat : 13 * seat + 13])}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, help="how many deals")
    parser.add_argument("--rules", default="1-6", help="the @rules header (default 1-6)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    write_session(args.count, args.rules, args.seed, sys.stdout)


if __name__ == "__main__":
    main()
