"""The ``cpscore`` command.  The only module that imports click.

Library errors (:class:`cpscore.errors.CpscoreError`) become click errors
here: ``BadParameter`` for one bad option value, :class:`InputError` for a
problem across the inputs; both exit with code 2 and print one ``Error:``
line on stderr.
"""

from __future__ import annotations

import gc
import os
import sys

import click

from cpscore import __version__


class InputError(click.ClickException):
    """The input cannot be scored as given (exit code 2, like a usage error)."""

    exit_code = 2


FORMATS = ("table", "json", "csv")


def _spade_bonus_option(function):
    return click.option(
        "--spade-bonus",
        is_flag=True,
        help="Double the royalty of the row holding 2s (the Finnish double-spade bonus).",
    )(function)


def _stake_options(stake_help: str, pair_help: str):
    """--stake and --pair-stake, with this command's help."""

    def apply(function):
        function = click.option(
            "--pair-stake",
            "pair_stakes",
            multiple=True,
            callback=_load_pair_stakes,
            metavar="A:B=AMOUNT",
            help=pair_help,
        )(function)
        return click.option("--stake", callback=_load_stake, metavar="AMOUNT", help=stake_help)(function)

    return apply


def _rules_option(function):
    function = _spade_bonus_option(function)
    return click.option(
        "--rules",
        "rules",
        default="2-4",
        show_default=True,
        metavar="NAME|FILE",
        callback=_load_rules,
        help="Rule set: a preset (2-4, 1-6, ofc, ofc-western, pineapple, taiwanese; see "
        "'cpscore rules') or a rule file (.toml).",
    )(function)


def _format_option(formats: tuple[str, ...]):
    return click.option(
        "--format", "fmt", type=click.Choice(formats), default="table", show_default=True, help="Output format."
    )


def _explain_option(function):
    return click.option(
        "--explain", is_flag=True, help="Explain every unit, pair by pair: rows, fouls, royalties, bonus, arithmetic."
    )(function)


def _check_explain(explain: bool, fmt: str) -> None:
    if explain and fmt != "table":
        raise click.BadParameter(
            "--explain goes with the table format; the JSON already carries the same facts", param_hint="'--explain'"
        )


def _style_option(function):
    return click.option(
        "--style",
        default="simple",
        show_default=True,
        metavar="STYLE",
        help="Table style, any tabulate format: simple, grid, github, rounded_outline, plain, ...",
    )(function)


def _load_rules(ctx: click.Context, param: click.Parameter, value: str):
    """A preset name (a bad one is a bad option value) or a rule file (whose
    errors name the file and the setting, on one line)."""
    from cpscore.errors import RulesError
    from cpscore.rules import get_rules, is_rule_file, load_rules_file

    try:
        if is_rule_file(value):
            return load_rules_file(value)
        return get_rules(value)
    except RulesError as error:
        if is_rule_file(value):
            raise InputError(str(error)) from None
        raise click.BadParameter(str(error), ctx, param) from None


def _apply_flags(rules, spade_bonus: bool):
    from cpscore.rules import with_spade_bonus

    return with_spade_bonus(rules) if spade_bonus else rules


def _player_option(name: str, help: str):
    return click.option(f"--{name}", multiple=True, metavar="NAME", help=help)


def _parse_amount(text: str, what: str):
    from cpscore.amounts import exact

    try:
        amount = exact(text)
    except ValueError:
        raise click.BadParameter(f"{what} {text!r} is not a number: write an amount such as 10 or 0.5") from None
    if amount < 0:
        raise click.BadParameter(f"{what} {text!r} is negative: a stake is an amount of money per unit, 0 or more")
    return amount


def _load_stake(ctx: click.Context, param: click.Parameter, value: str | None):
    if value is None:
        return None
    return _parse_amount(value, "stake")


def _load_pair_stakes(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]):
    stakes = {}
    for value in values:
        pair, equals, amount = value.partition("=")
        a, colon, b = pair.partition(":")
        a, b = a.strip(), b.strip()
        if not (equals and colon and a and b):
            raise click.BadParameter(f"{value!r} is not A:B=AMOUNT (for example Amy:Bob=100)")
        if a == b:
            raise click.BadParameter(f"{value!r} names {a!r} twice: a pair stake is between two players")
        key = frozenset((a, b))
        if key in stakes:
            raise click.BadParameter(f"the pair {a}:{b} is given twice ({b}:{a} is the same pair)")
        stakes[key] = _parse_amount(amount, f"stake for {a}:{b}")
    return stakes


