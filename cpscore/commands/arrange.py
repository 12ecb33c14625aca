"""``cpscore arrange``: the best settings of 13 cards (of 14 to 17 in Fantasyland)."""

from __future__ import annotations

import os

import click

from cpscore.commands._options import (
    InputError,
    apply_flags,
    completer,
    format_option,
    help_option,
    read_source,
    rules_option,
    use_colour,
)
from cpscore.errors import shown

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 50

#: The most settings ``--top`` shows: the 20 best by the estimate, which are
#: the ones ``--simulate`` ranks again (:func:`cpscore.arrange.arrangement`).
MAX_TOP = 20

#: The most rounds ``--simulate`` plays.  A round settles the 20 settings
#: against one drawn opponent, so a hand takes at most 10,000 deals: about a
#: second under the slowest preset, 3 s with broken_royalties (docs/limits.md).
MAX_ROUNDS = 500


def _from_1_to(most: int, why: str):
    """The callback of an option that takes a whole number from 1 to ``most``:
    another is a bad option value that says ``why``."""

    def check(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
        if value is not None and not 1 <= value <= most:
            raise click.BadParameter(f"{shown(value)} is not a number from 1 to {most}: {why}")
        return value

    return check


@click.command(name="arrange", add_help_option=False)
@help_option
@click.argument("cards", nargs=-1, metavar="CARDS | FILE | -", shell_complete=completer("files"))
@rules_option
@click.option(
    "--top",
    type=int,
    default=3,
    show_default=True,
    metavar="N",
    callback=_from_1_to(MAX_TOP, f"the arranger shows at most the {MAX_TOP} best, the ones --simulate ranks again"),
    help=f"How many settings to show, 1 to {MAX_TOP}: the {MAX_TOP} best by the estimate, the ones --simulate ranks"
    " again.",
)
@click.option(
    "--simulate",
    "rounds",
    type=int,
    default=None,
    metavar="N",
    callback=_from_1_to(
        MAX_ROUNDS, f"{MAX_ROUNDS} rounds settle {MAX_TOP * MAX_ROUNDS:,} deals, a few seconds at most"
    ),
    help=f"Rank the {MAX_TOP} best by the estimate again by N simulated opponents each, N from 1 to {MAX_ROUNDS}"
    f" ({MAX_ROUNDS} rounds settle {MAX_TOP * MAX_ROUNDS:,} deals a hand: a few seconds at most).",
)
@click.option(
    "--banker/--player",
    "banker",
    default=None,
    help="Under banker pairing, whether the hand is the banker's: needed where it changes what a setting"
    " is worth (banker_wins_ties, or a home run against one opponent).",
)
@format_option(("table", "json"))
def arrange(cards, rules, spade_bonus, top, rounds, banker, fmt) -> None:
    """Set 13 cards: the best legal settings under the rules, best first.

    CARDS are the 13 cards (quoted or as separate words), or a file with
    one hand a line, or '-' for such lines on stdin.  Each setting shows
    its expected units against one opponent who holds 13 of the other
    cards and sets them the plain way (strongest back, then strongest
    middle), and the figures it is built from.  When the cards make a
    natural worth more than the best setting, the first line says to
    declare it.  Under rules with Fantasyland (ofc, pineapple), 14 to 17
    cards are a Fantasyland hand: each setting keeps 13 and shows its
    discards, and staying in Fantasyland counts 6 units:

        cpscore arrange Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c

    A setting the estimate does not model (max_per_hand, low_middle) is
    an error that says what to do.  Under banker pairing, --banker or
    --player says whose hand it is, where that changes its worth.
    """
    from cpscore.arrange import arrangement, check_rules
    from cpscore.cards import parse_cards
    from cpscore.errors import CpscoreError

    rules = apply_flags(rules, spade_bonus)
    try:
        check_rules(rules, banker)  # before any hand: every hand would meet it
    except CpscoreError as error:
        raise InputError(str(error)) from None
    fantasyland = rules.ofc.played
    if not cards:
        raise InputError("no cards: give 13 cards, a file with one hand a line, or - for stdin")
    text = " ".join(cards)
    hands: list[tuple[str, str]] = []
    if len(cards) == 1 and os.path.isdir(cards[0]):
        raise InputError(
            f"{shown(cards[0], 60)} is a folder: give 13 cards, a file with one hand a line, or - for stdin"
        )
    if len(cards) == 1 and (cards[0] == "-" or os.path.isfile(cards[0])):  # else: the cards themselves
        source = "stdin" if cards[0] == "-" else cards[0]
        from cpscore.textio import split_lines

        content = read_source(cards[0], [])
        try:
            numbered = list(enumerate(split_lines(content, source), start=1))
        except CpscoreError as error:
            raise InputError(str(error)) from None
        for number, line in numbered:
            line = line.split("#", 1)[0].strip()
            if line:
                hands.append((f"{source}, line {number}: ", line))
        if not hands:
            raise InputError(f"{source} has no hand: write one hand of 13 cards a line")
    else:
        hands.append(("", text))
    results = []
    try:
        for where, line in hands:
            if "/" in line or "|" in line:
                raise InputError(f"{where}the arranger takes 13 unset cards: leave out the rows ('/')")
            try:
                parsed = parse_cards(line)
            except CpscoreError as error:
                raise InputError(f"{where}{error}") from None
            twice = sorted({str(card) for card in parsed if parsed.count(card) > 1})
            if twice:
                raise InputError(
                    f"{where}{', '.join(twice)} {'is' if len(twice) == 1 else 'are'} given twice: "
                    "the arranger takes 13 different cards"
                )
            count = len(parsed)
            if count != 13 and not (fantasyland and 14 <= count <= 17):
                takes = ", or 14 to 17 in Fantasyland," if fantasyland else ","
                later = (
                    "; 14 to 17 only under rules with Fantasyland (such as --rules pineapple)"
                    if 14 <= count <= 17 and not fantasyland
                    else ""
                )
                raise InputError(
                    f"{where}{count} card{'s' * (count != 1)}: the arranger takes 13 different cards{takes} "
                    f"with no rows{later}"
                )
            results.append(arrangement(parsed, rules, top, rounds or 0, banker=banker))
    except CpscoreError as error:
        raise InputError(str(error)) from None
    from cpscore import arrange_views, formatting

    if fmt == "json":
        click.echo(
            formatting.render_json(
                [formatting.versioned(arrange_views.arrangement_data(result)) for result in results]
            ),
            nl=False,
        )
    else:
        texts = [arrange_views.render_arrangement(result, rules, colour=use_colour(fmt)) for result in results]
        click.echo("\n".join(texts), nl=False)


command = arrange
