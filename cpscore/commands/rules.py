"""``cpscore rules``: the preset rule sets, and every setting of one (``rules show``)."""

from __future__ import annotations

import click

from cpscore.commands._options import InputError, completer, help_option

#: Where ``cpscore --help`` lists the command (see :mod:`cpscore.commands`).
ORDER = 60


@click.group(name="rules", invoke_without_command=True, add_help_option=False)
@help_option
@click.pass_context
def rules_command(ctx: click.Context) -> None:
    """List the preset rule sets, or show every setting of one (rules show)."""
    if ctx.invoked_subcommand is None:
        from cpscore.rules import get_rules, preset_names

        names = preset_names()
        width = max(map(len, names))
        for name in names:
            click.echo(f"{name:{width}} {get_rules(name).summary}")


@rules_command.command(name="show", add_help_option=False)
@help_option
@click.argument("name", metavar="NAME|FILE", shell_complete=completer("rules"))
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


command = rules_command
