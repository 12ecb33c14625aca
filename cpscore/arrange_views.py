"""Views of an arrangement: the settings of 13 cards with their figures, as
text or JSON.  A view only: the numbers come from :mod:`cpscore.arrange`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cpscore.arrange import Arrangement, Setting
from cpscore.cards import ROW_NAMES
from cpscore.formatting import cards_text
from cpscore.hands import describe, evaluate_row
from cpscore.naturals import REGISTRY
from cpscore.rules import RuleSet

if TYPE_CHECKING:
    from cpscore.amounts import Amount


def _percent(chance: float) -> str:
    return f"{round(chance * 100):>3}%"


def _estimate(value: float) -> str:
    return f"{value:+.2f}"


def natural_name(natural: str) -> str:
    """A natural's id as a sentence names it: ``the dragon``, ``six pairs``."""
    name = REGISTRY[natural].label
    return f"the {name}" if natural.endswith("dragon") else name


def _units(amount: Amount) -> str:
    from cpscore.amounts import text

    written = text(amount)
    return f"{written} unit{'' if written == '1' else 's'}"


def recommendation_lines(arrangement: Arrangement, colour: bool = False) -> list[str]:
    """The natural to declare and why, first of all (empty when the best
    setting is worth more); a natural of rows names the setting that makes it."""
    natural, units = arrangement.recommend, arrangement.natural_units
    if natural is None or units is None:
        return []
    best = arrangement.settings[0].worth
    lines = [
        f"Declare {natural_name(natural)}: {_units(units)} from each opponent,"
        f" more than the best setting ({_estimate(best)})."
    ]
    hand = arrangement.natural_hand
    if hand is not None:
        lines.append(
            f"Its rows: {cards_text(hand.front, colour)} / {cards_text(hand.middle, colour)}"
            f" / {cards_text(hand.back, colour)} (set so, or left unset, the hand claims it)."
        )
    return lines


def _worth_line(setting: Setting, fantasyland: float | None) -> str:
    simulated = f", simulated {_estimate(setting.simulated)}" if setting.simulated is not None else ""
    line = f"   expected {_estimate(setting.expected)} units{simulated}"
    if fantasyland is not None:
        line += (
            f", and {_estimate(setting.fantasyland)} for staying in Fantasyland"
            if setting.fantasyland
            else "; leaves Fantasyland"
        )
    return line


def render_arrangement(arrangement: Arrangement, rules: RuleSet, colour: bool = False) -> str:
    """The natural to declare when it is worth more than any setting, then
    each setting best first with its expected units and the figures: each
    row's chances against the baseline opponent, the bonus, the royalties,
    and for a Fantasyland hand what staying adds and the cards left out."""
    lines = recommendation_lines(arrangement, colour)
    lines.append(f"Cards: {cards_text(arrangement.cards, colour)}  (rules {rules.id})")
    if arrangement.fantasyland is not None:
        count = len(arrangement.cards)
        kept = f"{count} cards, 13 kept" if count > 13 else "13 cards"
        worth = f"{arrangement.fantasyland:.2f}".rstrip("0").rstrip(".")
        lines.append(f"Fantasyland: {kept}; staying in counts {worth} units")
    if len(arrangement.cards) == 13:
        if arrangement.naturals:
            made = ", ".join(REGISTRY[name].label for name in arrangement.naturals)
            lines.append(f"Naturals: {made}; left unset, the hand claims the first")
        else:
            lines.append("Naturals: none")
    for number_, setting in enumerate(arrangement.settings, start=1):
        lines += [
            "",
            f"{number_}. {cards_text(setting.hand.front, colour)} / {cards_text(setting.hand.middle, colour)}"
            f" / {cards_text(setting.hand.back, colour)}",
            _worth_line(setting, arrangement.fantasyland),
        ]
        for name, cards, chances in zip(ROW_NAMES, setting.hand.rows, setting.rows):
            value = evaluate_row(cards)
            lines.append(
                f"   {name:6} {describe(value):27} wins {_percent(chances.win)}  ties {_percent(chances.tie)}"
                f"  loses {_percent(chances.lose)}"
            )
        extras = f"bonus {_estimate(setting.bonus)}"
        if rules.royalties.paid:
            extras += f", royalties {_estimate(setting.royalties)}"
        lines.append(f"   {extras}")
        if setting.discards:
            lines.append(f"   Discard: {cards_text(setting.discards, colour)}")
    return "\n".join(lines) + "\n"


def _rounded(value: float) -> object:
    """An estimate for JSON: a decimal with 3 places, written as a number."""
    from decimal import Decimal

    return Decimal(f"{value:.3f}")


def arrangement_data(arrangement: Arrangement) -> dict[str, object]:
    """``{cards, naturals, recommend, settings: [{hand, expected, ...}]}`` for
    JSON.  ``recommend`` is null, or ``{natural, units, hand}``: the natural
    to declare, its units from each opponent, and for a natural of rows the
    setting that makes it (else null).
    A Fantasyland hand adds ``fantasyland_value``, and to each setting
    ``stays`` and ``fantasyland`` (what staying adds) and, with more than 13
    cards, ``discards``."""
    weighed = arrangement.fantasyland is not None
    settings = []
    for setting in arrangement.settings:
        item: dict[str, object] = {"hand": str(setting.hand), "expected": _rounded(setting.expected)}
        if setting.simulated is not None:
            item["simulated"] = _rounded(setting.simulated)
        item["rows"] = {
            name: {"win": _rounded(c.win), "tie": _rounded(c.tie), "lose": _rounded(c.lose)}
            for name, c in zip(ROW_NAMES, setting.rows)
        }
        item["bonus"] = _rounded(setting.bonus)
        item["royalties"] = _rounded(setting.royalties)
        if weighed:
            item["stays"] = bool(setting.fantasyland)
            item["fantasyland"] = _rounded(setting.fantasyland)
        if len(arrangement.cards) > 13:
            item["discards"] = [str(card) for card in setting.discards]
        settings.append(item)
    recommend: dict[str, object] | None = None
    if arrangement.recommend is not None:
        hand = arrangement.natural_hand
        recommend = {
            "natural": arrangement.recommend,
            "units": arrangement.natural_units,
            "hand": str(hand) if hand is not None else None,
        }
    data: dict[str, object] = {
        "cards": [str(card) for card in arrangement.cards],
        "naturals": list(arrangement.naturals),
        "recommend": recommend,
    }
    if arrangement.fantasyland is not None:
        data["fantasyland_value"] = _rounded(arrangement.fantasyland)
    data["settings"] = settings
    return data
