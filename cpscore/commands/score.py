"""``cpscore score``: settle one deal."""

from __future__ import annotations

import click

from cpscore.commands._options import (
    InputError,
    apply_flags,
    banker_option,
    buy_in_option,
    check_buy_in,
    check_explain,
    check_pair_stakes,
    check_style,
    completer,
    explain_choice,
    explain_option,
    format_option,
    help_option,
    player_option,
    read_source,
    rules_option,
    stake_options,
    style_option,
    use_colour,
    warn_later,
)

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 10

FORMATS = ("table", "json", "csv")


@click.command(add_help_option=False)
@help_option
@click.argument("inputs", nargs=-1, metavar="[NAME=HAND | FILE | -]...", shell_complete=completer("files"))
@rules_option
@stake_options(
    "Money per unit for every pair (default 1).", "Money per unit for one pair, overriding --stake (repeatable)."
)
@player_option("surrender", "This player surrenders (repeatable); no hand is needed.")
@player_option("waive", "This player waives a natural and plays the rows (repeatable).")
@player_option("fantasyland", "This player plays the deal in Fantasyland (repeatable).")
@banker_option
@buy_in_option("Table stakes: the money each player brings (the rules' table_stakes).")
@format_option(FORMATS)
@style_option
@explain_option
def score(
    inputs,
    rules,
    spade_bonus,
    stake,
    pair_stakes,
    surrender,
    waive,
    fantasyland,
    banker,
    buy_in,
    fmt,
    style,
    explain,
    explain_pair,
) -> None:
    """Settle one deal: every player against every other.

    Each input is a hand written NAME=HAND (an argument with '='), a deal file
    with one 'NAME: HAND' per line ('#' starts a comment), or '-' for a deal
    file on stdin.  A hand is front / middle / back, or 13 cards with no rows
    for a natural, for example

        cpscore score "Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d" \\
                      "Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"

    After a hand, '; waive', '; fantasyland' and '; banker' mark the player;
    'NAME: surrender' surrenders.  Amy[1] and Amy[2] are two hands of one
    player (criss-cross).
    """
    from cpscore.deal import build_deal, entries_from_text, entry_from_argument, named_player
    from cpscore.errors import CpscoreError
    from cpscore.scoring import Standing, settle

    explain = explain_choice(explain, explain_pair)
    rules = apply_flags(rules, spade_bonus)
    check_buy_in(rules, buy_in)
    check_explain(explain, fmt)
    check_style(style, fmt)
    if not inputs:
        raise InputError("no hands: give NAME=HAND arguments, a deal file, or - to read a deal from stdin")
    try:
        entries = []
        used_stdin: list[bool] = []
        for item in inputs:
            if "=" in item:
                entries.append(entry_from_argument(item))
            else:
                source = "stdin" if item == "-" else item
                found = entries_from_text(read_source(item, used_stdin), source)
                if not found:
                    raise InputError(f"{source} has no hand: it is empty, or holds only comments")
                entries.extend(found)
        deal = build_deal(entries, rules, surrender, waive, fantasyland)
        check_pair_stakes({pair: "--pair-stake" for pair in pair_stakes}, deal.owners())
        if banker is not None:
            banker = named_player(banker, [seat.name for seat in deal.seats], "--banker")
            marked = [seat.name for seat in deal.seats if seat.banker and seat.name != banker]
            if marked:
                raise InputError(f"--banker names {banker}, but the deal marks {marked[0]} as the banker: give one")
        standing = None if buy_in is None else Standing(stacks=dict.fromkeys(deal.owners(), buy_in))
        result = settle(deal, rules, 1 if stake is None else stake, pair_stakes, (), banker, standing)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    for warning in result.warnings:
        warn_later(warning)
    from cpscore import formatting

    if fmt == "json":
        text = formatting.render_json(formatting.versioned(formatting.settlement_data(result)))
    elif fmt == "csv":
        text = formatting.render_csv(result)
    else:
        text = formatting.render_table(
            result,
            style,
            colour=use_colour(fmt),
            # A cap or a stack can cut what is paid: the money is then not the units.
            show_money=stake is not None or bool(pair_stakes) or rules.money.cuts,
            pair_stakes_given=bool(pair_stakes),
        )
        if explain:
            from cpscore.deal import named_player
            from cpscore.explain import explain as reasons

            only = None
            if explain != "*":  # one pair: both must play
                try:
                    only = frozenset(named_player(name, result_owners(result), "--explain") for name in explain)
                except CpscoreError as error:
                    raise InputError(str(error)) from None
            text += "\nWhy, pair by pair:\n\n" + reasons(result, only)
    click.echo(text, nl=False)


def result_owners(result) -> list[str]:
    return [owner.name for owner in result.owners]


command = score
