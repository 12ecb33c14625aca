"""A night: one or more session files settled in order, and the next deal.

:class:`Night` is the one place that knows what "the next deal of a night"
is: the rules (the command line's, else the first file's ``@rules``), the
stake and the pair stakes (the command line's, else the header's, changed by
the lines between deals), the seats, the bank, the stacks and the cap so
far, Fantasyland and the race.  ``cpscore session`` and ``stats`` read a
night through it; ``add``, ``replace``, ``play`` and the page settle the deal
they write by reading the file as it will be with it, through it, so that
what they print for a deal is what ``session`` prints for it.

A deal has an identity, :func:`cpscore.session.deal_digest`: a short digest
of its own lines.  An edit that names a deal by its number checks it
(``--expect``), and a night read with ``repeats=True`` knows whether a deal's
hands are the same as an earlier deal's (:attr:`Night.repeat_of`).

Nothing here prints, prompts or exits: errors are
:class:`~cpscore.errors.CpscoreError` (an :class:`OptionError` when a
command-line option is at fault), warnings are kept in :attr:`Night.warnings`
for the caller to show.

>>> text = "@stake 10\\n\\nA: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\\nB: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\\n"
>>> night = Night()
>>> results = night.settle_text(text, "night.txt")
>>> [(result.number, result.digest, result.running["A"]) for result in results]
[(1, '315febeb', (2, 20))]
>>> night.money, night.deals
(True, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

from cpscore.amounts import Amount
from cpscore.amounts import text as text_of
from cpscore.deal import Deal, Entry, Names, build_deal, check_pair_players, look_alike, owner
from cpscore.errors import CpscoreError, DealError, shown
from cpscore.rules import RuleSet
from cpscore.scoring import Outcome, Settlement
from cpscore.session import (
    FIX,
    DealResult,
    DealText,
    Header,
    Ledger,
    appended,
    check_players,
    continued,
    deal_digest,
    deal_lines,
    header_rules,
    header_seats,
    night_date,
    pair_stake,
    parse_seats,
    read_session,
    refuse_fantasyland_markers,
    rewritten,
    seated_entries,
    seats_text,
    session_relative,
    stake_amount,
    stored_rules_path,
)

__all__ = [
    "Append",
    "Changed",
    "Night",
    "OptionError",
    "Repeat",
    "terms",
    "buy_in_amount",
    "check_buy_in",
    "header_pair_stakes",
    "settle_deal",
    "spade_bonus_rules",
    "same_hands_key",
]


class OptionError(CpscoreError):
    """A command-line option that cannot be used as given: ``option`` names it
    (``--spade-bonus``), ``detail`` says why, without the option's name."""

    def __init__(self, option: str, detail: str) -> None:
        super().__init__(f"{option} {detail}")
        self.option = option
        self.detail = detail


