"""Issue 10, part 4: the views show what decided (docs/rules.md 3, 6, 7, 8, 12).

The table, JSON and ``--explain`` of ``score`` and ``session`` for the suit that
broke a tie, the banker and the tied rows it takes, a foul penalty beside the
play, broken royalties, the spade bonus on both hands of its row, the equal
home-run split, naturals by rank order and netted, the highest card of equal
naturals, a false claim, and a payment a cap or a stack cut.  Every number is
the settlement's own: the views only read it.
"""

import json
from decimal import Decimal

import pytest
from click.testing import CliRunner

from cpscore.cli import main

RULE_FILES = {
    "cap40.toml": 'preset = "shisanshui"\nid = "shisanshui-cap"\ncap = 40\n',
    "capsession.toml": 'preset = "shisanshui"\nid = "shisanshui-capsess"\ncap = 40\ncap_scope = "session"\n',
    "stakes30.toml": 'preset = "pineapple-ru"\nid = "ru30"\ntable_stakes = 30\n',
    "bankties.toml": 'preset = "shisanshui"\nid = "ss-bank"\npairing = "banker"\nbanker_wins_ties = true\n',
    "fouls24.toml": 'preset = "2-4"\nid = "2-4-fp"\nfoul_plays = true\n',
    "foulsofc.toml": 'preset = "ofc"\nid = "ofc-fp"\nfoul_plays = true\n',
    "foulstw.toml": 'preset = "taiwanese"\nid = "tw-fp"\nfoul_plays = true\n',
    "brokentw.toml": 'preset = "taiwanese"\nid = "tw-broken"\n[royalties]\nbroken_royalties = true\n',
    "brokenss.toml": 'preset = "shisanshui"\nid = "ss-broken"\n[royalties]\nbroken_royalties = true\n',
    "spadeofc.toml": 'preset = "ofc"\nid = "ofc-spade"\n[royalties]\nspade_bonus = "row"\n',
    "spadetw.toml": 'preset = "taiwanese"\nid = "tw-spade"\n[royalties]\nspade_bonus = "row"\n',
    "equalofc.toml": (
        'preset = "ofc"\nid = "ofc-equal"\nhome_run = true\nhome_run_min_opponents = 2\nhome_run_split = "equal"\n'
    ),
    "ssvalue.toml": 'preset = "shisanshui-old"\nid = "ss-value"\nnatural_order = "value"\n',
    "mbhigher.toml": 'preset = "maubinh"\nid = "mb-higher"\nnatural_vs_natural = "higher"\n',
    "capsapairs.toml": 'preset = "capsa"\nid = "capsa-pairs"\n[naturals]\nsix-pairs = 3\n',
    "capsadragon.toml": 'preset = "capsa"\nid = "capsa-dragon"\n[naturals]\ndragon = 13\n',
    "capcross.toml": 'preset = "ofc"\nid = "ofc-cap"\ncap = 20\n',
}

ANN = "Ann: Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h\n"
BEN = "Ben: Js Jd 5c / Th Td 8c 8d 2d / Ac Ad 6s 6h 7c\n"
CAT = "Cat: Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s\n"
DAN = "Dan: 3s 2h 5d / 4s 4d Qc Tc 8h / Jh Jc 7s 7h Ah\n"
AMY = "Amy: Ks Kd 4c / 9h 9c 5d 5s 2c / Ah Ad Ac 7s 7d\n"
DEE = "Dee: 2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah\n"
FIN = "Fin: 3s 3h 3d 5s 5h 7s 7h 9s 9h Js Jh Ks Kh\n"

DEALS = {
    "three": ANN + BEN + CAT,
    "four": ANN + BEN + CAT + DAN,
    "ann-cat": ANN + CAT,
    "suits": AMY + "Bea: Kh Kc 4d / 9s 9d 4s 4h Qc / Ts Th Td 3s 3h\n",
    "ties": "Amy: Qc Jd 8h / Kh Kd 9c 6s 6h / Ah 2d 3c 4s 5h\nBob: Qd Js 8c / Ks Kc 9d 6c 6d / 7d 8d 9h Th Jc\n",
    "foul": AMY + "Flo: 3s 3h 3d / Th Tc 8d 8s 4d / Kh Qh Jh 6h 2h\n",
    "suit-foul": "Amy: Ah Ac 4c / 9h 9c 5c 5s 2h / Th Tc 7h 7s 7c\nSal: Qc 8h 2c / Kd Jd 9d 6d 3d / Ks Js 9s 6s 3s\n",
    "broken": "Sev: 7s 7h 7d / 3c 4d 5h 6s 7c / Kh Qh Th 8h 2h\nTom: Ah Kd 2c / Jd Jc 9d 9c 4s / Qs Qd Qc 5s 5d\n",
    "spade": AMY + "Pat: Jd 4h 3d / Qc Td 8c 6d 3h / 2s 2h Jc 8d 6c\n",
    "false": (
        "Amy: Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d\nBob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\n"
        "Cy: As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c\n"
    ),
    "false-four": (
        "Amy: Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d\nBob: Qs Jd 3c / Th Tc 8d 8s 3d / Kh Qh Jh 8h 2h\n"
        "Cy: As 6d 2s / 6c 6h 4d 4s 3s / Js Ts 9s 8c 7c\nDee: Qd Qc Kc / 9d Td Jc 2d 6s / 3h 4h 5h 7h 5c\n"
    ),
    "false-natural": (
        "A: Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d\nB: Qs Jd 3c Th Tc 8d 8s 3d Kh Qh Jh 8h 2h\n"
        "C: 2s 2d 4h 4s 6h 6d Js Jc Ts Td Qc Qd As\n"
    ),
    "surrender": ANN + "Ben: surrender\n" + CAT,
    "dragon-pairs": "Dra: 2s 3s 4d 5d 6s 7s 8d 9d Ts Jc Qd Kc Ac\n" + DEE,
    "trips-pairs": FIN + DEE,
    "two-trips-pairs": FIN + "Gil: 4s 4h 4d 5d 5c 7d 7c 9d 9c Jd Jc Kd Kc\n",
    "runs": "Pat: 4s 4h 5d 5c 6s 6h 7d 7c 8s 8h Ks 2d Jc\nQuin: 5s 5h 6d 6c 7s 7h 8d 8c 9s 9h Kh 2c Jd\n",
    "odd-aces": "Hana: 2h 2d 4c 4s 6h 6d 8c 8s Th Td Qc Qs Ah\nIvy: 2s 2c 4h 4d 6s 6c 8h 8d Ts Tc Qh Qd As\n",
    "dragons": "D1: 2h 3d 4c 5s 6h 7d 8c 9s Th Jd Qc Ks Ah\nD2: 2d 3c 4s 5h 6d 7c 8s 9h Td Jc Qs Kh As\n",
    "criss-cross": "Ann[1]: Qh Qd 2c / Kh Kd Kc 3h 3d / 9s 9h 9d 9c 4h\n"
    + BEN
    + "Ann[2]: Ts 7d 4c / 6c 6d 5s 5h 3c / As Ks Qs 8s 2s\n",
}


def run(*args):
    return CliRunner().invoke(main, list(args))


def ok(*args):
    result = run(*args)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return result.stdout


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A working directory holding every rule file (so the rules line names the
    file, not a temporary path)."""
    monkeypatch.chdir(tmp_path)
    for name, text in RULE_FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def score(here, rules, deal, *options):
    (here / "deal.txt").write_text(DEALS[deal], encoding="utf-8")
    return ok("score", "--rules", rules, *options, "deal.txt")


def block(text, heading):
    """One pair's explanation: from its heading to the blank line after it."""
    start = text.index(f"\n{heading} (") + 1
    end = text.find("\n\n", start)
    return text[start:] if end < 0 else text[start : end + 1]