def _colour(fmt: str) -> bool:
    """Colour only for a table on a terminal, and never when NO_COLOR is set."""
    return fmt == "table" and not os.environ.get("NO_COLOR") and sys.stdout.isatty()


def _check_style(style: str) -> None:
    from cpscore.formatting import table_styles

    styles = table_styles()
    if style not in styles:
        raise click.BadParameter(
            f"{style!r} is not a table style: choose one of {', '.join(styles)}", param_hint="'--style'"
        )


def _read_stdin() -> str:
    try:
        with click.open_file("-", encoding="utf-8") as stream:
            return stream.read()
    except UnicodeDecodeError:
        raise InputError("cannot read stdin: it is not UTF-8 text") from None


def _read_source(source: str, used_stdin: list[bool]) -> str:
    """The text of a deal file, or of stdin for ``-``."""
    if source == "-":
        if used_stdin:
            raise InputError("'-' (stdin) is given twice")
        used_stdin.append(True)
        return _read_stdin()
    return _read_file(source, "deal file", "a hand on the command line is NAME=HAND")


def _read_file(path: str, what: str, hint: str = "", missing_ok: bool = False) -> str:
    """A file's text (UTF-8, a BOM dropped); errors name the file and say why.
    With ``missing_ok``, a file that does not exist reads as ''."""
    try:
        with open(path, encoding="utf-8-sig") as file:
            return file.read()
    except FileNotFoundError:
        if missing_ok:
            return ""
        raise InputError(f"cannot read {what} {path!r}: no such file" + (f" ({hint})" if hint else "")) from None
    except UnicodeDecodeError:
        raise InputError(f"cannot read {what} {path!r}: it is not UTF-8 text") from None
    except OSError as error:
        raise InputError(f"cannot read {what} {path!r}: {error.strerror or error}") from None


# click's own --help and --version options look up a translation of their help
# text (gettext, which imports locale) every time a command runs: 2-3 ms of
# start-up.  These two do the same without it.
def _show_help(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(ctx.get_help(), color=ctx.color)
        ctx.exit()


def _help_option(function):
    return click.option(
        "-h",
        "--help",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_show_help,
        help="Show this message and exit.",
    )(function)


def _print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"cpscore, version {__version__}")
        ctx.exit()


class _Commands(click.Group):
    """A group whose other commands are defined on first use: every option
    click builds costs start-up time, and a run needs one command."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.factories: dict[str, object] = {}

    def lazy(self, factory):
        """Register ``make_NAME`` as the factory of command NAME."""
        self.factories[factory.__name__.removeprefix("make_")] = factory
        return factory

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.factories}, key=_COMMAND_ORDER.index)

    def invoke(self, ctx: click.Context):
        # A command's first moments import cpscore's modules and tables: many
        # long-lived objects, which the garbage collector would only walk over
        # (about a millisecond).  It is off until the command is done, or until
        # a long run starts (session turns it back on).
        gc.disable()
        try:
            return super().invoke(ctx)
        finally:
            gc.enable()

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in self.factories:
            self.add_command(self.factories[name]())
        return self.commands.get(name)


_COMMAND_ORDER = ["score", "check", "session", "add", "arrange", "rules"]


@click.group(cls=_Commands, add_help_option=False)
@_help_option
@click.option(
    "--version",
    "-V",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
def main() -> None:
    """Score Chinese poker and open-face Chinese poker deals: who owes whom,
    each against each, under the table's rule set."""


