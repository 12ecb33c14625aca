"""Views of an arrangement: the settings of 13 cards with their figures, as
text or JSON.  A view only: the numbers come from :mod:`cpscore.arrange`.
"""

from __future__ import annotations

from cpscore.arrange import Arrangement
from cpscore.cards import ROW_NAMES
from cpscore.formatting import cards_text
from cpscore.hands import describe, evaluate_row
from cpscore.rules import RuleSet


def _percent(chance: float) -> str:
    return f"{round(chance * 100):>3}%"


def _estimate(value: float) -> str:
    return f"{value:+.2f}"


def render_arrangement(arrangement: Arrangement, rules: RuleSet, colour: bool = False) -> str:
    """Each setting best first with its expected units and the figures: each
    row's chances against the baseline opponent, the bonus, the royalties."""
    lines = [f"Cards: {cards_text(arrangement.cards, colour)}  (rules {rules.id})"]
    if arrangement.naturals:
        made = ", ".join(name.replace("-", " ") for name in arrangement.naturals)
        lines.append(f"Naturals: {made}; left unset, the hand claims the first")
    else:
        lines.append("Naturals: none")
    for number_, setting in enumerate(arrangement.settings, start=1):
        simulated = f", simulated {_estimate(setting.simulated)}" if setting.simulated is not None else ""
        lines += [
            "",
            f"{number_}. {cards_text(setting.hand.front, colour)} / {cards_text(setting.hand.middle, colour)}"
            f" / {cards_text(setting.hand.back, colour)}",
        ]
        lines.append(f"   expected {_estimate(setting.expected)} units{simulated}")
        for name, cards, chances in zip(ROW_NAMES, setting.hand.rows, setting.rows):
            value = evaluate_row(cards)
            lines.append(
                f"   {name:6} {describe(value):27} wins {_percent(chances.win)}  ties {_percent(chances.tie)}"
                f"  loses {_percent(chances.lose)}"
            )
        extras = f"bonus {_estimate(setting.bonus)}"
        if rules.royalties.mode != "none":
            extras += f", royalties {_estimate(setting.royalties)}"
        lines.append(f"   {extras}")
    return "\n".join(lines) + "\n"


def _rounded(value: float) -> object:
    """An estimate for JSON: a decimal with 3 places, written as a number."""
    from decimal import Decimal

    return Decimal(f"{value:.3f}")


def arrangement_data(arrangement: Arrangement) -> dict[str, object]:
    """``{cards, naturals, settings: [{hand, expected, ...}]}`` for JSON."""
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
        settings.append(item)
    return {
        "cards": [str(card) for card in arrangement.cards],
        "naturals": list(arrangement.naturals),
        "settings": settings,
    }