# The deals are docs/rules.md's worked examples, so every total here is one the
# rules page gives: suits (12.1, capsa: Bea pays 6), the banker and --banker Ben
# (12.1, pusoy: Ann +24; Ann +12, Ben -11, Cat -1), ties to the banker (12.1: 6,
# and Bob +1), foul_plays (3: 2 under 2-4, 19 under ofc, 5 under taiwanese),
# broken royalties (6: 6 under taiwanese, 7 under shisanshui), the spade bonus
# (6: 37 and 26), naturals (7: net 6 and 0, rank order 5, value order 6, the
# suit tie-break 3, the false claim -12 / +7 / +5), the cap (12.1: Ann +40,
# Ben -27, Cat -13) and table stakes (12.1 with a buy-in of 30: Ann +59, Ben -29,
# Cat -30).  The equal split here is ofc with a home run from two opponents:
# u = 29, 31, 35 against Ben, Cat, Dan, T = 95, T / 3 = 31.666... -> 31.67.

TABLES = [
    pytest.param(
        "capsa",
        "suits",
        (),
        """\
Rules: capsa (Capsa Susun: doubled Eastern values, suits break ties)

Player    Front     Middle          Back              Royalties
--------  --------  --------------  --------------  -----------
Amy       Ks Kd 4c  9h 9c 5d 5s 2c  Ah Ad Ac 7s 7d            0
          pair      two pair        full house
Bea       Kh Kc 4d  9s 9d 4s 4h Qc  Ts Th Td 3s 3h            0
          pair      two pair        full house

Amy takes the front from Bea on suits: Ks over Kh (spades over hearts)

Units won by each player (row) from each opponent (column):

       Amy    Bea    Total
---  -----  -----  -------
Amy            +6       +6
Bea     -6              -6
""",
        id="suits",
    ),
    pytest.param(
        "pusoy",
        "three",
        (),
        """\
Rules: pusoy (Pusoy: 1-6 against a rotating banker, guns, suits break ties)
Banker: Ann (only the banker's pairs settle)

Player    Front      Middle          Back              Royalties
--------  ---------  --------------  --------------  -----------
Ann       Qh Qd 2c   Kh Kd Kc 3h 3d  9s 9h 9d 9c 4h            6
          pair       full house +2   quads +4
Ben       Js Jd 5c   Th Td 8c 8d 2d  Ac Ad 6s 6h 7c            0
          pair       two pair        two pair
Cat       Ts 7d 4c   6c 6d 5s 5h 3c  As Ks Qs 8s 2s            0
          high card  two pair        flush

Units won by each player (row) from each opponent (column):

       Ann    Ben    Cat    Total
---  -----  -----  -----  -------
Ann           +12    +12      +24
Ben    -12                    -12
Cat    -12                    -12
""",
        id="banker",
    ),
    pytest.param(
        "pusoy",
        "three",
        ("--banker", "Ben"),
        """\
Rules: pusoy (Pusoy: 1-6 against a rotating banker, guns, suits break ties)
Banker: Ben (only the banker's pairs settle)

Player    Front      Middle          Back              Royalties
--------  ---------  --------------  --------------  -----------
Ann       Qh Qd 2c   Kh Kd Kc 3h 3d  9s 9h 9d 9c 4h            6
          pair       full house +2   quads +4
Ben       Js Jd 5c   Th Td 8c 8d 2d  Ac Ad 6s 6h 7c            0
          pair       two pair        two pair
Cat       Ts 7d 4c   6c 6d 5s 5h 3c  As Ks Qs 8s 2s            0
          high card  two pair        flush

Units won by each player (row) from each opponent (column):

       Ann    Ben    Cat    Total
---  -----  -----  -----  -------
Ann           +12             +12
Ben    -12            +1      -11
Cat            -1              -1
""",
        id="banker-named",
    ),
    pytest.param(
        "bankties.toml",
        "ties",
        (),
        """\
Rules: ss-bank (shisanshui with the changes in bankties.toml)
Banker: Amy (only the banker's pairs settle)

Player    Front      Middle          Back              Royalties
--------  ---------  --------------  --------------  -----------
Amy       Qc Jd 8h   Kh Kd 9c 6s 6h  Ah 2d 3c 4s 5h            0
          high card  two pair        straight
Bob       Qd Js 8c   Ks Kc 9d 6c 6d  7d 8d 9h Th Jc            0
          high card  two pair        straight

Amy, the banker, takes the tied front and middle from Bob

Units won by each player (row) from each opponent (column):

       Amy    Bob    Total
---  -----  -----  -------
Amy            +6       +6
Bob     -6              -6
""",
        id="banker-ties",
    ),
    pytest.param(
        "pusoy",
        "suit-foul",
        (),
        """\
Rules: pusoy (Pusoy: 1-6 against a rotating banker, guns, suits break ties)
Banker: Amy (only the banker's pairs settle)

Player    Front      Middle          Back            Notes      Royalties
--------  ---------  --------------  --------------  -------  -----------
Amy       Ah Ac 4c   9h 9c 5c 5s 2h  Th Tc 7h 7s 7c                     0
          pair       two pair        full house
Sal       Qc 8h 2c   Kd Jd 9d 6d 3d  Ks Js 9s 6s 3s  FOUL               0
          high card  flush           flush

Sal fouled: middle king-high flush (K-J-9-6-3) beats back king-high flush (K-J-9-6-3) on suits

Units won by each player (row) from each opponent (column):

       Amy    Sal    Total
---  -----  -----  -------
Amy            +6       +6
Sal     -6              -6
""",
        id="suit-foul",
    ),
    pytest.param(
        "fouls24.toml",
        "foul",
        (),
        """\
Rules: 2-4-fp (2-4 with the changes in fouls24.toml)

Player    Front     Middle          Back            Notes
--------  --------  --------------  --------------  -------
Amy       Ks Kd 4c  9h 9c 5d 5s 2c  Ah Ad Ac 7s 7d
          pair      two pair        full house
Flo       3s 3h 3d  Th Tc 8d 8s 4d  Kh Qh Jh 6h 2h  FOUL
          trips     two pair        flush

Flo fouled: front three threes (3-3-3) beats middle two pair, tens and eights (T-T-8-8-4)
Flo pays Amy a penalty of 4 for the foul, beside the play (foul_plays)

Units won by each player (row) from each opponent (column):

       Amy    Flo    Total
---  -----  -----  -------
Amy            +2       +2
Flo     -2              -2
""",
        id="foul-penalty",
    ),
    pytest.param(
        "maubinh",
        "false",
        (),
        """\
Rules: maubinh (Mậu Binh: Eastern row values, sập and sập làng, naturals net)

Player    Front      Middle          Back            Notes          Royalties
--------  ---------  --------------  --------------  -----------  -----------
Amy       (unset)                                    false claim
                                                     (pays 6)
Bob       Qs Jd 3c   Th Tc 8d 8s 3d  Kh Qh Jh 8h 2h                         0
          high card  two pair        flush
Cy        As 6d 2s   6c 6h 4d 4s 3s  Js Ts 9s 8c 7c                         0
          high card  two pair        straight

Amy declares Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d: no natural, a false claim

Units won by each player (row) from each opponent (column):

       Amy    Bob    Cy    Total
---  -----  -----  ----  -------
Amy            -6    -6      -12
Bob     +6           +1       +7
Cy      +6     -1             +5
""",
        id="false-claim",
    ),
    pytest.param(
        "brokentw.toml",
        "broken",
        (),
        """\
Rules: tw-broken (taiwanese with the changes in brokentw.toml)

Player    Front      Middle          Back            Notes        Royalties
--------  ---------  --------------  --------------  ---------  -----------
Sev       7s 7h 7d   3c 4d 5h 6s 7c  Kh Qh Th 8h 2h  broken +2            5
          trips +3   straight        flush
Tom       Ah Kd 2c   Jd Jc 9d 9c 4s  Qs Qd Qc 5s 5d                       0
          high card  two pair        full house

Units won by each player (row) from each opponent (column):

       Sev    Tom    Total
---  -----  -----  -------
Sev            +6       +6
Tom     -6              -6
""",
        id="broken",
    ),
    pytest.param(
        "equalofc.toml",
        "four",
        (),
        """\
Rules: ofc-equal (ofc with the changes in equalofc.toml)

Player    Front      Middle          Back            Notes           Royalties
--------  ---------  --------------  --------------  ------------  -----------
Ann       Qh Qd 2c   Kh Kd Kc 3h 3d  9s 9h 9d 9c 4h  FL next (13)           29
          pair +7    full house +12  quads +10
Ben       Js Jd 5c   Th Td 8c 8d 2d  Ac Ad 6s 6h 7c                          6
          pair +6    two pair        two pair
Cat       Ts 7d 4c   6c 6d 5s 5h 3c  As Ks Qs 8s 2s                          4
          high card  two pair        flush +4
Dan       3s 2h 5d   4s 4d Qc Tc 8h  Jh Jc 7s 7h Ah                          0
          high card  pair            two pair

Units won by each player (row) from each opponent (column):

        Ann     Ben     Cat     Dan    Total
---  ------  ------  ------  ------  -------
Ann          +60.67  +62.67  +66.67  +190.01
Ben  -60.67              +3     +12   -45.67
Cat  -62.67      -3             +10   -55.67
Dan  -66.67     -12     -10           -88.67

Ann's home run, split equally: each opponent pays 31.67 more (95 / 3, rounded)
""",
        id="split",
    ),
    pytest.param(
        "cap40.toml",
        "three",
        (),
        """\
Rules: shisanshui-cap (shisanshui with the changes in cap40.toml)

Player    Front      Middle          Back              Royalties
--------  ---------  --------------  --------------  -----------
Ann       Qh Qd 2c   Kh Kd Kc 3h 3d  9s 9h 9d 9c 4h            6
          pair       full house +2   quads +4
Ben       Js Jd 5c   Th Td 8c 8d 2d  Ac Ad 6s 6h 7c            0
          pair       two pair        two pair
Cat       Ts 7d 4c   6c 6d 5s 5h 3c  As Ks Qs 8s 2s            0
          high card  two pair        flush

Units won by each player (row) from each opponent (column):

       Ann    Ben    Cat    Total
---  -----  -----  -----  -------
Ann           +28    +28      +56
Ben    -28            +1      -27
Cat    -28     -1             -29

Money won by each player from each opponent (stake 1 a unit):

       Ann    Ben    Cat    Total
---  -----  -----  -----  -------
Ann           +28    +12      +40
Ben    -28            +1      -27
Cat    -12     -1             -13

Cut: Cat pays Ann 12, not 28 (cap 40: Ann at +40)
""",
        id="cap",
    ),
    pytest.param(
        "stakes30.toml",
        "three",
        (),
        """\
Rules: ru30 (pineapple-ru with the changes in stakes30.toml)

Player    Front      Middle          Back            Notes           Royalties
--------  ---------  --------------  --------------  ------------  -----------
Ann       Qh Qd 2c   Kh Kd Kc 3h 3d  9s 9h 9d 9c 4h  FL next (14)           29
          pair +7    full house +12  quads +10
Ben       Js Jd 5c   Th Td 8c 8d 2d  Ac Ad 6s 6h 7c                          6
          pair +6    two pair        two pair
Cat       Ts 7d 4c   6c 6d 5s 5h 3c  As Ks Qs 8s 2s                          4
          high card  two pair        flush +4

Units won by each player (row) from each opponent (column):

       Ann    Ben    Cat    Total
---  -----  -----  -----  -------
Ann           +29    +31      +60
Ben    -29            +3      -26
Cat    -31     -3             -34

Money won by each player from each opponent (stake 1 a unit):

       Ann    Ben    Cat    Total
---  -----  -----  -----  -------
Ann           +29    +30      +59
Ben    -29             0      -29
Cat    -30      0             -30

Cut: Cat pays Ann 30, not 31 (Cat's stack 30)
Cut: Cat pays Ben 0, not 3 (Cat's stack 0)
Stacks after the deal: Ann 89, Ben 1, Cat 0
""",
        id="stacks",
    ),
    pytest.param(
        "capcross.toml",
        "criss-cross",
        (),
        """\
Rules: ofc-cap (ofc with the changes in capcross.toml)

Player    Front      Middle          Back            Notes           Royalties
--------  ---------  --------------  --------------  ------------  -----------
Ann[1]    Qh Qd 2c   Kh Kd Kc 3h 3d  9s 9h 9d 9c 4h  FL next (13)           29
          pair +7    full house +12  quads +10
Ben       Js Jd 5c   Th Td 8c 8d 2d  Ac Ad 6s 6h 7c                          6
          pair +6    two pair        two pair
Ann[2]    Ts 7d 4c   6c 6d 5s 5h 3c  As Ks Qs 8s 2s                          4
          high card  two pair        flush +4

Units won by each player (row) from each opponent (column):

          Ann[1]    Ben    Ann[2]    Total
------  --------  -----  --------  -------
Ann[1]              +29                +29
Ben          -29               +3      -26
Ann[2]               -3                 -3

Money won by each player from each opponent (stake 1 a unit):

          Ann[1]    Ben    Ann[2]    Total
------  --------  -----  --------  -------
Ann[1]              +20                +20
Ben          -20               +3      -17
Ann[2]               -3                 -3

Cut: Ben pays Ann 20, not 29 (cap 20: Ann at +20)

Totals by player (all their hands):

Player      Units    Money
--------  -------  -------
Ann           +26      +17
Ben           -26      -17
""",
        id="cap-criss-cross",
    ),
]