@main.command(add_help_option=False)
@_help_option
@click.argument("inputs", nargs=-1, metavar="[NAME=HAND | FILE | -]...")
@_rules_option
@_stake_options(
    "Money per unit for every pair (default 1).", "Money per unit for one pair, overriding --stake (repeatable)."
)
@_player_option("surrender", "This player surrenders (repeatable); no hand is needed.")
@_player_option("waive", "This player waives a natural and plays the rows (repeatable).")
@_player_option("fantasyland", "This player plays the deal in Fantasyland (repeatable).")
@_format_option(FORMATS)
@_style_option
@_explain_option
def score(inputs, rules, spade_bonus, stake, pair_stakes, surrender, waive, fantasyland, fmt, style, explain) -> None:
    """Settle one deal: every player against every other.

    Each input is a hand written NAME=HAND (an argument with '='), a deal file
    with one 'NAME: HAND' per line ('#' starts a comment), or '-' for a deal
    file on stdin.  A hand is front / middle / back, or 13 cards with no rows
    for a natural, for example

        cpscore score "Amy=Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d" \\
                      "Bob=Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h"

    After a hand, '; waive' and '; fantasyland' mark the player; 'NAME:
    surrender' surrenders.  Amy[1] and Amy[2] are two hands of one player
    (criss-cross).
    """
    from cpscore.deal import build_deal, entries_from_text, entry_from_argument
    from cpscore.errors import CpscoreError
    from cpscore.scoring import settle

    rules = _apply_flags(rules, spade_bonus)
    _check_explain(explain, fmt)
    if fmt == "table":
        _check_style(style)
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
                entries.extend(entries_from_text(_read_source(item, used_stdin), source))
        deal = build_deal(entries, rules, surrender, waive, fantasyland)
        owners = deal.owners()
        for pair in pair_stakes:
            unknown = sorted(name for name in pair if name not in owners)
            if unknown:
                raise InputError(
                    f"--pair-stake names {unknown[0]!r}, who is not in the deal (players: {', '.join(owners)})"
                )
        result = settle(deal, rules, 1 if stake is None else stake, pair_stakes)
    except CpscoreError as error:
        raise InputError(str(error)) from None
    from cpscore import formatting

    if fmt == "json":
        text = formatting.render_json(formatting.settlement_data(result))
    elif fmt == "csv":
        text = formatting.render_csv(result)
    else:
        text = formatting.render_table(
            result,
            style,
            colour=_colour(fmt),
            show_money=stake is not None or bool(pair_stakes),
            pair_stakes_given=bool(pair_stakes),
        )
        if explain:
            from cpscore.explain import explain as reasons

            text += "\nWhy, pair by pair:\n\n" + reasons(result)
    click.echo(text, nl=False)


@main.lazy
def make_check() -> click.Command:
    @click.command(name="check", add_help_option=False)
    @_help_option
    @click.argument("hand", nargs=-1, required=True, metavar="HAND")
    @_rules_option
    @click.option("--fantasyland", "playing", is_flag=True, help="The hand was played in Fantasyland: does it stay?")
    @_format_option(("table", "json"))
    @_style_option
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

        rules = _apply_flags(rules, spade_bonus)
        text = " ".join(hand)
        if text.strip() == "-":
            text = _read_stdin()
        if fmt == "table":
            _check_style(style)
        try:
            report = check_hand(parse_hand_or_cards(text), rules, playing)
        except CpscoreError as error:
            raise InputError(str(error)) from None
        from cpscore import formatting

        if fmt == "json":
            click.echo(formatting.render_json(formatting.check_data(report, rules)), nl=False)
        else:
            click.echo(formatting.render_check(report, rules, style, colour=_colour(fmt)), nl=False)

    return check


@main.lazy
def make_rules() -> click.Command:
    @click.group(name="rules", invoke_without_command=True, add_help_option=False)
    @_help_option
    @click.pass_context
    def rules_command(ctx: click.Context) -> None:
        """List the preset rule sets, or show every setting of one (rules show)."""
        if ctx.invoked_subcommand is None:
            from cpscore.rules import get_rules, preset_names

            for name in preset_names():
                click.echo(f"{name:12} {get_rules(name).summary}")

    @rules_command.command(name="show", add_help_option=False)
    @_help_option
    @click.argument("name", metavar="NAME|FILE")
    def rules_show(name: str) -> None:
        """Print every setting of a preset or a rule file, as a rule file (TOML)
        you can copy and edit:

            cpscore rules show taiwanese > house.toml
        """
        from cpscore.errors import RulesError
        from cpscore.rules import is_rule_file, resolve_rules, to_toml

        try:
            rules = resolve_rules(name)
        except RulesError as error:
            if is_rule_file(name):
                raise InputError(str(error)) from None
            raise click.BadParameter(str(error), param_hint="'NAME|FILE'") from None
        click.echo(to_toml(rules), nl=False)

    return rules_command


# Sessions ---------------------------------------------------------------------

SESSION_FORMATS = ("table", "json", "jsonl", "csv")


