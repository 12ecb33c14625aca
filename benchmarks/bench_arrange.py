"""The arranger's speed and how good its estimate is.

    python benchmarks/bench_arrange.py             # 1,000 hands for speed, 30 for the estimate
    python benchmarks/bench_arrange.py --quick

(a) median time per hand of `cpscore.arrange.arrange` (top 3; rules 2-4, ofc,
    then capsa, whose suit order makes each row's chances depend on the hand's
    cards, so that they are worked out per hand) over random hands, next to
    the bare split loop measured in the same run, hand by hand in turn: every
    one of the 72,072 splits enumerated, the legal ones kept, with the row
    strengths (the 1,287 five-card and 286 three-card subsets) prepared
    beforehand and not timed.  The ratio is the arranger's median over the
    loop's (the target: at most 0.5); the same loop with the rows evaluated
    up front and timed (the reference) is shown beside it.  The first hand of
    a rule set, which builds its model, is left out of all.
(b) how far the estimate's best setting falls short of the simulated best:
    for a sample of hands, the 20 best settings by the estimate are simulated
    against the same N baseline opponents; the shortfall is the simulated
    units of the best simulated setting less those of the estimate's first.
(c) Fantasyland hands (rules pineapple): median and slowest time per hand of
    14, 15 and 17 cards, the 13 kept chosen with staying in Fantasyland valued.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from cpscore.arrange import arrange, simulate
from cpscore.cards import CARDS
from cpscore.hands import evaluate3, evaluate5
from cpscore.rules import get_rules

FIVES = list(itertools.combinations(range(13), 5))
THREES = list(itertools.combinations(range(13), 3))
FIVE_MASKS = [sum(1 << i for i in combo) for combo in FIVES]
THREE_MASKS = [sum(1 << i for i in combo) for combo in THREES]
LOCAL = list(itertools.combinations(range(8), 5))
FULL = (1 << 13) - 1


def strengths(codes: list[int]) -> tuple[dict[int, int], dict[int, int]]:
    """Every five-card and three-card row of the hand, by bit mask, with its value."""
    five = {}
    for (a, b, c, d, e), mask in zip(FIVES, FIVE_MASKS):
        five[mask] = evaluate5((codes[a], codes[b], codes[c], codes[d], codes[e]))
    three = {}
    for (a, b, c), mask in zip(THREES, THREE_MASKS):
        three[mask] = evaluate3((codes[a], codes[b], codes[c]))
    return five, three


def reference(codes: list[int]) -> int:
    """Every split, rows evaluated once up front, the legal ones kept."""
    return bare_loop(*strengths(codes))


def bare_loop(five: dict[int, int], three: dict[int, int]) -> int:
    """Every one of the 72,072 splits, the row strengths given: the legal ones kept."""
    legal = []
    for back, back_value in five.items():
        bits = [1 << i for i in range(13) if not back >> i & 1]
        for a, b, c, d, e in LOCAL:
            middle = bits[a] | bits[b] | bits[c] | bits[d] | bits[e]
            middle_value = five[middle]
            if middle_value <= back_value and three[FULL ^ back ^ middle] <= middle_value:
                legal.append((back, middle))
    return len(legal)


def speed(hands: list[list], rules) -> None:
    arrange(hands[0], rules)  # build the rule set's model
    ours, theirs, bare = [], [], []
    for cards in hands[1:]:  # alternate, so drift hits all alike
        start = time.perf_counter()
        arrange(cards, rules)
        ours.append(time.perf_counter() - start)
        codes = [card.code for card in cards]
        start = time.perf_counter()
        reference(codes)
        theirs.append(time.perf_counter() - start)
        given = strengths(codes)  # prepared beforehand, not timed
        start = time.perf_counter()
        bare_loop(*given)
        bare.append(time.perf_counter() - start)
    mine, ref, loop = statistics.median(ours), statistics.median(theirs), statistics.median(bare)
    print(f"(a) {len(ours):,} random hands, rules {rules.id}")
    print(f"    arranger   median {mine * 1e3:6.2f} ms   p90 {sorted(ours)[int(len(ours) * 0.9)] * 1e3:6.2f} ms")
    print(
        f"    bare loop  median {loop * 1e3:6.2f} ms   (every split, the row strengths prepared beforehand, not timed)"
    )
    print(f"    reference  median {ref * 1e3:6.2f} ms   (the same loop, the rows evaluated in it, up front)")
    print(f"    ratio, arranger median / bare loop median = {mine / loop:.3f} (target <= 0.5)")
    print(f"    ratio, arranger median / reference median = {mine / ref:.3f}")


def fantasyland_speed(rules, counts: tuple[int, ...], hands: int) -> None:
    print(f"(c) Fantasyland hands, rules {rules.id}, {hands} random hands of each size")
    for count in counts:
        rng = random.Random(count)
        times = []
        for _ in range(hands):
            cards = rng.sample(CARDS, count)
            start = time.perf_counter()
            arrange(cards, rules)
            times.append(time.perf_counter() - start)
        print(
            f"    {count} cards  median {statistics.median(times) * 1e3:7.1f} ms   slowest {max(times) * 1e3:7.1f} ms"
        )


def shortfall(hands: list[list], rules, rounds: int) -> None:
    gaps = []
    for index, cards in enumerate(hands):
        candidates = simulate(cards, arrange(cards, rules, 20), rules, rounds, seed=index)
        best = max(setting.simulated for setting in candidates)
        gaps.append(best - candidates[0].simulated)
    print(f"(b) {len(hands)} hands, rules {rules.id}, the 20 best by the estimate simulated against {rounds} opponents")
    print(
        f"    shortfall of the estimate's best: mean {statistics.mean(gaps):.3f}, median {statistics.median(gaps):.3f},"
        f" max {max(gaps):.3f} units; the estimate's best was the simulated best in "
        f"{sum(gap == 0 for gap in gaps)} of {len(gaps)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rng = random.Random(2026)
    hands = [rng.sample(CARDS, 13) for _ in range(100 if args.quick else 1_000)]
    rules = get_rules("2-4")
    speed(hands, rules)
    print()
    speed(hands, get_rules("ofc"))
    print()
    speed(hands, get_rules("capsa"))
    print()
    shortfall(hands[: 10 if args.quick else 30], rules, 200 if args.quick else 500)
    print()
    fantasyland_speed(get_rules("pineapple"), (14, 15, 17), 10 if args.quick else 50)


if __name__ == "__main__":
    main()