EXPLAINED = [
    pytest.param(
        "capsa",
        "suits",
        (),
        "Amy against Bea",
        """\
Amy against Bea (capsa):
  front   Amy's pair of kings (K-K-4) beats Bea's pair of kings (K-K-4) on suits
          equal ranks, so suits decide (s h c d): Ks Kd 4c against Kh Kc 4d, Ks over Kh (spades over hearts): +1
  middle  Amy's two pair, nines and fives (9-9-5-5-2) beats Bea's two pair, nines and fours (9-9-4-4-Q)
          then 5 over 4: +1
  back    Amy's aces full of sevens (A-A-A-7-7) beats Bea's tens full of threes (T-T-T-3-3)
          aces over tens: +1
  rows    +1 +1 +1 = +3
  royalties (row-value: a row's winner collects the table value instead of 1; capsa table): 0
  multiplier x2: Amy scoops Bea: doubled
  units   (+3 rows) x 2 = +6: Bea pays Amy 6
""",
        id="suits",
    ),
    pytest.param(
        "pusoy",
        "three",
        (),
        "Ann against Ben",
        """\
Ann against Ben (pusoy; Ann is the banker):
  front   Ann's pair of queens (Q-Q-2) beats Ben's pair of jacks (J-J-5)
          queens over jacks: +1
  middle  Ann's kings full of threes (K-K-K-3-3) beats Ben's two pair, tens and eights (T-T-8-8-2)
          a full house over two pair: +1
  back    Ann's four nines (9-9-9-9-4) beats Ben's two pair, aces and sixes (A-A-6-6-7)
          quads over two pair: +1
  rows    +1 +1 +1 = +3
  bonus   Ann wins all three rows (1-6 scoop): +3
  royalties (paid by holder, pusoy table): Ann middle full house 2 + back quads 4 = 6; Ben none; net +6
  units   +3 rows +3 bonus +6 royalties = +12: Ben pays Ann 12
""",
        id="banker-header",
    ),
    pytest.param(
        "bankties.toml",
        "ties",
        (),
        "Amy against Bob",
        """\
Amy against Bob (ss-bank; Amy is the banker):
  front   tie: both queen high (Q-J-8)
          a tied row goes to the banker, Amy (banker_wins_ties): +1
  middle  tie: both two pair, kings and sixes (K-K-6-6-9)
          a tied row goes to the banker, Amy (banker_wins_ties): +1
  back    Amy's five-high straight (5-4-3-2-A) beats Bob's jack-high straight (J-T-9-8-7)
          the wheel ranks second: +1
  rows    +1 +1 +1 = +3
  royalties (row-value: a row's winner collects the table value instead of 1; ss-bank table): 0
  multiplier x2: Amy scoops Bob: doubled
  units   (+3 rows) x 2 = +6: Bob pays Amy 6
""",
        id="banker-ties",
    ),
    pytest.param(
        "bankties.toml",
        "ties",
        ("--banker", "Bob"),
        "Amy against Bob",
        """\
Amy against Bob (ss-bank; Bob is the banker):
  front   tie: both queen high (Q-J-8)
          a tied row goes to the banker, Bob (banker_wins_ties): -1
  middle  tie: both two pair, kings and sixes (K-K-6-6-9)
          a tied row goes to the banker, Bob (banker_wins_ties): -1
  back    Amy's five-high straight (5-4-3-2-A) beats Bob's jack-high straight (J-T-9-8-7)
          the wheel ranks second: +1
  rows    -1 -1 +1 = -1
  royalties (row-value: a row's winner collects the table value instead of 1; ss-bank table): 0
  units   -1 rows = -1: Amy pays Bob 1
""",
        id="banker-ties-other-banker",
    ),
    pytest.param(
        "pusoy",
        "suit-foul",
        (),
        "Amy against Sal",
        """\
Amy against Sal (pusoy; Amy is the banker):
  Sal fouled: middle king-high flush (K-J-9-6-3) beats back king-high flush (K-J-9-6-3) on suits, suits count (suit_foul) (d c h s): Kd Jd 9d 6d 3d against Ks Js 9s 6s 3s, Kd over Ks (diamonds over spades): Sal loses every row and holds no royalties
  front   Amy takes it
          +1
  middle  Amy takes it
          +1
  back    Amy takes it
          +1
  rows    +1 +1 +1 = +3
  bonus   Amy wins all three rows (1-6 scoop): +3
  royalties (paid by holder, pusoy table): Amy none; Sal none; net 0
  units   +3 rows +3 bonus = +6: Sal pays Amy 6
""",
        id="suit-foul",
    ),
    pytest.param(
        "fouls24.toml",
        "foul",
        (),
        "Amy against Flo",
        """\
Amy against Flo (2-4-fp):
  Flo fouled: front three threes (3-3-3) beats middle two pair, tens and eights (T-T-8-8-4), trips over two pair: Flo pays a penalty and plays the rows as set (foul_plays), holding no royalties
  front   Flo's three threes (3-3-3) beats Amy's pair of kings (K-K-4)
          trips over a pair: -1
  middle  Flo's two pair, tens and eights (T-T-8-8-4) beats Amy's two pair, nines and fives (9-9-5-5-2)
          tens over nines: -1
  back    Amy's aces full of sevens (A-A-A-7-7) beats Flo's king-high flush (K-Q-J-6-2)
          a full house over a flush: +1
  rows    -1 -1 +1 = -1
  bonus   Flo wins two rows of three (2-4): the overall unit -1
  penalty Flo fouled (foul_plays): pays Amy what a scooped hand pays with no royalties, 3 rows + 1 bonus = 4: +4
  units   -1 rows -1 bonus +4 penalty = +2: Flo pays Amy 2
""",
        id="foul-plays-2-4",
    ),
    pytest.param(
        "foulsofc.toml",
        "foul",
        (),
        "Amy against Flo",
        """\
Amy against Flo (ofc-fp):
  Flo fouled: front three threes (3-3-3) beats middle two pair, tens and eights (T-T-8-8-4), trips over two pair: Flo pays a penalty and plays the rows as set (foul_plays), holding no royalties
  front   Flo's three threes (3-3-3) beats Amy's pair of kings (K-K-4)
          trips over a pair: -1
  middle  Flo's two pair, tens and eights (T-T-8-8-4) beats Amy's two pair, nines and fives (9-9-5-5-2)
          tens over nines: -1
  back    Amy's aces full of sevens (A-A-A-7-7) beats Flo's king-high flush (K-Q-J-6-2)
          a full house over a flush: +1
  rows    -1 -1 +1 = -1
  bonus   0 (no scoop)
  royalties (paid by holder, ofc-fp table): Amy front KK 8 + back full house 6 = 14; Flo none; net +14
  penalty Flo fouled (foul_plays): pays Amy what a scooped hand pays with no royalties, 3 rows + 3 bonus = 6: +6
  units   -1 rows +14 royalties +6 penalty = +19: Flo pays Amy 19
""",
        id="foul-plays-ofc",
    ),
    pytest.param(
        "foulstw.toml",
        "foul",
        (),
        "Amy against Flo",
        """\
Amy against Flo (tw-fp):
  Flo fouled: front three threes (3-3-3) beats middle two pair, tens and eights (T-T-8-8-4), trips over two pair: Flo pays a penalty and plays the rows as set (foul_plays), holding no royalties
  front   Flo's three threes (3-3-3) beats Amy's pair of kings (K-K-4)
          trips over a pair: -1
  middle  Flo's two pair, tens and eights (T-T-8-8-4) beats Amy's two pair, nines and fives (9-9-5-5-2)
          tens over nines: -1
  back    Amy's aces full of sevens (A-A-A-7-7) beats Flo's king-high flush (K-Q-J-6-2)
          a full house over a flush: +1
  rows    -1 -1 +1 = -1
  royalties (row-bonus: a row's winner collects 1 + the table value; tw-fp table): 0
  penalty Flo fouled (foul_plays): pays Amy what a scooped hand pays with no royalties, 3 rows x 2 (scoops double) = 6: +6
  units   -1 rows +6 penalty = +5: Flo pays Amy 5
""",
        id="foul-plays-taiwanese",
    ),
    pytest.param(
        "brokentw.toml",
        "broken",
        (),
        "Sev against Tom",
        """\
Sev against Tom (tw-broken):
  front   Sev's three sevens (7-7-7) beats Tom's ace high (A-K-2)
          trips over high card; royalty +3 (front trips 3 in the tw-broken table): +1
  middle  Sev's seven-high straight (7-6-5-4-3) beats Tom's two pair, jacks and nines (J-J-9-9-4)
          a straight over two pair: +1
  back    Tom's queens full of fives (Q-Q-Q-5-5) beats Sev's king-high flush (K-Q-T-8-2)
          a full house over a flush: -1
  rows    +1 +1 -1 = +1
  royalties (row-bonus: a row's winner collects 1 + the table value; tw-broken table): +3
  broken royalties (split quads and straight flushes, paid as the tw-broken back table whatever the rows): Sev four sevens 2, Tom none: +2
  royalties +3 rows +2 broken = +5
  units   +1 rows +5 royalties = +6: Tom pays Sev 6
""",
        id="broken-row-bonus",
    ),
    pytest.param(
        "brokenss.toml",
        "broken",
        (),
        "Sev against Tom",
        """\
Sev against Tom (ss-broken):
  front   Sev's three sevens (7-7-7) beats Tom's ace high (A-K-2)
          trips over high card; royalty +2 (front trips 3 in the ss-broken table): +1
  middle  Sev's seven-high straight (7-6-5-4-3) beats Tom's two pair, jacks and nines (J-J-9-9-4)
          a straight over two pair: +1
  back    Tom's queens full of fives (Q-Q-Q-5-5) beats Sev's king-high flush (K-Q-T-8-2)
          a full house over a flush: -1
  rows    +1 +1 -1 = +1
  royalties (row-value: a row's winner collects the table value instead of 1; ss-broken table): +2
  broken royalties (split quads and straight flushes, paid as the ss-broken back table whatever the rows): Sev four sevens 4, Tom none: +4
  royalties +2 rows +4 broken = +6
  units   +1 rows +6 royalties = +7: Tom pays Sev 7
""",
        id="broken-row-value",
    ),
    pytest.param(
        "spadeofc.toml",
        "ann-cat",
        (),
        "Ann against Cat",
        """\
Ann against Cat (ofc-spade):
  front   Ann's pair of queens (Q-Q-2) beats Cat's ten high (T-7-4)
          a pair over high card: +1
  middle  Ann's kings full of threes (K-K-K-3-3) beats Cat's two pair, sixes and fives (6-6-5-5-3)
          a full house over two pair: +1
  back    Ann's four nines (9-9-9-9-4) beats Cat's ace-high flush (A-K-Q-8-2)
          quads over a flush: +1
  rows    +1 +1 +1 = +3
  bonus   Ann wins all three rows (1-6 scoop): +3
  spade bonus: Cat holds 2s in the back: both hands' back royalties are doubled, won or lost
  royalties (paid by holder, ofc-spade table (2s doubles both hands' royalties in its row)): Ann front QQ 7 + middle full house 12 + back quads 10 x 2 = 39; Cat back flush 4 x 2 = 8; net +31
  units   +3 rows +3 bonus +31 royalties = +37: Cat pays Ann 37
""",
        id="spade-row-holder",
    ),
    pytest.param(
        "spadeofc.toml",
        "spade",
        (),
        "Amy against Pat",
        """\
Amy against Pat (ofc-spade):
  front   Amy's pair of kings (K-K-4) beats Pat's jack high (J-4-3)
          a pair over high card: +1
  middle  Amy's two pair, nines and fives (9-9-5-5-2) beats Pat's queen high (Q-T-8-6-3)
          two pair over high card: +1
  back    Amy's aces full of sevens (A-A-A-7-7) beats Pat's pair of twos (2-2-J-8-6)
          a full house over a pair: +1
  rows    +1 +1 +1 = +3
  bonus   Amy wins all three rows (1-6 scoop): +3
  spade bonus: Pat holds 2s in the back: both hands' back royalties are doubled, won or lost
  royalties (paid by holder, ofc-spade table (2s doubles both hands' royalties in its row)): Amy front KK 8 + back full house 6 x 2 = 20; Pat none; net +20
  units   +3 rows +3 bonus +20 royalties = +26: Pat pays Amy 26
""",
        id="spade-row-opponent-full-house",
    ),
    pytest.param(
        "spadetw.toml",
        "ann-cat",
        (),
        "Ann against Cat",
        """\
Ann against Cat (tw-spade):
  front   Ann's pair of queens (Q-Q-2) beats Cat's ten high (T-7-4)
          a pair over high card: +1
  middle  Ann's kings full of threes (K-K-K-3-3) beats Cat's two pair, sixes and fives (6-6-5-5-3)
          a full house over two pair; royalty +1 (middle full house 1 in the tw-spade table): +1
  back    Ann's four nines (9-9-9-9-4) beats Cat's ace-high flush (A-K-Q-8-2)
          quads over a flush; royalty +4 (back quads 2 x 2 in the tw-spade table): +1
  rows    +1 +1 +1 = +3
  spade bonus: Cat holds 2s in the back: both hands' back royalties are doubled, won or lost
  royalties (row-bonus: a row's winner collects 1 + the table value; tw-spade table (2s doubles both hands' royalties in its row)): +5
  multiplier x2: Ann scoops Cat: doubled
  units   (+3 rows +5 royalties) x 2 = +16: Cat pays Ann 16
""",
        id="spade-row-row-bonus",
    ),
    pytest.param(
        "equalofc.toml",
        "four",
        (),
        "Ann against Dan",
        """\
Ann against Dan (ofc-equal):
  front   Ann's pair of queens (Q-Q-2) beats Dan's five high (5-3-2)
          a pair over high card: +1
  middle  Ann's kings full of threes (K-K-K-3-3) beats Dan's pair of fours (4-4-Q-T-8)
          a full house over a pair: +1
  back    Ann's four nines (9-9-9-9-4) beats Dan's two pair, jacks and sevens (J-J-7-7-A)
          quads over two pair: +1
  rows    +1 +1 +1 = +3
  bonus   Ann wins all three rows (1-6 scoop): +3
  royalties (paid by holder, ofc-equal table): Ann front QQ 7 + middle full house 12 + back quads 10 = 29; Dan none; net +29
  home run: Ann scoops every opponent (at least 2), split equally (home_run_split): each opponent pays its own units u and T / n more; u = Ben 29, Cat 31, Dan 35; T = 95, n = 3
  split   T / n = 95 / 3 rounded half up to 0.01 = 31.67; Dan pays 35 + 31.67 = 66.67: +31.67
  units   +3 rows +3 bonus +29 royalties +31.67 split = +66.67: Dan pays Ann 66.67
""",
        id="equal-split-rounded",
    ),
    pytest.param(
        "maubinh",
        "dragon-pairs",
        (),
        "Dra against Dee",
        """\
Dra against Dee (maubinh):
  Dra's dragon (12) against Dee's six pairs (6): each collects its own value (natural_vs_natural net): 12 - 6 = +6
  natural +6; naturals are never multiplied
  units   natural +6 = +6: Dee pays Dra 6
""",
        id="net",
    ),
    pytest.param(
        "maubinh",
        "trips-pairs",
        (),
        "Fin against Dee",
        """\
Fin against Dee (maubinh):
  Fin's cards make five pairs trips (6), six pairs (6): the most valuable is claimed, and of equal values the first in natural_rank: five pairs trips
  Fin's five pairs trips (6) against Dee's six pairs (6): each collects its own value (natural_vs_natural net): 6 - 6 = 0
  natural 0; naturals are never multiplied
  units   natural 0 = 0: nothing changes hands
""",
        id="net-equal-values",
    ),
    pytest.param(
        "shisanshui-old",
        "trips-pairs",
        (),
        "Fin against Dee",
        """\
Fin against Dee (shisanshui-old):
  Fin's cards make five pairs trips (5), six pairs (6): the first of them in natural_rank is claimed (natural_order rank): five pairs trips
  Fin's five pairs trips (5) against Dee's six pairs (6): five pairs trips is earlier in natural_rank (natural_order rank), so Fin's natural ranks higher and collects its own value
  natural +5; naturals are never multiplied
  units   natural +5 = +5: Dee pays Fin 5
""",
        id="rank-order",
    ),
    pytest.param(
        "ssvalue.toml",
        "trips-pairs",
        (),
        "Fin against Dee",
        """\
Fin against Dee (ss-value):
  both six pairs: Fin's pairs K-J-9-7-5-3, Dee's Q-T-8-6-4-2: Fin is higher
  natural +6; naturals are never multiplied
  units   natural +6 = +6: Dee pays Fin 6
""",
        id="value-order",
    ),
    pytest.param(
        "shisanshui-old",
        "two-trips-pairs",
        (),
        "Fin against Gil",
        """\
Fin against Gil (shisanshui-old):
  Fin's cards make five pairs trips (5), six pairs (6): the first of them in natural_rank is claimed (natural_order rank): five pairs trips
  Gil's cards make five pairs trips (5), six pairs (6): the first of them in natural_rank is claimed (natural_order rank): five pairs trips
  both five pairs trips: Fin's trips 3 and pairs K-J-9-7-5, Gil's trips 4 and pairs K-J-9-7-5 (the trips first, then the pairs): Gil is higher
  natural -5; naturals are never multiplied
  units   natural -5 = -5: Fin pays Gil 5
""",
        id="five-pairs-trips-tie",
    ),
    pytest.param(
        "mbhigher.toml",
        "runs",
        (),
        "Pat against Quin",
        """\
Pat against Quin (mb-higher):
  both five consecutive pairs: Pat's pairs run 4 to 8, Quin's 5 to 9 (the top rank of the highest run): Quin is higher
  natural -6; naturals are never multiplied
  units   natural -6 = -6: Pat pays Quin 6
""",
        id="five-consecutive-pairs-tie",
    ),
    pytest.param(
        "capsapairs.toml",
        "odd-aces",
        (),
        "Hana against Ivy",
        """\
Hana against Ivy (capsa-pairs):
  both six pairs: Hana's pairs Q-T-8-6-4-2, Ivy's Q-T-8-6-4-2; the highest card decides (natural_suit_tiebreak): Ivy's As over Hana's Ah (spades over hearts): Ivy is higher
  natural -3; naturals are never multiplied
  units   natural -3 = -3: Hana pays Ivy 3
""",
        id="suit-tiebreak",
    ),
    pytest.param(
        "capsadragon.toml",
        "dragons",
        (),
        "D1 against D2",
        """\
D1 against D2 (capsa-dragon):
  both dragon: docs/rules.md gives no tie-break; the highest card decides (natural_suit_tiebreak): D2's As over D1's Ah (spades over hearts): D2 is higher
  natural -13; naturals are never multiplied
  units   natural -13 = -13: D1 pays D2 13
""",
        id="suit-tiebreak-no-key",
    ),
    pytest.param(
        "maubinh",
        "false",
        (),
        "Amy against Bob",
        """\
Amy against Bob (maubinh):
  Amy declares Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d, which make none of the maubinh naturals: a false claim
  Amy pays Bob the false_claim, 6; no rows are played
  natural -6; false claims and naturals are never multiplied
  units   natural -6 = -6: Amy pays Bob 6
""",
        id="false-claim",
    ),
    pytest.param(
        "cap40.toml",
        "three",
        (),
        "Ann against Cat",
        """\
Ann against Cat (shisanshui-cap):
  front   Ann's pair of queens (Q-Q-2) beats Cat's ten high (T-7-4)
          a pair over high card: +1
  middle  Ann's kings full of threes (K-K-K-3-3) beats Cat's two pair, sixes and fives (6-6-5-5-3)
          a full house over two pair; royalty +1 (middle full house 2 in the shisanshui-cap table): +1
  back    Ann's four nines (9-9-9-9-4) beats Cat's ace-high flush (A-K-Q-8-2)
          quads over a flush; royalty +3 (back quads 4 in the shisanshui-cap table): +1
  rows    +1 +1 +1 = +3
  royalties (row-value: a row's winner collects the table value instead of 1; shisanshui-cap table): +4
  multiplier x4: Ann scoops Cat: doubled; home run: Ann scoops every opponent (at least 2): doubled again
  units   (+3 rows +4 royalties) x 4 = +28: Cat owes Ann 28
  cut     cap 40 on each player's net over this deal: before this payment Ann stands at +28 and Cat at 0, so at most min(40 - 28, 40 - 0) = 12 can pass: Cat pays Ann 12, not 28
""",
        id="cap",
    ),
    pytest.param(
        "stakes30.toml",
        "three",
        (),
        "Ann against Cat",
        """\
Ann against Cat (ru30):
  front   Ann's pair of queens (Q-Q-2) beats Cat's ten high (T-7-4)
          a pair over high card: +1
  middle  Ann's kings full of threes (K-K-K-3-3) beats Cat's two pair, sixes and fives (6-6-5-5-3)
          a full house over two pair: +1
  back    Ann's four nines (9-9-9-9-4) beats Cat's ace-high flush (A-K-Q-8-2)
          quads over a flush: +1
  rows    +1 +1 +1 = +3
  bonus   Ann wins all three rows (1-6 scoop): +3
  royalties (paid by holder, ru30 table): Ann front QQ 7 + middle full house 12 + back quads 10 = 29; Cat back flush 4 = 4; net +25
  units   +3 rows +3 bonus +25 royalties = +31: Cat owes Ann 31
  cut     table stakes: a payment is the least of what is owed and the two stacks; Cat holds 30 and Ann 59: min(31, 30, 59) = 30: Cat pays Ann 30, not 31
""",
        id="stack",
    ),
    pytest.param(
        "stakes30.toml",
        "three",
        (),
        "Ben against Cat",
        """\
Ben against Cat (ru30):
  front   Ben's pair of jacks (J-J-5) beats Cat's ten high (T-7-4)
          a pair over high card: +1
  middle  Ben's two pair, tens and eights (T-T-8-8-2) beats Cat's two pair, sixes and fives (6-6-5-5-3)
          tens over sixes: +1
  back    Cat's ace-high flush (A-K-Q-8-2) beats Ben's two pair, aces and sixes (A-A-6-6-7)
          a flush over two pair: -1
  rows    +1 +1 -1 = +1
  bonus   0 (no scoop)
  royalties (paid by holder, ru30 table): Ben front JJ 6 = 6; Cat back flush 4 = 4; net +2
  units   +1 rows +2 royalties = +3: Cat owes Ben 3
  cut     table stakes: a payment is the least of what is owed and the two stacks; Cat holds 0 and Ben 1: min(3, 0, 1) = 0: Cat pays Ben 0, not 3
""",
        id="stack-empty",
    ),
]