def _session_settings(source_path: str | None, header, rules_option, stake, pair_stakes, spade_bonus):
    """Rules and stakes: the command line wins over the session's header."""
    import os.path

    from cpscore.errors import RulesError
    from cpscore.rules import get_rules, is_rule_file, load_rules_file

    rules = rules_option
    if rules is None and header.rules:
        name = header.rules
        if is_rule_file(name) and source_path and not os.path.isabs(name):
            name = os.path.join(os.path.dirname(source_path), name)
        try:
            rules = load_rules_file(name) if is_rule_file(name) else get_rules(name)
        except RulesError as error:
            raise InputError(f"@rules in the session header: {error}") from None
    rules = _apply_flags(rules or get_rules("2-4"), spade_bonus)
    if stake is None and header.stake is not None:
        try:
            stake = _parse_amount(header.stake, "@stake")
        except click.BadParameter as error:
            raise InputError(f"session header: {error.message}") from None
    if not pair_stakes and header.pair_stakes:
        try:
            pair_stakes = _load_pair_stakes(None, None, header.pair_stakes)  # type: ignore[arg-type]
        except click.BadParameter as error:
            raise InputError(f"session header @pair-stake: {error.message}") from None
    return rules, stake, pair_stakes


def _load_rules_or_none(ctx: click.Context, param: click.Parameter, value: str | None):
    return None if value is None else _load_rules(ctx, param, value)


def _progress_lines(file, size: int):
    """The file's lines, with a progress bar on stderr when it is a terminal."""
    if not size or not sys.stderr.isatty():
        yield from file
        return
    with click.progressbar(length=size, label="checking", file=sys.stderr) as bar:
        for line in file:
            bar.update(len(line))
            yield line


@main.lazy
def make_session() -> click.Command:
    @click.command(name="session", add_help_option=False)
    @_help_option
    @click.argument("source", metavar="FILE|-")
    @click.option(
        "--rules",
        "rules",
        default=None,
        metavar="NAME|FILE",
        callback=_load_rules_or_none,
        help="Rule set (default: the session's @rules header, else 2-4).",
    )
    @_spade_bonus_option
    @_stake_options(
        "Money per unit (default: @stake, else 1).",
        "Money per unit for one pair (repeatable; replaces the @pair-stake headers).",
    )
    @click.option(
        "--race", type=click.IntRange(min=1), metavar="POINTS", help="Also play the race to POINTS (e.g. 11)."
    )
    @click.option("--totals", "totals_only", is_flag=True, help="Print only the totals and the transfers.")
    @click.option("--skip-invalid", is_flag=True, help="Skip invalid deals (and say which) instead of stopping.")
    @_format_option(SESSION_FORMATS)
    @_style_option
    @_explain_option
    def session(
        source, rules, spade_bonus, stake, pair_stakes, race, totals_only, skip_invalid, fmt, style, explain
    ) -> None:
        """Settle a whole session: every deal, running totals, and who pays whom.

        A session file is deals separated by blank lines, each written as a deal
        file ('NAME: HAND' lines).  Header lines at the top set the rules and
        stakes: '@rules ofc', '@stake 10', '@pair-stake Amy:Bob=100'.  The whole
        file is checked before anything is printed; '-' reads stdin, where the
        first invalid deal stops the run.
        """
        import os

        from cpscore.errors import CpscoreError
        from cpscore.session import Ledger, read_session

        gc.enable()  # a session may be long: normal collection from here on

        _check_explain(explain, fmt)
        if fmt == "table":
            _check_style(style)
        is_stdin = source == "-"
        name = "stdin" if is_stdin else source

        def open_lines():
            if is_stdin:
                return click.open_file("-", encoding="utf-8")
            try:
                return open(source, encoding="utf-8-sig")
            except OSError as error:
                raise InputError(f"cannot read session file {source!r}: {error.strerror or error}") from None

        def start(lines):
            try:
                header, deals = read_session(lines, name)
                settings = _session_settings(
                    None if is_stdin else source, header, rules, stake, pair_stakes, spade_bonus
                )
            except CpscoreError as error:
                raise InputError(str(error)) from None
            chosen_rules, chosen_stake, chosen_pairs = settings
            ledger = Ledger(chosen_rules, 1 if chosen_stake is None else chosen_stake, chosen_pairs, race)
            return ledger, deals, chosen_stake is not None or bool(chosen_pairs)

        def each_deal(ledger, deals, report_skips, quick=False):
            """Settled deals; invalid ones are collected (file) or stop the run (stdin).
            ``quick``: only the totals are wanted (nothing is yielded)."""
            problems = []
            iterator = iter(deals)
            while True:
                try:
                    text = next(iterator)
                except StopIteration:
                    break
                except CpscoreError as error:  # the file's structure: nothing after it can be read
                    problems.append(str(error))
                    break
                try:
                    if quick:
                        ledger.add_totals(text, name)
                    else:
                        yield ledger.add(text, name)
                except CpscoreError as error:
                    if is_stdin and not skip_invalid:
                        raise InputError(str(error)) from None
                    problems.append(str(error))
                    if skip_invalid and report_skips:
                        click.echo(f"skipped: {error}", err=True)
            if problems and not skip_invalid:
                raise _InvalidDeals(problems)

        try:
            if not is_stdin:  # first pass: check every deal, keeping only the running totals
                with open_lines() as file:
                    size = os.fstat(file.fileno()).st_size
                    ledger, deals, money = start(_progress_lines(file, size))
                    for _ in each_deal(ledger, deals, report_skips=True, quick=True):
                        pass
                if totals_only:
                    _print_totals(ledger, fmt, style, money)
                    return
            with open_lines() as file:
                ledger, deals, money = start(file)
                results = each_deal(ledger, deals, report_skips=is_stdin, quick=totals_only)
                _print_session(ledger, results, fmt, style, money, totals_only, name, explain)
        except _InvalidDeals as invalid:
            for problem in invalid.problems:
                click.echo(f"Error: {problem}", err=True)
            raise click.exceptions.Exit(2) from None

    return session


