"""``cpscore check``: check one hand."""

from __future__ import annotations

import os

import click

from cpscore.commands._options import (
    InputError,
    apply_flags,
    check_style,
    format_option,
    help_option,
    read_stdin,
    rules_option,
    style_option,
    use_colour,
)
from cpscore.errors import shown

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 20


@click.command(name="check", add_help_option=False)
@help_option
@click.argument("hand", nargs=-1, required=True, metavar="HAND")
@rules_option
@click.option("--fantasyland", "playing", is_flag=True, help="The hand was played in Fantasyland: does it stay?")
@format_option(("table", "json"))
@style_option
def check(hand, rules, spade_bonus, playing, fmt, style) -> None:
    """Check one hand: each row's category, foul or legal, royalties, the
    natural it makes, Fantasyland.

    HAND is front / middle / back, or 13 cards with no rows (an unset hand is
    checked for naturals); quote it, give the cards as separate words, or '-'
    to read it from stdin:

        cpscore check --rules ofc "Qs Qd 5c / 9h 9c 4d 4s 2c / As Ks Qh Jd Tc"
    """
    from cpscore.cards import parse_hand_or_cards
    from cpscore.errors import CpscoreError
    from cpscore.scoring import check_hand

    rules = apply_flags(rules, spade_bonus)
    if playing and not rules.ofc.played:
        raise click.BadParameter(
            f"has no effect: the {rules.id} rules have no Fantasyland", param_hint="'--fantasyland'"
        )
    text = " ".join(hand)
    if text.strip() == "-":
        text = read_stdin()
        if not text.strip():
            raise InputError("stdin has no hand: give front / middle / back, or 13 cards")
    elif len(hand) == 1 and " " not in hand[0] and os.path.exists(hand[0]):  # a path, not a hand
        if os.path.isdir(hand[0]):
            raise InputError(
                f"{shown(hand[0], 60)} is a folder: check takes the hand itself, or - to read it from stdin"
            )
        raise InputError(
            f"{shown(hand[0], 60)} is a file: check takes the hand itself, or - to read it from stdin "
            f"(cpscore check - < {shown(hand[0], 40)})"
        )
    check_style(style, fmt)
    try:
        report = check_hand(parse_hand_or_cards(text), rules, playing)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    from cpscore import formatting

    if fmt == "json":
        click.echo(formatting.render_json(formatting.versioned(formatting.check_data(report, rules))), nl=False)
    else:
        click.echo(formatting.render_check(report, rules, style, colour=use_colour(fmt)), nl=False)


command = check