EXPLAINED += [
    pytest.param(
        "maubinh",
        "false-natural",
        (),
        "A against C",
        """\
A against C (maubinh):
  A declares Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d, which make none of the maubinh naturals: a false claim
  C claims six pairs (6): it collects its own value instead
  natural -6; false claims and naturals are never multiplied
  units   natural -6 = -6: A pays C 6
""",
        id="false-claim-against-a-natural",
    ),
    pytest.param(
        "maubinh",
        "false-natural",
        (),
        "A against B",
        """\
A against B (maubinh):
  both declare a natural their cards do not make: two false claims settle at 0
  units   natural 0 = 0: nothing changes hands
""",
        id="two-false-claims",
    ),
    pytest.param(
        # The cap is money: 28 units at 2 a unit owe 56; Ben's 40 already took Ann to the cap.
        "cap40.toml",
        "three",
        ("--stake", "2"),
        "Ann against Cat",
        """\
Ann against Cat (shisanshui-cap):
  front   Ann's pair of queens (Q-Q-2) beats Cat's ten high (T-7-4)
          a pair over high card: +1
  middle  Ann's kings full of threes (K-K-K-3-3) beats Cat's two pair, sixes and fives (6-6-5-5-3)
          a full house over two pair; royalty +1 (middle full house 2 in the shisanshui-cap table): +1
  back    Ann's four nines (9-9-9-9-4) beats Cat's ace-high flush (A-K-Q-8-2)
          quads over a flush; royalty +3 (back quads 4 in the shisanshui-cap table): +1
  rows    +1 +1 +1 = +3
  royalties (row-value: a row's winner collects the table value instead of 1; shisanshui-cap table): +4
  multiplier x4: Ann scoops Cat: doubled; home run: Ann scoops every opponent (at least 2): doubled again
  units   (+3 rows +4 royalties) x 4 = +28; money +28 x 2 = +56: Cat owes Ann 56
  cut     cap 40 on each player's net over this deal: before this payment Ann stands at +40 and Cat at 0, \
so at most min(40 - 40, 40 - 0) = 0 can pass: Cat pays Ann 0, not 56
""",
        id="cap-in-money",
    ),
    pytest.param(
        # Buy-in 2: Ben's surrender to Ann empties his stack, Cat's 2 go to Ann, so Ben owes Cat 2 from nothing.
        "pineapple-ru",
        "surrender",
        ("--buy-in", "2"),
        "Ben against Cat",
        """\
Ben against Cat (pineapple-ru):
  Ben surrenders: pays Cat the pineapple-ru surrender, 2; nothing else is paid
  units   surrender -2 = -2: Ben owes Cat 2
  cut     table stakes: a payment is the least of what is owed and the two stacks; Ben holds 0 and Cat 0: \
min(2, 0, 0) = 0: Ben pays Cat 0, not 2
""",
        id="stack-surrender",
    ),
]