class _InvalidDeals(Exception):
    def __init__(self, problems: list[str]) -> None:
        super().__init__(problems)
        self.problems = problems


def _print_totals(ledger, fmt: str, style: str, money: bool) -> None:
    from cpscore import formatting, session_views

    if fmt == "table":
        click.echo(session_views.render_totals(ledger, style, money), nl=False)
    elif fmt in ("json", "jsonl"):
        data = {"rules": ledger.rules.id, "stake": ledger.stake, **session_views.totals_data(ledger)}
        text = formatting.render_json(data) if fmt == "json" else session_views.compact_json(data) + "\n"
        click.echo(text, nl=False)
    else:
        click.echo(session_views.totals_csv(ledger), nl=False)


def _print_session(
    ledger, results, fmt: str, style: str, money: bool, totals_only: bool, name: str, explain: bool = False
) -> None:
    """Stream the deals in the chosen format, then the totals."""
    from cpscore import session_views

    if totals_only:
        for _ in results:
            pass
        _print_totals(ledger, fmt, style, money)
        return
    if fmt == "jsonl":
        chunks = session_views.session_lines(ledger, results)
    elif fmt == "json":
        chunks = session_views.session_json(ledger, results)
    elif fmt == "csv":
        chunks = session_views.session_csv(results)
    else:
        chunks = session_views.session_table(ledger, results, name, style, money, explain)
    for chunk in chunks:
        click.echo(chunk, nl=False)


