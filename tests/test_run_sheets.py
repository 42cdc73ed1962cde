"""Körschemat (plump_teach.course.run_sheets): varje lektion har ett körschema med alla delar, minuterna stämmer,
arbetsbladens svar är motorns, och inga husregler finns på grundkursens blad.

Run sheets for every pupil lesson: all parts present, phase minutes add up to the lesson's minutes (40-60, and equal to
the minutes in the pupil notebook), worksheet answers recomputed from the engine, no house rule on a core lesson's sheet.
"""
import json
import random
import re

import pytest

from plump_teach.course.build import pupil_dir
from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.course.run_sheets import RUN_SHEETS, run_sheet
from plump_teach.course.run_sheet_pages import lesson_worksheet, lgr22_page, run_sheet_pages, run_sheets_page, setup_page
from plump_teach.course.trial_deals import BismarckSheetTask, Puzzles, RotationTask, SheetTask, ace_experiment
from plump_teach.course.teacher import suit_words
from plump_teach.course.worksheets import answers_of, for_pupils
from plump_teach.engine.bismarck import MODES, bismarck_score, normal_tricks, TRICKS
from plump_teach.engine.cards import FULL_DECK, parse_cards
from plump_teach.engine.tricks import legal_cards, trick_winner
from plump_teach.engine.plump_rules import (PlumpError, PlumpRules, bidding_order, dealer_of_deal, deal_schedule,
                                            forbidden_bid, forehand, legal_bids, score)

LESSONS = [pytest.param(l, id=l.file) for l in PUPIL_LESSONS]


@pytest.mark.parametrize("lesson", LESSONS)
def test_every_lesson_has_a_full_run_sheet(lesson):
    s = run_sheet(lesson.file)
    assert s is run_sheet(lesson.number) and s.lesson == lesson
    assert len(s.phases) >= 4 and all(p.minutes > 0 and p.title and p.what and p.groups for p in s.phases)
    assert 40 <= s.minutes <= 60 and s.minutes == sum(p.minutes for p in s.phases)
    assert all(p.minutes <= 25 for p in s.phases)                 # ingen del längre än 25 minuter
    assert s.phases[-1].title == "Utgångsbiljett"
    assert len(s.misconceptions) >= 3 if not lesson.optional else len(s.misconceptions) >= 2
    assert all(t.startswith(("tror", "lägger", "räknar", "skriver", "ger ", "glömmer", "blandar", "tar ", "spelar",
                             "slutar", "trycker", "vill", "bjuder")) for t, _ in s.misconceptions)
    assert s.support and s.extension and s.assess and s.unplugged and s.tasks
    assert 1 <= len(s.exit_ticket) <= 3 and all(q.strip() and a.strip() for q, a in s.exit_ticket)


def test_minutes_agree_with_the_pupil_lesson():
    "Körschemats minuter är desamma som lektionens egna (metadata minutes i cellen Att prata om), för lektionerna som finns."
    folder = pupil_dir()
    if folder is None: pytest.skip("nbs/elev finns inte")
    for l in PUPIL_LESSONS:
        f = folder / l.file
        if not f.exists(): continue
        cells = json.loads(f.read_text(encoding='utf-8'))['cells']
        meta = [c['metadata'].get('plump_teach', {}) for c in cells if c['cell_type'] == 'markdown']
        minutes = next((m['minutes'] for m in meta if 'minutes' in m), None)
        if minutes is not None: assert minutes == RUN_SHEETS[l.file].minutes, l.file


def test_decks_and_the_real_cards_lesson():
    six, seven = run_sheet(6), run_sheet(7)
    assert six.minutes == 45 and any(p.decks and '3–5' in p.groups for p in six.phases)
    assert any(isinstance(t, SheetTask) and t.cards == (5, 4, 3, 2, 1) for t in six.tasks)
    assert any('dator' in p.groups for p in seven.phases) and 'Utan datorer' in seven.unplugged
    for n in (2, 3, 4, 5, 8, 9, 10, 11): assert run_sheet(n).deck_phases, n     # korten kommer fram i lektionen
    page = run_sheets_page()
    assert page.count('Kortlekarna fram</span>') == sum(len(s.deck_phases) for s in RUN_SHEETS.values())
    for s in RUN_SHEETS.values():
        for t, d in s.misconceptions: assert f"<b>Eleven {t}.</b> {suit_words(d)}" in page
        for q, a in s.exit_ticket: assert suit_words(q) in page and suit_words(a) in page