JSON_FACTS = [
    pytest.param(
        "cap40.toml",
        "three",
        (),
        ("pairs", 1),
        {
            "a": "Ann",
            "b": "Cat",
            "decided_by": "rows",
            "rows": [1, 1, 1],
            "row_units": 3,
            "bonus": 0,
            "royalties": 4,
            "multiplier": 4,
            "natural": 0,
            "surrender": 0,
            "units": 28,
            "stake": 1,
            "amount": 12,
            "owed": 28,
            "cut": "cap",
        },
        id="cut-cap",
    ),
    pytest.param(
        "stakes30.toml",
        "three",
        (),
        ("pairs", 2),
        {
            "a": "Ben",
            "b": "Cat",
            "decided_by": "rows",
            "rows": [1, 1, -1],
            "row_units": 1,
            "bonus": 0,
            "royalties": 2,
            "multiplier": 1,
            "natural": 0,
            "surrender": 0,
            "units": 3,
            "stake": 1,
            "amount": 0,
            "owed": 3,
            "cut": "stack",
        },
        id="cut-stack",
    ),
    pytest.param("stakes30.toml", "three", (), ("stacks",), {"Ann": 89, "Ben": 1, "Cat": 0}, id="stacks"),
    pytest.param(
        "pineapple-ru", "three", ("--buy-in", "30"), ("stacks",), {"Ann": 89, "Ben": 1, "Cat": 0}, id="stacks-buy-in"
    ),
    pytest.param("pusoy", "three", ("--banker", "Ben"), ("banker",), "Ben", id="banker"),
    pytest.param(
        "capsa",
        "suits",
        (),
        ("pairs", 0),
        {
            "a": "Amy",
            "b": "Bea",
            "decided_by": "rows",
            "rows": [1, 1, 1],
            "row_units": 3,
            "bonus": 0,
            "royalties": 0,
            "multiplier": 2,
            "natural": 0,
            "surrender": 0,
            "units": 6,
            "stake": 1,
            "amount": 6,
            "notes": ["suit", "", ""],
        },
        id="notes-suit",
    ),
    pytest.param(
        "bankties.toml",
        "ties",
        (),
        ("pairs", 0),
        {
            "a": "Amy",
            "b": "Bob",
            "decided_by": "rows",
            "rows": [1, 1, 1],
            "row_units": 3,
            "bonus": 0,
            "royalties": 0,
            "multiplier": 2,
            "natural": 0,
            "surrender": 0,
            "units": 6,
            "stake": 1,
            "amount": 6,
            "notes": ["banker", "banker", ""],
        },
        id="notes-banker",
    ),
    pytest.param(
        "fouls24.toml",
        "foul",
        (),
        ("pairs", 0),
        {
            "a": "Amy",
            "b": "Flo",
            "decided_by": "rows",
            "rows": [-1, -1, 1],
            "row_units": -1,
            "bonus": -1,
            "royalties": 0,
            "multiplier": 1,
            "natural": 0,
            "surrender": 0,
            "units": 2,
            "stake": 1,
            "amount": 2,
            "penalty": 4,
        },
        id="penalty",
    ),
    pytest.param(
        "equalofc.toml",
        "four",
        (),
        ("pairs", 0),
        {
            "a": "Ann",
            "b": "Ben",
            "decided_by": "rows",
            "rows": [1, 1, 1],
            "row_units": 3,
            "bonus": 3,
            "royalties": 23,
            "multiplier": 1,
            "natural": 0,
            "surrender": 0,
            "units": Decimal("60.67"),
            "stake": 1,
            "amount": Decimal("60.67"),
            "split": Decimal("31.67"),
        },
        id="split",
    ),
    pytest.param("maubinh", "false", (), ("players", 0, "natural"), "false-claim", id="false-claim-player"),
    pytest.param(
        "maubinh",
        "false",
        (),
        ("pairs", 0),
        {
            "a": "Amy",
            "b": "Bob",
            "decided_by": "natural",
            "rows": [0, 0, 0],
            "row_units": 0,
            "bonus": 0,
            "royalties": 0,
            "multiplier": 1,
            "natural": -6,
            "surrender": 0,
            "units": -6,
            "stake": 1,
            "amount": -6,
        },
        id="false-claim-pair",
    ),
    pytest.param(
        "brokentw.toml",
        "broken",
        (),
        ("players", 0, "royalties"),
        {"front": 3, "middle": 0, "back": 0, "broken": 2, "total": 5},
        id="broken",
    ),
    pytest.param(
        "brokentw.toml",
        "dragons",
        (),
        ("players", 0, "royalties"),
        {"front": 0, "middle": 0, "back": 0, "broken": 0, "total": 0},
        id="broken-none",
    ),
    pytest.param("capsapairs.toml", "odd-aces", (), ("players", 1, "natural_high"), "As", id="natural-high"),
]