def terms(result: DealResult) -> str:
    """The terms a deal is settled at, as 16 hex digits: its number and
    identity, the stake and seat changes it starts with, what each player wins
    and pays (cuts, the bank, stacks), and the totals after it.  A deal shown
    and then saved is saved only at the terms it was shown at."""
    import hashlib

    settlement = result.settlement
    facts = (
        result.number,
        result.digest,
        result.changes,
        sorted(result.running.items()),
        settlement.stake,
        settlement.owners,
        settlement.pairs,
        settlement.banker,
        settlement.standing,
    )
    return hashlib.blake2s(repr(facts).encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()


class Repeat(DealError):
    """A deal whose hands are an earlier deal's (``number``, ``digest``): it is
    in the file already, unless it really was dealt twice."""

    def __init__(self, number: int, digest: str, target: str, results: bool = False) -> None:
        super().__init__(
            f"deal {number} ({digest}) of {target} has the same results: it is the deal before this one; "
            "if the same results really came twice in a row, add it again with --again"
            if results
            else f"deal {number} ({digest}) of {target} has the same hands: this deal is in the file already; "
            "if it really was dealt twice, add it again with --again"
        )
        self.number = number
        self.digest = digest


class Changed(DealError):
    """The file changed between a deal's preview and its save (another deal,
    a stake, the seats, the bank): the deal would now be settled as
    ``result`` says, at other terms than were shown.  Nothing was written."""

    def __init__(self, result: DealResult, target: str) -> None:
        super().__init__(
            f"{target} changed since this deal was shown: it would now be deal {result.number}, "
            "settled as shown again; nothing was saved"
        )
        self.result = result


def buy_in_amount(text: str, what: str = "") -> Amount:
    """A buy-in as written (``@buy-in 100``, ``--buy-in 100``): an exact amount
    above 0; errors start with ``what`` (the header line), if any."""
    from cpscore.amounts import AmountError, parse_amount

    prefix = f"{what} " if what else ""
    try:
        amount = parse_amount(text)
    except AmountError as error:
        raise DealError(f"{prefix}{error}") from None
    if amount <= 0:
        raise DealError(f"{prefix}{shown(text)} is not above 0: a buy-in is the money each player brings to the table")
    return amount


def spade_bonus_rules(rules: RuleSet) -> RuleSet:
    """The rules with the spade bonus on (``--spade-bonus``): an option with no
    effect, under rules that pay no royalties, is an error."""
    from cpscore.rules import with_spade_bonus

    if rules.royalties.mode == "none":
        raise OptionError("--spade-bonus", f"has no effect: the {rules.id} rules pay no royalties to double")
    return with_spade_bonus(rules)


def check_buy_in(rules: RuleSet, buy_in: Amount | None, what: str = "--buy-in") -> None:
    """A buy-in has an effect only under table stakes (docs/rules.md 12)."""
    if buy_in is not None and not rules.money.stacks:
        raise DealError(
            f"{what} has no effect: the {rules.id} rules do not play table stakes (table_stakes in a rule file)"
        )


def header_pair_stakes(header: Header) -> tuple[dict[frozenset[str], Amount], dict[frozenset[str], str]]:
    """The ``@pair-stake`` header lines: the stakes, and where each pair was
    given; a pair given twice (``B:A`` is ``A:B``) is an error naming both lines."""
    stakes: dict[frozenset[str], Amount] = {}
    places: dict[frozenset[str], str] = {}
    for text, where in zip(header.pair_stakes, header.pair_where):
        pair, amount = pair_stake(text, where)
        if pair in stakes:
            a, _, b = text.partition("=")[0].partition(":")  # the pair as this line writes it
            raise DealError(
                f"{where}: @pair-stake the pair {a.strip()[:40]}:{b.strip()[:40]} is given twice "
                f"({places[pair]}; B:A is the same pair)"
            )
        stakes[pair] = amount
        places[pair] = f"{where}: @pair-stake"
    return stakes, places


def same_hands_key(deal: Deal) -> tuple:
    """What makes two deals the same deal dealt twice: each player's hand (the
    cards of each row, in any order within the row, or the 13 cards of an
    unset hand) and markers, whatever the order of the lines; for a results
    deal, the results and who dealt."""
    return tuple(
        sorted(
            (
                seat.name,
                tuple(tuple(sorted(card.code for card in row)) for row in seat.hand.rows)
                if seat.hand is not None
                else (tuple(sorted(seat.codes)),),
                seat.surrendered,
                seat.waive,
                seat.banker,
                seat.result,
                seat.dealer and seat.result is not None,  # results recur: who dealt tells two deals apart
            )
            for seat in deal.seats
        )
    )


class Night:
    """A night being read, deal by deal, and what its next deal is.

    ``rules``, ``stake``, ``pair_stakes`` and ``buy_in`` are the command
    line's (None: the first file's header says, else the 2-4 rules and a
    stake of 1); a stake given there replaces the files' stake lines, which
    are then only noted (:attr:`warnings`).  ``spade_bonus`` doubles the
    royalties of spades; ``race`` plays the race to that many points.  With
    ``repeats``, the night remembers each deal's hands, so that
    :attr:`repeat_of` tells when a deal repeats an earlier one.

    Open each file of the night with :meth:`read` (in order), hand each deal
    it yields to :meth:`take` or :meth:`add`, and call :meth:`finish` at the
    end.  :meth:`settle_text` does all of that for one file's text."""

    def __init__(
        self,
        rules: RuleSet | None = None,
        *,
        stake: Amount | None = None,
        pair_stakes: Mapping[frozenset[str], Amount] | None = None,
        buy_in: Amount | None = None,
        race: int | None = None,
        spade_bonus: bool = False,
        repeats: bool = False,
    ) -> None:
        self.given_rules = rules
        self.given_stake = stake
        self.given_pairs = dict(pair_stakes or {})
        self.given_buy_in = buy_in
        self.race = race
        self.spade_bonus = spade_bonus
        self._ledger: Ledger | None = None
        self.header: Header | None = None  # the first file's header
        self.first = ""  # the first file's name
        self._money = False  # a stake, pair stakes, a cap or table stakes: money is not units
        # Where each pair stake was given (the command line, a header line), for the check at the end.
        self.places: dict[frozenset[str], str] = {}
        self._files: dict[tuple[int, int], str] = {}  # (device, inode) -> name: no file read twice
        self.warnings: list[str] = []  # for the caller to show, in order; it clears the list
        self._seen: dict[tuple, tuple[int, str]] | None = {} if repeats else None
        #: After :meth:`take`: the earlier deal (number, digest) with the same hands (``repeats``), else None.
        self.repeat_of: tuple[int, str] | None = None
        self._closing: list[Header] = []  # files read whose payments after the last deal are still to count

    # Reading the files of the night --------------------------------------------------

    def read(
        self, lines: Iterable[str], name: str, path: str | None = None, identity: tuple[int, int] | None = None
    ) -> Iterator[DealText]:
        """Open the next file of the night: its header is read at once (the
        first file's starts the night; a later file's rules and buy-in must be
        the night's, and its stakes and seats change them from its first
        deal); returns its deals, read as they are consumed.  ``path``: where
        a ``@rules`` file path is relative to (None: the working folder);
        ``identity``: the file's (device, inode), to refuse a file given twice."""
        if identity is not None:
            earlier = self._files.get(identity)
            if earlier is not None:
                what = "is given twice" if name == earlier else f"is {earlier} again (another name, or a link)"
                raise DealError(f"{name} {what}: its deals would count twice")
            self._files[identity] = name
        self.close_files()
        header, deals = read_session(lines, name)
        date = night_date(header)
        if self._ledger is None:
            self._start(header, path)
            self.header, self.first = header, name
        else:
            self._check_more(header, path)
            deals = continued(header, deals, name)
        if date is not None:
            self.ledger.dates.append((name, date))
        if header.payments:
            self.ledger.pay_lines(("paid", text, where) for text, where in header.payments)
        self._closing.append(header)
        return deals

    @property
    def dates(self) -> list[tuple[str, str]]:
        """Each file's date (``@date``), as (file, date), for the files that give one."""
        return [] if self._ledger is None else self._ledger.dates

    def close_files(self) -> None:
        """Count the payments written after the last deal of each file read
        through (``@paid`` at the end): :meth:`read`, :meth:`finish` and
        :meth:`settle_text` call it once a file's deals are all read."""
        for header in self._closing:
            if header.closing:
                self.ledger.pay_lines(header.closing)
                header.closing = []
        self._closing = []

    def _rules_of(self, header: Header, path: str | None) -> RuleSet | None:
        own = header_rules(header, path)
        return spade_bonus_rules(own) if own is not None and self.spade_bonus else own

    def _start(self, header: Header, path: str | None) -> None:
        from cpscore.rules import get_rules

        rules = self.given_rules or header_rules(header, path) or get_rules("2-4")
        if self.spade_bonus:
            rules = spade_bonus_rules(rules)
        where = header.where
        stake = self.given_stake
        if stake is None and header.stake is not None:
            stake = stake_amount(header.stake, f"{where['stake']}: @stake")
        buy_in = self.given_buy_in
        if buy_in is None and header.buy_in is not None:
            buy_in = buy_in_amount(header.buy_in, f"{where['buy-in']}: @buy-in")
            check_buy_in(rules, buy_in, f"{where['buy-in']}: @buy-in")
        else:
            check_buy_in(rules, buy_in)
        if self.given_pairs:
            pairs = self.given_pairs
            self.places = {pair: "--pair-stake" for pair in pairs}
            if header.pair_stakes:  # documented, but never silent: the header's stakes are not used
                lines = ", ".join(line.rsplit(" ", 1)[1] for line in header.pair_where)
                self.warnings.append(
                    f"--pair-stake replaces the session's @pair-stake headers (line {lines}), which are not used"
                )
        else:
            pairs, self.places = header_pair_stakes(header)
        # A stake given on the command line replaces the file's, its lines between deals too.
        fixed = {"stake"} if self.given_stake is not None else set()
        fixed |= {"pair-stake"} if self.given_pairs else set()
        self._ledger = Ledger(
            rules, 1 if stake is None else stake, pairs, self.race, buy_in, fixed, header_seats(header)
        )
        # A cap or a stack can cut what is paid: the money is then not the units.
        cuts = rules.money.cuts
        self._money = stake is not None or bool(pairs) or cuts

    def _check_more(self, header: Header, path: str | None) -> None:
        """A later file of the night: its rules and buy-in must be the night's."""
        ledger = self.ledger
        if self.given_rules is None and header.rules is not None:
            own = self._rules_of(header, path)
            if own != ledger.rules:
                raise DealError(
                    f"{header.where['rules']}: @rules {header.rules} is not the night's rules "
                    f"({ledger.rules.id}, from {self.first}): settle files of one rule set together"
                )
        if self.given_buy_in is None and header.buy_in is not None:
            where = f"{header.where['buy-in']}: @buy-in"
            if buy_in_amount(header.buy_in, where) != ledger.buy_in:
                raise DealError(
                    f"{where} {header.buy_in} is not the night's buy-in ({ledger.buy_in}, from {self.first}): "
                    "one night has one buy-in"
                )

    # The deals --------------------------------------------------------------------

    @property
    def ledger(self) -> Ledger:
        """The running state: totals, stakes, seats, the bank, stacks, Fantasyland."""
        if self._ledger is None:
            raise DealError("no session file has been read yet")
        return self._ledger

    @property
    def rules(self) -> RuleSet:
        return self.ledger.rules

    @property
    def deals(self) -> int:
        """The deals settled so far (the next deal's number is one more)."""
        return 0 if self._ledger is None else self._ledger.deals

    @property
    def money(self) -> bool:
        """Whether money differs from units: a stake, pair stakes, a cap, table
        stakes, or a stake that changed during the night."""
        return self._money or (self._ledger is not None and self._ledger.restaked)

    def take(self, text: DealText, name: str) -> tuple[Deal, Outcome]:
        """Settle the next deal (:meth:`cpscore.session.Ledger.take`: the one
        kernel call) and update the night; a deal that cannot be settled
        changes nothing and raises."""
        ledger = self.ledger
        try:
            deal, outcome = ledger.take(text, name)
        finally:
            self.warnings += ledger.warnings
            ledger.warnings.clear()
        seen = self._seen
        if seen is not None:
            key = same_hands_key(deal)
            self.repeat_of = seen.get(key)
            if deal.seats[0].result is not None:
                # The same results come again in a night: only the deal just before is a double entry.
                if self.repeat_of is not None and self.repeat_of[0] != text.number - 1:
                    self.repeat_of = None
                seen[key] = (text.number, deal_digest(text))  # the latest: a retry repeats the deal just added
            elif self.repeat_of is None:
                seen[key] = (text.number, deal_digest(text))
        return deal, outcome

    def add(self, text: DealText, name: str) -> DealResult:
        """Settle the next deal, as :meth:`take`, and return its result: the
        deal's records at its own stake, and the running totals after it."""
        deal, outcome = self.take(text, name)
        return self.ledger.result(text, deal, outcome)

    def finish(self) -> None:
        """The checks at the end of the night: every pair stake names players
        who played; a stake line the command line replaced is noted."""
        self.close_files()
        ledger = self.ledger
        for payment in ledger.payments:  # never silent: a payment by or to someone who played no deal
            for name in (payment.payer, payment.payee):
                if name in ledger.units:
                    continue
                other = ledger.owners.alike(name)
                if other is not None:  # a player of the night, spelled another way: refused, as in a deal
                    raise DealError(look_alike(name, f"{payment.where}: @paid", *other))
                self.warnings.append(f"{payment.where}: @paid names {name}, who plays no deal of the night")
        pairs = []
        for pair, where in {**self.places, **ledger.pair_places}.items():
            a, b = sorted(pair)
            pairs.append((a, b, where))
        check_pair_players(pairs, ledger.players())
        for key, where in ledger.ignored:  # documented, but never silent
            option = "--stake" if key == "stake" else "--pair-stake"
            self.warnings.append(f"{option} replaces the session's stakes: {where}: @{key} is not used")
        ledger.ignored.clear()

    def settle_text(
        self,
        text: str,
        name: str,
        path: str | None = None,
        keep: Callable[[DealResult], None] | None = None,
        fix: str = "",
        after: tuple[int, int] | None = None,
    ) -> list[DealResult]:
        """Read a whole session's text as the night's (only) file and settle
        every deal; the first deal that cannot be read or settled is an error
        (with ``fix`` after its message).  Returns the results, or hands each
        to ``keep`` (and returns none) when given.

        ``after`` = (lines, deals): ``text`` is what was added to the end of
        the file this night has read, which had that many lines and deals
        (:func:`cpscore.session.read_more`): only its new deals are settled,
        the night going on from where it stands."""
        from cpscore.session import read_more
        from cpscore.textio import split_lines

        results: list[DealResult] = []
        put = keep or results.append
        try:
            lines = split_lines(text, name)
            closing: list[tuple[str, str, str]] = []  # payments after the last of the added deals
            deals = self.read(lines, name, path) if after is None else read_more(lines, name, after, closing)
            for read in deals:
                if read.error:
                    raise DealError(read.error)
                put(self.add(read, name))
            self.close_files()
            self.ledger.pay_lines(closing)
        except CpscoreError as error:
            if not fix:
                raise
            raise DealError(f"{error}{fix}") from None
        return results


def settle_deal(
    text: str, target: str, number: int, rules: RuleSet | None = None, fix: str = "", *, repeats: bool = False
) -> tuple[Night, DealResult, list[str]]:
    """A file's text, as a command is about to write it, read as ``cpscore
    session`` reads it (every deal must settle, and the night's checks at its
    end hold): the night after it, the result of deal ``number`` (the one the
    command writes) and that deal's warnings.  With ``repeats``, the night's
    :attr:`Night.repeat_of` is about its last deal."""
    night = Night(rules, repeats=repeats)
    found: list[DealResult] = []
    warnings: list[str] = []

    def keep(result: DealResult) -> None:
        if result.number == number:
            found.append(result)
            warnings.extend(night.warnings)
        night.warnings.clear()  # about the other deals: not this command's business

    night.settle_text(text, target, target, keep, fix)
    night.finish()
    if len(found) != 1:
        raise DealError(f"the deal would not read back the same from {target}; the file is unchanged")
    return night, found[0], warnings


# Appending a deal: the next deal as it will be written -----------------------------


class Append:
    """One deal appended to a session file: called with the file's current
    bytes (None: a new file) under the file's lock (:func:`cpscore.safefile.rewrite`),
    it checks the deal against the file's rules, seats and players and returns
    the new bytes.  It refuses what :func:`read_session` would not read back
    the same.  Afterwards it holds the deal's number, first line, settlement,
    the changes written before it (in words) and warnings.

    The deal is ``entries`` (``NAME: HAND``), or ``hands``: one text per seat,
    in seat order, ``-`` for a seat that sits the deal out.  ``players`` (the
    seats, as ``--players`` writes them), ``stake`` and ``pair_stakes`` are
    written as header lines of a new session, or as lines before the deal that
    change them from it on; a value already in force writes nothing (a warning
    says so)."""

    def __init__(
        self,
        target: str,
        entries: Iterable[Entry],
        rules: RuleSet | None,
        rules_text: str | None,
        surrender: Iterable[str] = (),
        waive: Iterable[str] = (),
        new_player: Iterable[str] = (),
        *,
        hands: Iterable[str] | None = None,
        players: Iterable[str] = (),
        stake: Amount | None = None,
        pair_stakes: Mapping[frozenset[str], Amount] | None = None,
        again: bool = False,
        expect: str | None = None,
        dealer: str | None = None,
        date: str | None = None,
        buy_in: Amount | None = None,
    ) -> None:
        self.target, self.entries, self.rules = target, list(entries), rules
        self.date = date  # the night's date, for a file with no deal yet (written as @date)
        self.buy_in = buy_in  # table stakes' buy-in, for a file with no deal yet (written as @buy-in)
        self.dealer = dealer  # the player who dealt (written as '; dealer')
        self.hands = None if hands is None else list(hands)
        self.players = list(players)
        self.stake, self.pair_stakes = stake, dict(pair_stakes or {})
        self.rules_text = rules_text
        self.stored = stored_rules_path(target, rules_text) if rules_text else None
        self.surrender, self.waive, self.new_player = surrender, waive, new_player
        self.again = again  # a deal with the same hands as an earlier one is let through
        self.expect = expect  # the terms (cpscore.night.terms) the deal was shown at: else it is refused
        self.number = self.line = 0
        self.settlement: Settlement | None = None
        self.result: DealResult | None = None
        self.money = False  # whether the night's money is not its units (a stake, a cap, ...)
        self.changes: tuple[str, ...] = ()
        self.warnings: list[str] = []
        self.warnings_before: list[str] = []  # options that wrote nothing: the value is in force already
        self._replaced: list[tuple[int, str, str]] = []  # header lines rewritten (a file with no deal yet)
        self._expected: tuple[tuple[Header, tuple[tuple[str, str], ...]], tuple[tuple[str, str], ...]] | None = None

    def __call__(self, current: bytes | None) -> bytes:
        from cpscore.textio import decode

        target = self.target
        self.warnings_before = []
        bom = b"\xef\xbb\xbf" if current and current.startswith(b"\xef\xbb\xbf") else b""
        existing = decode(current or b"", target)
        if self.stored is not None and existing.strip():
            raise DealError(f"{target} already exists: --rules only starts a new session file (its @rules header)")
        # The night as it stands: the seats, stakes and players the new deal is checked against.
        night = Night(self.rules, buy_in=self.buy_in)
        # An error in the file asks for the file to be fixed; a new file has nothing to fix.
        night.settle_text(existing, target, target, keep=lambda result: None, fix=FIX if existing.strip() else "")
        header, ledger, count = night.header, night.ledger, night.deals
        assert header is not None  # the file was read
        if ledger.over is not None:
            raise DealError(f"{target}: {ledger.over}; the deal was not added")
        known = ledger.owners
        head, between, seats = self._settings(header, ledger, known, count)
        entries = seated_entries(self.entries, self.hands, seats, target)
        if self.pair_stakes:  # as session checks them: players of the night, this deal's included
            from cpscore.deal import named_player

            players = [*known.names(), *(owner(entry.name) for entry in entries if owner(entry.name) not in known)]
            for pair in self.pair_stakes:
                for name in sorted(pair):
                    named_player(name, players, "--pair-stake", f"; a pair stake is between players of {target}")
        if self._replaced:  # a file of header lines only: the header lines given anew are rewritten
            existing = rewritten(existing, self._replaced)
        refuse_fantasyland_markers(entries)
        warnings = check_players(entries, known, self.new_player, target, bool(count), seats or ())
        deal = build_deal(entries, ledger.rules, self.surrender, self.waive, dealer=self.dealer)
        newline = "\r\n" if "\r\n" in existing else "\n"
        changes = [f"@{key} {value}" for key, value in between]
        if self.stored:
            head.insert(0, ("rules", self.stored))
        text, line = appended(existing, [*changes, *deal_lines(deal)], [f"@{k} {v}" for k, v in head], newline)
        self._expected = (header, (*head, *((key, value) for _, key, value in self._replaced))), tuple(between)
        self._check_reads_back(text, deal, count + 1)
        result, notes = self._settle(text, count + 1)
        self.result, self.number, self.line, self.settlement = result, result.number, result.line, result.settlement
        self.changes = result.changes
        self.warnings = self.warnings_before + warnings + notes
        return bom + text.encode("utf-8")

    def _settle(self, text: str, number: int) -> tuple[DealResult, list[str]]:
        """The new deal settled as ``cpscore session`` will settle it (:func:`settle_deal`);
        refused when its hands are an earlier deal's (unless ``again``), or
        when ``expect`` names other terms than it has now (:class:`Changed`).
        Returns its result and its warnings."""
        after, result, warnings = settle_deal(text, self.target, number, self.rules, FIX, repeats=True)
        if after.repeat_of is not None and not self.again:
            raise Repeat(*after.repeat_of, self.target, result.settlement.players[0].seat.result is not None)
        if self.expect is not None and terms(result) != self.expect:
            raise Changed(result, self.target)
        self.money = after.money
        return result, warnings

    def _settings(
        self, header: Header, ledger: Ledger, known: Names, count: int
    ) -> tuple[list[tuple[str, str]], list[tuple[str, str]], tuple[str, ...] | None]:
        """What ``--players``, ``--new-player`` (under seats), ``--stake`` and
        ``--pair-stake`` write: header lines (``head``: the file has no deal
        yet) or lines before the deal (``between``), as (key, value); and the
        seats the deal is played in."""
        head: list[tuple[str, str]] = []
        between: list[tuple[str, str]] = []
        self._replaced = []

        def write(key: str, value: str, option: str, given: str | None, line: str | None) -> None:
            if count:
                between.append((key, value))
            elif given is None:
                head.append((key, value))
            else:  # a header line says otherwise, and there is no deal yet: that line is rewritten
                assert line is not None  # a header line given is a line of the file
                self._replaced.append((int(line.rsplit(" ", 1)[1]), key, value))

        seats = ledger.seats
        chosen: tuple[str, ...] | None
        if self.players:
            chosen = parse_seats(self.players, "--players")
            for name in chosen:
                other = known.alike(name)
                if other is not None:
                    raise DealError(look_alike(name, "--players", *other))
        elif seats is not None and self.new_player:  # a newcomer takes the next seat
            from cpscore.deal import check_name

            joining = [check_name(name, "--new-player") for name in self.new_player]
            chosen = parse_seats(
                [seats_text((*seats, *(name for name in joining if name not in seats)))], "--new-player"
            )
        else:
            chosen = seats
        if chosen is not None and chosen != seats:
            write("players", seats_text(chosen), "--players", header.players, header.where.get("players"))
        elif self.players:
            self.warnings_before.append(f"--players: the seats are {seats_text(chosen or ())} already; nothing written")
        if self.stake is not None:
            if self.stake != ledger.stake or (not count and header.stake is None):
                write("stake", text_of(self.stake), "--stake", header.stake, header.where.get("stake"))
            else:
                self.warnings_before.append(
                    f"--stake {text_of(self.stake)}: the stake is that already; nothing written"
                )
        for pair, amount in self.pair_stakes.items():
            a, b = sorted(pair)
            if ledger.pair_stakes.get(pair) != amount:
                given, line = next(
                    ((t, w) for t, w in zip(header.pair_stakes, header.pair_where) if pair_stake(t, w)[0] == pair),
                    (None, None),
                )
                write("pair-stake", f"{a}:{b}={text_of(amount)}", "--pair-stake", given, line)
            else:
                self.warnings_before.append(
                    f"--pair-stake {a}:{b}={text_of(amount)}: the pair's stake is that already; nothing written"
                )
        if self.date is not None:
            night_date(Header(None, None, (), {"date": "--date"}, date=self.date))  # a real day, YYYY-MM-DD
            if self.date == header.date:
                self.warnings_before.append(f"--date {self.date}: the night's date is that already; nothing written")
            elif count:
                raise DealError(
                    f"--date: {self.target} has deals already, and its date is the night's (@date at the top): "
                    "start a new file for another night"
                )
            else:
                write("date", self.date, "--date", header.date, header.where.get("date"))
        if self.buy_in is not None:
            given = header.buy_in
            if given is not None and buy_in_amount(given) == self.buy_in:
                self.warnings_before.append(
                    f"--buy-in {text_of(self.buy_in)}: the night's buy-in is that already; nothing written"
                )
            elif count:
                raise DealError(
                    f"--buy-in: {self.target} has deals already, and its buy-in is the night's (@buy-in at the top): "
                    "start a new file for another night"
                )
            else:
                write("buy-in", text_of(self.buy_in), "--buy-in", given, header.where.get("buy-in"))
        return head, between, chosen

    def _check_reads_back(self, text: str, deal: Deal, number: int) -> None:
        """The new file must read back as ``session`` reads it: the same header
        (a rule path leading to the same file) and, as its last deal, this deal."""
        import os.path

        from cpscore.rules import is_rule_file
        from cpscore.textio import split_lines

        header, deals = read_session(split_lines(text, self.target), self.target)
        last = None
        for read in deals:
            last = read
        if self._expected is not None:
            (before, head), between = self._expected
            wanted = dict(head)

            def values(header: Header) -> tuple:
                return (header.rules, header.stake, header.pair_stakes, header.buy_in, header.players, header.date)

            pairs = list(before.pair_stakes)
            for key, value in head:
                if key != "pair-stake":
                    continue
                new_pair = pair_stake(value, self.target)[0]
                index = next((k for k, t in enumerate(pairs) if pair_stake(t, self.target)[0] == new_pair), None)
                if index is None:
                    pairs.append(value)
                else:  # a header line rewritten
                    pairs[index] = value
            expected = (
                wanted.get("rules", before.rules),
                wanted.get("stake", before.stake),
                tuple(pairs),
                wanted.get("buy-in", before.buy_in),
                wanted.get("players", before.players),
                wanted.get("date", before.date),
            )
            # What add wrote before the deal (a payment at the end of the file is now before it, as it was).
            written = () if last is None else tuple((key, value) for key, value, _ in last.changes if key != "paid")
            if values(header) != expected or written != between:
                raise DealError(f"the deal would not read back the same from {self.target}; it was not added")
        stored = self.stored
        if stored is not None and header.rules != stored:
            raise DealError(f"the rules path {shown(stored, 60)} cannot be written in a session header (no '#')")
        if stored is not None:
            assert self.rules_text is not None  # stored is made from it
            if is_rule_file(self.rules_text) and (
                os.path.realpath(session_relative(self.target, stored)) != os.path.realpath(self.rules_text)
            ):
                raise DealError(
                    f"the rules path {shown(stored, 60)} would not lead back to {shown(self.rules_text, 60)}"
                )
        try:
            again = build_deal(last.entries) if last is not None and not last.error else None
        except DealError:
            again = None

        def facts(seats):
            return [(seat.name, seat.hand, seat.cards, seat.surrendered, seat.waive, seat.banker) for seat in seats]

        if again is None or last is None or last.number != number or facts(again.seats) != facts(deal.seats):
            raise DealError(f"the deal would not read back the same from {self.target}; it was not added")


# Recording a payment: a @paid line at the end of a night -----------------------------


class Pay:
    """A payment recorded at the end of a session file (``@paid PAYER PAYEE
    AMOUNT``): a change for :func:`cpscore.safefile.rewrite`, as
    :class:`Append` is.  Both players must have played in the file's night
    (written as it spells them); the file must read back with the payment
    as its last.  Afterwards it holds the line written, its number, and the
    night after it (:attr:`night`: its balances and transfers)."""

    def __init__(self, target: str, payer: str, payee: str, amount: Amount) -> None:
        self.target, self.payer, self.payee, self.amount = target, payer, payee, amount
        self.line = 0
        self.text = ""
        self.night: Night | None = None
        self.before: dict[str, Amount] = {}  # what each player was still owed before the payment

    def __call__(self, current: bytes | None) -> bytes:
        from cpscore.session import parse_payment, seats_text
        from cpscore.textio import decode

        target = self.target
        if current is None:
            raise DealError(f"{target}: no such file: a payment is recorded in the session file of the night")
        if self.payer == self.payee:
            raise DealError(f"{shown(self.payer)} is both PAYER and PAYEE: a payment is from one player to another")
        bom = b"\xef\xbb\xbf" if current.startswith(b"\xef\xbb\xbf") else b""
        existing = decode(current, target)
        night = Night()
        night.settle_text(existing, target, target, keep=lambda result: None, fix=FIX)
        players = night.ledger.players()
        self.before = night.ledger.balances()
        for name in (self.payer, self.payee):
            if owner(name) != name:
                raise DealError(f"{shown(name)} is a hand, not a player: name the player, {owner(name)}")
            if "," in name:
                raise DealError(
                    f"{shown(name)} has a comma, which separates the names of a @paid line: it cannot be written"
                )
            if name not in players:
                other = night.ledger.owners.alike(name)
                listed = ", ".join(players[:12]) + (", ..." if len(players) > 12 else "")
                hint = f"; did you mean {other[0]}?" if other else ": record a payment in a night both players played"
                raise DealError(f"{shown(name)} plays no deal of {target} (players: {listed or 'none yet'}){hint}")
        names = seats_text((self.payer, self.payee))  # commas when a name has a space
        joiner = ", " if "," in names else " "
        self.text = f"@paid {names}{joiner}{text_of(self.amount)}"
        parse_payment(self.text[len("@paid ") :], "--")  # what the session will read
        newline = "\r\n" if "\r\n" in existing else "\n"
        text, self.line = appended(existing, [self.text], (), newline)
        after = Night()
        after.settle_text(text, target, target, keep=lambda result: None)
        after.finish()
        found = after.ledger.payments[-1] if after.ledger.payments else None
        if found is None or (found.payer, found.payee, found.amount) != (self.payer, self.payee, self.amount):
            raise DealError(f"the payment would not read back the same from {target}; the file is unchanged")
        self.night = after
        return bom + text.encode("utf-8")