@main.lazy
def make_add() -> click.Command:
    @click.command(name="add", add_help_option=False)
    @_help_option
    @click.argument("target", metavar="FILE")
    @click.argument("hands", nargs=-1, metavar="[NAME=HAND]...")
    @click.option(
        "--rules",
        "rules_text",
        default=None,
        metavar="NAME|FILE",
        help="Rules for a new session file (written as its @rules header).",
    )
    @_player_option("surrender", "This player surrenders (repeatable).")
    @_player_option("waive", "This player waives a natural and plays the rows (repeatable).")
    @_player_option("new-player", "Allow a player the session has not seen yet (repeatable).")
    def add(target, hands, rules_text, surrender, waive, new_player) -> None:
        """Check a deal and append it to a session file.

        The deal is NAME=HAND arguments, or deal-file lines on stdin.  It is
        checked against the file's rules and its players (a new name is refused
        unless --new-player names it); on any error the file is left untouched.
        The append is atomic: the file is rewritten to a temporary file beside it
        and renamed over it, so an interrupted write never loses a deal.

            cpscore add night.txt "Amy=Ks Kd 4c / ..." "Bob=..." "Cy=..."
        """
        from cpscore.amounts import signed
        from cpscore.deal import build_deal, entries_from_text, entry_from_argument
        from cpscore.errors import CpscoreError
        from cpscore.scoring import settle
        from cpscore.session import append_deal, deal_lines, read_session, refuse_fantasyland_markers

        try:
            existing = _read_file(target, "session file", missing_ok=True)
            header, deals = read_session(existing.splitlines(), target)
            known: dict[str, None] = {}
            count = 0
            for deal in deals:
                count += 1
                known.update(dict.fromkeys(entry.name for entry in deal.entries))
            if rules_text is not None and existing.strip():
                raise InputError(f"{target} already exists: --rules only starts a new session file (its @rules header)")
            chosen = _load_rules(click.get_current_context(), None, rules_text) if rules_text else None
            session_rules = _session_settings(target, header, chosen, None, (), False)[0]
            if hands:
                entries = [entry_from_argument(hand) for hand in hands]
            else:
                entries = entries_from_text(_read_stdin(), "stdin")
            refuse_fantasyland_markers(entries)
            strangers = [
                entry.name for entry in entries if known and entry.name not in known and entry.name not in new_player
            ]
            strangers += [name for name in surrender if known and name not in known and name not in new_player]
            if strangers:
                raise InputError(
                    f"{strangers[0]!r} has not played in {target} (players: {', '.join(known)}); "
                    f"check the name, or pass --new-player {strangers[0]!r}"
                )
            deal = build_deal(entries, session_rules, surrender, waive)
            result = settle(deal, session_rules)
        except CpscoreError as error:
            raise InputError(str(error)) from None
        header_lines = [f"@rules {rules_text}"] if rules_text else []
        try:
            line = append_deal(target, existing, deal_lines(deal), header_lines)
        except OSError as error:
            raise click.ClickException(
                f"could not write {target}: {error.strerror or error}; the file is unchanged"
            ) from None
        summary = ", ".join(f"{owner.name} {signed(owner.units)}" for owner in result.owners)
        click.echo(f"added deal {count + 1} (line {line}) to {target}: {summary}")

    return add


@main.lazy
def make_arrange() -> click.Command:
    @click.command(name="arrange", add_help_option=False)
    @_help_option
    @click.argument("cards", nargs=-1, metavar="CARDS | FILE | -")
    @_rules_option
    @click.option("--top", type=click.IntRange(min=1), default=3, show_default=True, help="How many settings to show.")
    @click.option(
        "--simulate",
        "rounds",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="Rank the 20 best by the estimate again by N simulated opponents each.",
    )
    @_format_option(("table", "json"))
    def arrange(cards, rules, spade_bonus, top, rounds, fmt) -> None:
        """Set 13 cards: the best legal settings under the rules, best first.

        CARDS are the 13 cards (quoted or as separate words), or a file with
        one hand of 13 cards per line, or '-' for such lines on stdin.  Each
        setting shows its expected units against one opponent who holds 13
        of the other cards and sets them the plain way (strongest back, then
        strongest middle), and the figures it is built from:

            cpscore arrange Ah Ad Ac 7s 7d Ks Kd 4c 9h 9c 5d 5s 2c
        """
        from cpscore.arrange import arrangement
        from cpscore.cards import parse_cards
        from cpscore.errors import CpscoreError

        rules = _apply_flags(rules, spade_bonus)
        if not cards:
            raise InputError("no cards: give 13 cards, a file with one hand a line, or - for stdin")
        text = " ".join(cards)
        hands: list[tuple[str, str]] = []
        if len(cards) == 1 and (cards[0] == "-" or os.path.isfile(cards[0])):  # else: the cards themselves
            source = "stdin" if cards[0] == "-" else cards[0]
            content = _read_source(cards[0], [])
            for number, line in enumerate(content.splitlines(), start=1):
                line = line.split("#", 1)[0].strip()
                if line:
                    hands.append((f"{source}, line {number}: ", line))
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
                if len(parsed) != 13 or len(set(parsed)) != 13:
                    problem = "cards appear twice" if len(set(parsed)) != len(parsed) else f"{len(parsed)} cards"
                    raise InputError(f"{where}{problem}: the arranger takes 13 different cards, with no rows")
                results.append(arrangement(parsed, rules, top, rounds or 0))
        except CpscoreError as error:
            raise InputError(str(error)) from None
        from cpscore import arrange_views, formatting

        if fmt == "json":
            click.echo(formatting.render_json([arrange_views.arrangement_data(result) for result in results]), nl=False)
        else:
            texts = [arrange_views.render_arrangement(result, rules, colour=_colour(fmt)) for result in results]
            click.echo("\n".join(texts), nl=False)

    return arrange