# The table ---------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "deal", "options", "expected"), TABLES)
def test_table_shows_what_decided(here, rules, deal, options, expected):
    assert score(here, rules, deal, *options) == expected


@pytest.mark.parametrize(
    ("rules", "deal"),
    [
        pytest.param("maubinh", "false-four", id="false-claim-and-foul"),
        pytest.param("equalofc.toml", "four", id="equal-split"),
        pytest.param("shisanshui", "four", id="home-run"),
        pytest.param("capsa", "four", id="suits"),
    ],
)
def test_four_players_fit_80_columns(here, rules, deal):
    lines = score(here, rules, deal).splitlines()
    # The rules line carries the preset's own summary; everything drawn here fits.
    assert [line for line in lines[1:] if len(line) > 80] == []


def test_explain_follows_the_table(here):
    out = score(here, "cap40.toml", "three", "--explain")
    assert "\nCut: Cat pays Ann 12, not 28 (cap 40: Ann at +40)\n\nWhy, pair by pair:\n\n" in out


# --explain --------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "deal", "options", "heading", "expected"), EXPLAINED)
def test_explain_gives_the_arithmetic(here, rules, deal, options, heading, expected):
    assert block(score(here, rules, deal, "--explain", *options), heading) == expected


# JSON ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "deal", "options", "path", "expected"), JSON_FACTS)
def test_json_carries_the_same_facts(here, rules, deal, options, path, expected):
    data = json.loads(score(here, rules, deal, "--format", "json", *options), parse_float=Decimal)
    for key in path:
        data = data[key]
    assert data == expected