def _puzzles(lesson):
    return [p for t in run_sheet(lesson).tasks if isinstance(t, Puzzles) for p in t.puzzles()]


@pytest.mark.parametrize("lesson", [l for l in PUPIL_LESSONS if not l.optional], ids=lambda l: l.file)
def test_no_house_rule_on_a_core_lesson_sheet(lesson):
    for p in _puzzles(lesson.file):
        assert p.kind != 'blind_card'
        rules = p.data.get('rules')
        assert rules is None or not rules.changed(), (p.kind, p.number)
        assert 'usregel' not in p.situation, (p.kind, p.number)
    for t in run_sheet(lesson.file).tasks:
        if isinstance(t, SheetTask): assert not t.rules.changed()
    assert 'usregel' not in lesson_worksheet(lesson) and 'usregel' not in lesson_worksheet(lesson, key=True)


def test_the_extra_lesson_has_its_house_rules():
    html = lesson_worksheet(12)
    assert 'Kortet i pannan' in html and 'nollbud ger 5' in html.lower()


@pytest.mark.parametrize("lesson", LESSONS)
def test_worksheet_answers_are_the_engines(lesson):
    "Facit har pusslets egna rätta bokstäver; protokoll, förbjudna bud, normalen och Bismarcks poäng räknas om här."
    ws, key = lesson_worksheet(lesson), lesson_worksheet(lesson, key=True)
    assert 'Namn:' in ws and 'Namn:' not in key and 'Klicka' not in ws
    for p in _puzzles(lesson.file):
        assert for_pupils(p.situation) in ws
        letters = answers_of(p)
        assert letters and all(p.check(p.options["ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(l)].key).correct for l in letters)
        assert f"{letters[0]} (" in key
    for t in run_sheet(lesson.file).tasks:
        if isinstance(t, SheetTask):
            for i, d in enumerate(t.deals(), 1):
                order = bidding_order(d['dealer'], t.players, t.rules)
                earlier = [d['bids'][s] for s in order[:-1]]
                assert d['bids'][order[-1]] in legal_bids(d['cards'], earlier, t.players, t.rules)
                assert sum(d['tricks']) == d['cards']
                banned = forbidden_bid(d['cards'], earlier)
                assert f"Giv {i}: {banned if banned is not None else 'inget'}" in key
                for b, k in zip(d['bids'], d['tricks']):
                    pts = score(b, k, d['cards'], t.rules)
                    if b != k: assert pts == 0
                    elif not t.rules.changed(): assert f"<b>1</b>{b}" in key and pts == 10 + b
            totals = [sum(score(b, k, d['cards'], t.rules) for d in t.deals()
                          for b, k in [(d['bids'][s], d['tricks'][s])]) for s in range(t.players)]
            assert "".join(f"<td><b>{x}</b></td>" for x in totals) in key
        if isinstance(t, BismarckSheetTask):
            for d in t.deals():
                assert sum(d['tricks']) == TRICKS
                pts = bismarck_score(d['mode'], d['tricks'], d['forehand'])
                assert sum(pts) == 0
                for s in range(3):
                    n = normal_tricks(d['mode'], s == d['forehand'])
                    shown = f"{pts[s]:+d}".replace('-', '−') if pts[s] else "0"
                    assert f"<td>{n} stick, <b>{shown}</b></td>" in key
        if isinstance(t, RotationTask):
            sched = deal_schedule(len(t.names))
            for i in range(t.deals):
                dealer = dealer_of_deal(t.first_dealer, i, len(t.names))
                row = (f'<tr><td class="n">{i + 1}</td><td class="n">{sched[i]}</td><td>{t.names[dealer]}</td>'
                       f'<td>{t.names[forehand(dealer, len(t.names))]}</td></tr>')
                assert row in key and (i == 0) == (row in ws)


def test_worksheets_cover_the_dealer_the_sheet_and_bismarck():
    kinds = lambda n: {p.kind for p in _puzzles(n)} | {type(t).__name__ for t in run_sheet(n).tasks}
    assert 'dealer_bid' in kinds(4) and 'dealer_bid' in kinds(8)
    assert 'SheetTask' in kinds(5) and 'SheetTask' in kinds(6)
    assert {'bismarck_discard', 'bismarck_modes'} <= kinds(10)
    assert {'bismarck_score', 'BismarckSheetTask'} <= kinds(11)
    for l in PUPIL_LESSONS:                  # lektionens egna pusselsorter finns på bladet
        assert set(l.kinds) <= kinds(l.number), l.file


def test_exit_tickets_use_the_engine():
    assert run_sheet(1).exit_ticket[0][1].startswith(f"{score(2, 2, 5)} poäng")
    assert run_sheet(4).exit_ticket[0][1].startswith(f"{forbidden_bid(5, [2, 1, 0])}:")
    assert run_sheet(11).exit_ticket[0][1].startswith("+2") and bismarck_score('trumf', [10, 4, 2], 0)[0] == 2
    assert run_sheet(12).exit_ticket[0][1].startswith(f"{score(0, 0, 5, PlumpRules(zero_scores_five=True))} poäng")


def test_lgr22_numbers_come_from_the_experiment():
    e = ace_experiment()
    assert e == ace_experiment() and e['deals'] == 1000
    assert e['trump_aces_won'] == e['trump_aces'] > 0 and 0 < e['aces_won'] < e['aces']
    html = lgr22_page()
    for a, b in [('ace_in_hand', 'deals'), ('hearts', 'deals'), ('aces_won', 'aces'), ('trump_aces_won', 'trump_aces')]:
        assert f"{e[a]} av {e[b]}" in html
    for words in ("Sannolikhet och statistik", "negativa heltal", "Procent", "värdegrund"): assert words in html


def test_setup_page_names_every_way_in():
    html = setup_page()
    for words in ("python3 run.py kurs", "plump-teach --ip 0.0.0.0", "tools/lite.py build", "Utan datorer",
                  'href="korschema.html"', 'href="lgr22.html"'):
        assert words in html
    assert set(run_sheet_pages()) >= {'kom-igang.html', 'korschema.html', 'lgr22.html', 'arbetsblad-06.html', 'facit-12.html'}


def test_run_sheet_bad_lesson():
    for bad in (0, 13, 'finns_inte.ipynb', None):
        with pytest.raises(PlumpError, match="ingen elevlektion"): run_sheet(bad)


def test_run_sheet_pages_are_swedish():
    "Stavningen på körschemats sidor, med samma kontroll som resten av kursen (hunspell sv_SE och tests/ordlista.txt)."
    from test_spelling import check, report
    texts = [(f"lärarmaterial: {name}", re.sub(r"<code>.*?</code>", " ", html).replace("Lgr22", "läroplanen"))
             for name, (_, html) in run_sheet_pages().items()]     # kommandon är ingen prosa; Lgr22 är läroplanens namn
    found = check(texts)
    assert not found, report(found)


# ---------------------------------------------------------------- domaren: körschemats påståenden mot motorn (issue 37)

_WORDS = {'två': 2, 'tre': 3, 'fyra': 4}


def _piles_from_words(text: str):
    """Tre högar efter körschemats egna ord om säkra och möjliga stick; domaren jämför dem med tumregelns `three_piles`.
    Orden som domaren förstår: 'ess', 'kungar med minst N kort i färgen', 'kort där alla högre kort i färgen finns i den
    egna handen' och 'damer, knektar och kungar som inte är säkra'."""
    sure_part = re.search(r"säkra stick \((.*?)\), möjliga \((.*?)\)", text)
    assert sure_part, f"körschemat säger inte vilka kort som är säkra och möjliga: {text}"
    sure, possible = sure_part.groups()
    king = re.search(r"kungar med minst (\w+) kort i färgen", sure)
    assert 'ess' in sure and king, f"otydligt vilka kungar som är säkra: {sure}"
    length = int(king.group(1)) if king.group(1).isdigit() else _WORDS[king.group(1)]
    own = "kort där alla högre kort i färgen finns i den egna handen" in sure
    assert possible == "damer, knektar och kungar som inte är säkra", possible

    def piles(hand):
        mine = set(hand)
        out = {'sure': [], 'possible': [], 'filler': []}
        for c in hand:
            above = [d for d in FULL_DECK if d.suit == c.suit and d.rank > c.rank]
            if c.rank == 14 or (c.rank == 13 and sum(d.suit == c.suit for d in hand) >= length) or \
                    (own and all(d in mine for d in above)):
                out['sure'].append(c)
            elif c.rank >= 11: out['possible'].append(c)
            else: out['filler'].append(c)
        return out
    return piles


def test_run_sheet_words_for_sure_and_possible_are_the_rule_of_thumb():
    "Lektion 8:s körschema: 'säkra' och 'möjliga' betyder samma kort som tumregelns högar (three_piles), i 2 000 händer."
    from plump_teach.bots.heuristics import three_piles
    sheet = run_sheet(8)
    piles = _piles_from_words(sheet.phases[1].what)
    rng = random.Random(37)
    for _ in range(2000):
        hand = rng.sample(FULL_DECK, rng.randint(1, 10))
        mine, rule = piles(hand), three_piles(hand)
        for k in ('sure', 'possible', 'filler'):
            assert sorted(map(str, mine[k])) == sorted(map(str, rule[k])), (k, [str(c) for c in hand])
    assert "avrundat nedåt" in sheet.phases[1].what             # tumregelns bud: hälften av de möjliga, nedåt
    fix = dict(sheet.misconceptions)["räknar varje dam och knekt som ett säkert stick"]
    assert "utom när alla högre kort i färgen finns i den egna handen" in fix
    assert three_piles("♣E ♣K ♣D")['sure'] == three_piles("♣E ♣K ♣D")['sure'][:3] and \
        len(three_piles("♣E ♣K ♣D")['sure']) == 3                 # damen med ess och kung på handen är säker


def _zero_holds(hand: str, deals: int = 1500, players: int = 4, seed: int = 8) -> float:
    """Hur ofta ett nollbud håller med handen `hand` (fast antal givar, fast frö): de andra korten slumpas, trumfen vänds
    ur resten, de andra spelar slumpvisa tillåtna kort och nollbudaren lägger sitt högsta kort som inte tar sticket
    (annars sitt lägsta). Reglerna är motorns: legal_cards och trick_winner."""
    mine = parse_cards(hand)
    rng = random.Random(seed)
    rest, k, held = [c for c in FULL_DECK if c not in mine], len(mine), 0
    low = lambda cs, trump: min(cs, key=lambda c: (c.suit == trump, c.rank))
    for _ in range(deals):
        rng.shuffle(rest)
        hands = [list(mine)] + [rest[i * k:(i + 1) * k] for i in range(players - 1)]
        trump = rest[(players - 1) * k].suit
        leader, taken = rng.randrange(players), 0
        for _ in range(k):
            trick = []
            for j in range(players):
                seat = (leader + j) % players
                legal = legal_cards(hands[seat], trick, trump=trump)
                if seat:
                    card = rng.choice(legal)
                else:
                    lose = [c for c in legal if trick and trick_winner([*trick, c], trump=trump) != len(trick)]
                    card = max(lose, key=lambda c: (c.suit == trump, c.rank)) if lose else low(legal, trump)
                trick.append(card)
                hands[seat].remove(card)
            leader = (leader + trick_winner(trick, trump=trump)) % players
            taken += leader == 0
        held += taken == 0
    return held / deals


# Påståenden om nollbudet som domaren känner: orden, och två händer där den första ska hålla nollan oftare.
ZERO_CLAIMS = {
    "Noll med många höga kort är svårt": ("♠2 ♥3 ♦4 ♣2 ♠5", "♠E ♥K ♦D ♣Kn ♠10"),
    # samma kort, bara de låga korten bredvid kungen byter färg: en färg med ett kort ger en chans att saka kungen
    "Har du ett högt kort hjälper en färg med bara ett eller två kort: när den är slut kan du saka det höga kortet":
        ("♠K ♠7 ♠5 ♥4 ♦3", "♠K ♠7 ♠5 ♥4 ♥3"),
}


def test_zero_bid_misconception_is_true():
    """Lektion 8:s körschema om nollbudet: varje mening är ett påstående som domaren känner och som stämmer i
    provgivarna (issue 37: 'noll med låga kort i långa färger är lättare' stod där, fast lektion 8 säger att en kort
    färg hjälper). Körs på ungefär tre sekunder."""
    said = dict(run_sheet(8).misconceptions)["tror att noll alltid är lätt"]
    sentences = [s.strip() for s in re.split(r"(?<=\.)\s+", said) if s.strip()]
    assert sentences
    for s in sentences:
        claim = s.rstrip('.')
        assert claim in ZERO_CLAIMS, f"domaren känner inte påståendet: {s}"
        better, worse = ZERO_CLAIMS[claim]
        assert _zero_holds(better) > _zero_holds(worse) + 0.04, claim
    assert any("ett eller två kort" in s for s in sentences)     # som lektion 8: en kort färg hjälper


def _sum_claims(text: str) -> list[tuple[bool, dict]]:
    """Meningarna om Bismarckradens summa i en text: (husregeln att de bortlagda korten är ett stick, summan per
    spelsätt). Varje 'alltid ... 0' måste säga att det gäller med grundreglerna."""
    text = re.sub(r"<[^>]+>", " ", text).replace("\n", " ")
    out = []
    for s in re.split(r"(?<=[.?])\s+", text):
        if not re.search(r"summa|tillsammans|Kontroll|som ett stick", s) or not re.search(r"\b0\b|[+−]1", s): continue
        if "grundreglerna" in s and re.search(r"alltid (?:är )?0|alltid 0|blir 0", s):
            out.append((False, {m: 0 for m in MODES}))
        m = re.search(r"som ett stick[^.]*?blir (?:summan|den) ([+−]\d+), i pass ([+−]\d+)", s)
        if m:
            v, p = (int(x.replace('−', '-')) for x in m.groups())
            out.append((True, {mode: p if mode == 'pass' else v for mode in MODES}))
        if re.search(r"alltid (?:är |blir )?0\b|alltid 0", s) and "grundreglerna" not in s:
            out.append((None, {}))                       # 'alltid 0' utan villkor: falskt med husregeln
    return out


def _check_sum_claims(claims):
    splits = [(a, b, TRICKS - a - b) for a in range(TRICKS + 1) for b in range(TRICKS + 1 - a)]
    for house, sums in claims:
        assert house is not None, "'alltid 0' utan att säga att det gäller med grundreglerna"
        for mode in MODES:
            for t in splits:
                for fh in range(3):
                    assert sum(bismarck_score(mode, list(t), fh, house)) == sums[mode], (mode, t, fh, house)


def test_bismarck_row_sum_claims_are_the_engines():
    """'Summan alltid 0' stämmer bara med grundreglerna: med husregeln att de bortlagda korten är ett stick ger
    bismarck_score('sang', [8, 4, 4], 0, True) summan 1. Varje mening om radens summa på körschemat för lektion 11,
    på Lgr22-sidan, på regelbladet och protokollet för Bismarck prövas mot motorn för alla stickfördelningar, alla
    spelsätt, alla förhand och båda reglerna."""
    from plump_teach.course.teacher import blank_sheet_bismarck, rule_sheet_bismarck
    assert sum(bismarck_score('sang', [8, 4, 4], 0, True)) == 1
    s = run_sheet(11)
    texts = {'körschemat': " ".join([*(p.what for p in s.phases), *(a for _, a in s.misconceptions),
                                     *(f"{q} {a}" for q, a in s.exit_ticket), *s.extension, *s.assess]),
             'lgr22': lgr22_page(), 'regelbladet': rule_sheet_bismarck(), 'protokollet': blank_sheet_bismarck(),
             'kort protokoll': blank_sheet_bismarck(short=True)}
    for name, text in texts.items():
        claims = _sum_claims(text)
        assert claims, name
        _check_sum_claims(claims)
    for name in ('regelbladet', 'protokollet'):                   # och de säger vad summan är med husregeln
        assert any(house for house, _ in _sum_claims(texts[name])), name