OLD_PAIR_KEYS = [
    "a",
    "b",
    "decided_by",
    "rows",
    "row_units",
    "bonus",
    "royalties",
    "multiplier",
    "natural",
    "surrender",
    "units",
    "stake",
    "amount",
]


@pytest.mark.parametrize(
    ("rules", "deal", "top", "pair", "royalties"),
    [
        pytest.param("2-4", "suits", [], [], ["front", "middle", "back", "total"], id="2-4"),
        pytest.param("ofc", "three", [], [], ["front", "middle", "back", "total"], id="ofc"),
        pytest.param("capsa", "suits", [], ["notes"], ["front", "middle", "back", "total"], id="capsa"),
        pytest.param("pusoy", "three", ["banker"], ["notes"], ["front", "middle", "back", "total"], id="pusoy"),
        pytest.param(
            "pineapple-ru", "three", ["stacks"], ["owed", "cut"], ["front", "middle", "back", "total"], id="ru"
        ),
        pytest.param("fouls24.toml", "foul", [], ["penalty"], ["front", "middle", "back", "total"], id="foul"),
        pytest.param("equalofc.toml", "four", [], ["split"], ["front", "middle", "back", "total"], id="split"),
        pytest.param("brokentw.toml", "broken", [], [], ["front", "middle", "back", "broken", "total"], id="broken"),
    ],
)
def test_json_fields_appear_under_the_rules_that_make_them(here, rules, deal, top, pair, royalties):
    """A rule set without the settings keeps the shape of before; each fact
    appears where its setting is played."""
    options = ("--buy-in", "100") if rules == "pineapple-ru" else ()
    data = json.loads(score(here, rules, deal, "--format", "json", *options))
    assert list(data) == [
        "format_version",
        "rules",
        "stake",
        *[key for key in top if key == "banker"],
        "players",
        "pairs",
        "totals",
    ] + [key for key in top if key == "stacks"]
    assert list(data["pairs"][0]) == OLD_PAIR_KEYS + pair
    assert list(data["players"][0]["royalties"]) == royalties


def test_json_false_claim_player(here):
    data = json.loads(score(here, "maubinh", "false", "--format", "json"))
    amy = data["players"][0]
    assert (amy["hand"], amy["rows"], amy["natural"], amy["natural_units"]) == (None, None, "false-claim", 6)
    assert [pair["natural"] for pair in data["pairs"]] == [-6, -6, 0]


def test_csv_names_a_false_claim(here):
    out = score(here, "maubinh", "false", "--format", "csv")
    assert out.splitlines()[1].startswith("Amy,Ks Kd 4c 9h 9c 5d 5s 2c Ah Ad Ac 7s 7d,no,,,,false-claim,no,0,-12,-12,")


# check --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "hand", "line"),
    [
        pytest.param(
            "brokentw.toml",
            "7s 7h 7d / 3c 4d 5h 6s 7c / Kh Qh Th 8h 2h",
            "Royalties: 5 (rows 3, broken 2)\n",
            id="broken",
        ),
        pytest.param(
            "fouls24.toml",
            "3s 3h 3d / Th Tc 8d 8s 4d / Kh Qh Jh 6h 2h",
            "FOUL: front three threes (3-3-3) beats middle two pair, tens and eights (T-T-8-8-4); "
            "a fouled hand pays a penalty, plays its rows and earns no royalties\n",
            id="foul-plays",
        ),
        pytest.param(
            "pusoy",
            "Qc 8h 2c / Kd Jd 9d 6d 3d / Ks Js 9s 6s 3s",
            "FOUL: middle king-high flush (K-J-9-6-3) beats back king-high flush (K-J-9-6-3) on suits; "
            "a fouled hand loses every row and earns no royalties\n",
            id="suit-foul",
        ),
    ],
)
def test_check_shows_broken_royalties_and_foul_penalties(here, rules, hand, line):
    assert line in ok("check", "--rules", rules, hand)


def test_check_json_broken_royalties(here):
    data = json.loads(
        ok("check", "--rules", "brokentw.toml", "--format", "json", "7s 7h 7d / 3c 4d 5h 6s 7c / Kh Qh Th 8h 2h")
    )
    assert data["royalties"] == {"front": 3, "middle": 0, "back": 0, "broken": 2, "total": 5}


# Sessions -----------------------------------------------------------------------------

SESSION = DEALS["three"] + "\n" + DEALS["three"]


@pytest.mark.parametrize(
    ("rules", "expected"),
    [
        pytest.param(
            "pusoy",
            # Both deals have the same hands, so the same identity (a digest of the deal's own lines);
            # three players leave the notes no room beside the cells: they go under each deal.
            "Deal  Line  Id        Ann          Ben          Cat\n"
            "   1     1  42bb50a9  +24 (+24)    -12 (-12)    -12 (-12)\n"
            "                      Ann banks\n"
            "   2     5  42bb50a9  +12 (+36)    -11 (-23)    -1 (-13)\n"
            "                      Ben banks\n",
            id="banker-rotation",
        ),
        pytest.param(
            "capsession.toml",
            # Money differs from units (the cap cuts it): each deal has the units on its first line,
            # the money on its second; the notes go under the deal and wrap between two notes to keep
            # to 80 columns.
            "Deal  Line  Id        Ann          Ben          Cat\n"
            "   1     1  42bb50a9  +56 (+56)    -27 (-27)    -29 (-29)\n"
            "                      +40 (+40)    -27 (-27)    -13 (-13)\n"
            "                      Cat pays Ann 12, not 28 (session cap 40: Ann at +40)\n"
            "   2     5  42bb50a9  +56 (+112)   -27 (-54)    -29 (-58)\n"
            "                      0 (+40)      +1 (-26)     -1 (-14)\n"
            "                      Ben pays Ann 0, not 28 (session cap 40: Ann at +40);\n"
            "                      Cat pays Ann 0, not 28 (session cap 40: Ann at +40)\n",
            id="session-cap",
        ),
        pytest.param(
            "equalofc.toml",
            # The notes go under the deal (no room beside the cells), within 80 columns.
            "Deal  Line  Id        Ann          Ben          Cat\n"
            "   1     1  42bb50a9  +120 (+120)  -56 (-56)    -64 (-64)\n"
            "                      Ann FL next (13); Ann home run split +30 each\n"
            "   2     5  42bb50a9  +120 (+240)  -56 (-112)   -64 (-128)\n"
            "                      Ann FL stays (13); Ann home run split +30 each\n",
            id="equal-split",
        ),
    ],
)
def test_session_lines_note_the_banker_splits_and_cuts(here, rules, expected):
    (here / "night.txt").write_text(SESSION, encoding="utf-8")
    assert expected in ok("session", "--rules", rules, "night.txt")


def test_session_notes_a_false_claim(here):
    (here / "night.txt").write_text(DEALS["false"], encoding="utf-8")
    out = ok("session", "--rules", "maubinh", "night.txt")
    assert (
        "   1     1  525b8ff5  -12 (-12)    +7 (+7)      +5 (+5)\n                      Amy false claim (pays 6)\n"
    ) in out


def test_session_explain_shows_the_cut(here):
    (here / "night.txt").write_text(SESSION, encoding="utf-8")
    out = ok("session", "--rules", "capsession.toml", "--explain", "night.txt")
    assert (
        "        units   (+3 rows +4 royalties) x 4 = +28: Ben owes Ann 28\n"
        "        cut     cap 40 on each player's net over the session so far: before this payment Ann stands at "
        "+40 and Ben at -27, so at most min(40 - 40, 40 - 27) = 0 can pass: Ben pays Ann 0, not 28\n"
    ) in out


@pytest.mark.parametrize(
    ("rules", "text", "options"),
    [
        pytest.param("pusoy", SESSION, (), id="banker-rotation"),
        pytest.param("capsession.toml", SESSION, (), id="session-cap"),
        pytest.param("stakes30.toml", DEALS["three"], (), id="stacks"),
        pytest.param("pineapple-ru", DEALS["three"], ("--buy-in", "40"), id="buy-in"),
        pytest.param("equalofc.toml", DEALS["four"] + "\n" + DEALS["four"], (), id="split"),
        pytest.param("fouls24.toml", DEALS["foul"], ("--stake", "0.25"), id="penalty"),
        pytest.param("brokentw.toml", DEALS["broken"] + "\n" + DEALS["dragons"], (), id="broken"),
        pytest.param("capsapairs.toml", DEALS["odd-aces"] + "\n" + DEALS["suits"], (), id="suits"),
        pytest.param("bankties.toml", DEALS["ties"], (), id="banker-ties"),
        pytest.param("maubinh", DEALS["false"], (), id="false-claim"),
    ],
)
def test_json_lines_carry_what_the_json_carries(here, rules, text, options):
    """Each JSON Lines deal (written from templates) is the session JSON's deal."""
    (here / "night.txt").write_text(text, encoding="utf-8")
    whole = json.loads(ok("session", "--rules", rules, "--format", "json", *options, "night.txt"), parse_float=Decimal)
    lines = ok("session", "--rules", rules, "--format", "jsonl", *options, "night.txt").splitlines()
    # Each line is a deal of the JSON, with the format's version first.
    assert [json.loads(line, parse_float=Decimal) for line in lines[:-1]] == [
        {"format_version": whole["format_version"], **deal} for deal in whole["deals"]
    ]


@pytest.mark.parametrize(
    ("rules", "deal", "stacks"),
    [
        pytest.param("pusoy", "three", None, id="banker"),
        pytest.param("stakes30.toml", "three", None, id="stacks"),
        pytest.param("pineapple-ru", "three", 25, id="buy-in"),
        pytest.param("cap40.toml", "three", None, id="cap"),
        pytest.param("equalofc.toml", "four", None, id="split"),
        pytest.param("fouls24.toml", "foul", None, id="penalty"),
        pytest.param("brokentw.toml", "broken", None, id="broken"),
        pytest.param("capsapairs.toml", "odd-aces", None, id="natural-high"),
        pytest.param("bankties.toml", "ties", None, id="banker-ties"),
        pytest.param("maubinh", "false", None, id="false-claim"),
    ],
)
@pytest.mark.parametrize("stake", [1, Decimal("0.25")], ids=["whole", "decimal"])
def test_deal_line_templates_equal_the_generic_writer(here, rules, deal, stacks, stake):
    from cpscore.deal import build_deal, entries_from_text
    from cpscore.rules import resolve_rules
    from cpscore.scoring import Standing, kernel, settlement_of
    from cpscore.session import DealResult, DealText, deal_digest
    from cpscore.session_views import compact_json, deal_data, deal_line

    chosen = resolve_rules(rules)
    entries = entries_from_text(DEALS[deal], "deal")
    played = build_deal(entries, chosen)
    standing = None if stacks is None else Standing(stacks=dict.fromkeys(played.owners(), stacks))
    settlement = settlement_of(played, chosen, stake, kernel(played.seats, chosen, stake, None, (), None, standing))
    running = {owner.name: (owner.units, owner.amount) for owner in settlement.owners}
    digest = deal_digest(DealText(3, 9, list(entries)))
    for points in (None, dict.fromkeys(running, 1)):
        result = DealResult(3, 9, settlement, running, points, digest=digest)
        assert deal_line(result) == compact_json(deal_data(result))
