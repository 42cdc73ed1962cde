"""The puzzle widgets driven headlessly: set values, press buttons with click(), read the widget state."""
import pytest

from plump_teach.puzzles.registry import PUZZLE_KINDS
from plump_teach.ui.puzzle_widget import PuzzleWidget, show_puzzle
from plump_teach.ui.puzzle_trainer import PuzzleTrainer


def buttons_for(w):
    right = [b for b in w.buttons if b.option_key in w.puzzle.answers]
    wrong = [b for b in w.buttons if b.option_key not in w.puzzle.answers]
    return right, wrong


@pytest.mark.parametrize("kind,level", [(k.key, l) for k in PUZZLE_KINDS.values() for l in k.levels])
def test_wrong_then_right_for_every_kind(kind, level):
    for number in (1, 2, 3):
        w = PuzzleWidget(kind, number, level)
        right, wrong = buttons_for(w)
        if wrong:
            wrong[0].click()
            assert 'Inte riktigt.' in w.feedback.value and f'({w.puzzle.rule})' not in w.feedback.value   # koden är lärarens
            assert 'Försök igen!' in w.feedback.value and not w.finished
            assert wrong[0].description.startswith('✘') and not right[0].description.startswith('✔') and w.streak == 0
        right[0].click()
        assert 'Rätt!' in w.feedback.value and f'({w.puzzle.rule})' not in w.feedback.value
        assert w.finished and right[0].description.startswith('✔')
        assert (w.correct, w.attempts) == (1, 1 + bool(wrong))
        assert w.outcome == ('after_mistake' if wrong else 'first_try')


def reveals(text: str, p) -> list[str]:
    "The right answers a feedback text names: a card, a number or a word standing alone."
    import re
    found = []
    for o in p.options:
        if o.key not in p.answers: continue
        if o.key.lstrip('+-').isdigit():   # a number may stand in a sum; look for the sentences that give it
            n = o.key
            found += [s for s in ("Förbjudet är", "Schemat är", f"ger {n}", f"har {n} kort", f": {n} givar", "Rätt svar")
                      if s in text]
            continue
        for token in {o.key, o.label}:
            if token and re.search(rf"(?<![\w+-]){re.escape(token)}(?![\w])", text): found.append(token)
    return found


@pytest.mark.parametrize("kind,level", [(k.key, l) for k in PUZZLE_KINDS.values() for l in k.levels])
def test_a_first_wrong_answer_says_why_without_giving_the_answer(kind, level):
    """Issue 11: the first wrong answer explains why that choice breaks a rule; the answer comes after a second
    wrong try or on Visa svar. Checked over 40 puzzles per kind: the nudge never names a right answer (for
    puzzles with one right answer; where most options are right, as for the dealer's bid, naming the one wrong
    bid is the explanation)."""
    for number in range(1, 41):
        from plump_teach.puzzles.registry import make_puzzle
        p = make_puzzle(kind, number, level)
        if len(p.answers) != 1: continue
        for o in p.options:
            if o.key in p.answers: continue
            fb = p.try_again(o.key)
            assert fb.text.startswith('Inte riktigt.') and 'Försök igen!' in fb.text and not fb.correct
            if kind == 'sheet_error':
                r, s = map(int, next(iter(p.answers)).split(':'))
                assert f"rad {r + 1}" not in fb.text, fb.text
                continue
            assert not reveals(fb.text + fb.html if kind != 'right_card' else fb.text, p), (number, o.key, fb.text)


def test_second_wrong_answer_or_show_answer_reveals_it():
    for kind in ('trick_winner', 'trump', 'score'):
        w = PuzzleWidget(kind, 4)
        right, wrong = buttons_for(w)
        if len(wrong) < 2: continue
        wrong[0].click(); wrong[1].click()
        assert w.outcome == 'shown' and 'Rätt svar:' in w.feedback.value and right[0].description.startswith('✔')
        w.new_button.click()
        w.show_button.click()
        assert w.outcome == 'shown' and 'Svar:' in w.feedback.value


def test_double_clicks_and_new_puzzle_mid_answer_never_break_it():
    w = show_puzzle('trick_winner', 5)
    right, wrong = buttons_for(w)
    for _ in range(3): wrong[0].click()        # the same wrong answer counts once
    assert w.attempts == 1
    w.new_button.click()                        # a new puzzle before the right answer
    assert w.puzzle.number == 6 and w.feedback.value == '' and not any(b.description[0] in '✔✘' for b in w.buttons)
    right, wrong = buttons_for(w)
    right[0].click(); right[0].click(); wrong[0].click()  # answering again after the right answer changes nothing
    assert (w.correct, w.attempts, w.streak) == (1, 2, 1)
    assert 'Rätt!' in w.feedback.value
    w.hint_button.click(); w.hint_button.click()
    assert w.hint.value.count('Ledtråd') == 1


def test_streak_counts_first_try_solutions_in_a_row():
    w = PuzzleWidget('bid_balance', 1)
    for _ in range(3):
        buttons_for(w)[0][0].click()
        w.new_button.click()
    assert w.streak == 3
    buttons_for(w)[1][0].click()
    assert w.streak == 0


def test_a_hinted_answer_is_not_right_at_once():
    "Issue 39: after a hint the counter still said 'Rätt direkt i rad: 1'. A hint holds the run, as the lesson's goal does."
    w = PuzzleWidget('trick_winner', 25)           # lektion 2
    w.hint_button.click()
    buttons_for(w)[0][0].click()
    assert (w.outcome, w.streak) == ('with_hint', 0) and 'Rätt direkt i rad: 0' in w.progress.value
    w.new_button.click()
    buttons_for(w)[0][0].click()
    assert w.streak == 1
    w.new_button.click(); w.hint_button.click(); buttons_for(w)[0][0].click()
    assert w.streak == 1 and 'Rätt direkt i rad: 1' in w.progress.value


def test_trainer_runs_a_whole_session_and_summarizes():
    t = PuzzleTrainer(kinds=['score', 'trump', 'schedule'], rounds=6, seed=4)
    t.start_button.click()
    assert {k for k, _ in t.plan} == {'score', 'trump', 'schedule'}
    for i in range(6):
        right, wrong = buttons_for(t.widget)
        (wrong[0] if i % 2 else right[0]).click()
        t.widget.new_button.click()
    assert [o for _, o in t.results] == ['first_try', 'skipped'] * 3
    assert 'Du löste 3 av 6 uppgifter rätt direkt' in t.summary.value and 'Läs gärna igen' in t.summary.value
    t.widget.new_button.click()                 # a click after the end changes nothing
    assert len(t.results) == 6


def test_trainer_with_the_same_seed_gives_the_class_the_same_session():
    a = PuzzleTrainer(rounds=5, seed=17).start()
    b = PuzzleTrainer(rounds=5, seed=17).start()
    assert a.plan == b.plan


def test_card_buttons_name_the_card_in_swedish():
    w = PuzzleWidget('right_card', 1)
    for b, o in zip(w.buttons, w.puzzle.options):
        assert b.description == f"{o.card} {o.card.name}"


def test_level2_proof_line_in_the_widget_is_the_puzzles_line():
    import re
    w = PuzzleWidget('right_card', 9, 2)
    right, wrong = buttons_for(w)
    for b in (wrong[0], right[0]):
        b.click()
        fb = w.last
        items = re.findall(r'<li>(.*?)</li>', w.feedback.value)
        assert fb.line and len(items) == len(fb.line)
        first = fb.line[0].plays
        assert [c.id for _, c in first[:len(w.puzzle.data['trick'])]] == list(w.puzzle.data['trick'])


@pytest.mark.parametrize("args", [('score', 1, True), ('score', 1.0), (['score'], 1), ('schack',), (None,)])
def test_show_puzzle_refuses_bad_input_with_a_swedish_message(args):
    from plump_teach.engine.plump_rules import PlumpError
    with pytest.raises(PlumpError, match='nivå|heltal|Sorterna som finns'): show_puzzle(*args)


@pytest.mark.parametrize("kw", [dict(kinds='score'), dict(kinds=[['score']]), dict(kinds=[1]), dict(kinds=5),
                                dict(level=True), dict(level=1.0), dict(rounds='3'), dict(rounds=0),
                                dict(seed=1.5), dict(seed=10 ** 5000)])
def test_trainer_refuses_bad_input_in_swedish(kw):
    from plump_teach.engine.plump_rules import PlumpError
    if kw.get('kinds') == 'score':   # one name is one kind, not five letters
        assert PuzzleTrainer(**kw).chosen == ['score']
        return
    with pytest.raises(PlumpError): PuzzleTrainer(**kw)


def test_trainer_offers_bismarck_kinds():
    t = PuzzleTrainer(kinds=['bismarck_score', 'right_card'], rounds=2, level=2, seed=3).start()
    assert {k for k, _ in t.plan} == {'bismarck_score', 'right_card'}


def test_trainer_mixes_kinds_at_random_and_bismarck_only_when_chosen():
    from collections import Counter
    plump = [k for k in PUZZLE_KINDS if not PUZZLE_KINDS[k].rule.startswith('B') and not PUZZLE_KINDS[k].house_rule]
    assert PuzzleTrainer(seed=1).chosen == plump              # Plump's base rules by default (no house-rule kinds)
    assert 'blind_card' not in plump
    firsts = Counter()
    for seed in range(1, 41):
        plan = [k for k, _ in PuzzleTrainer(kinds=list(PUZZLE_KINDS), rounds=10, seed=seed).start().plan]
        assert len(set(plan)) == 10                            # ten different kinds in ten rounds
        firsts[plan[0]] += 1
    assert len(firsts) >= 10                                   # not the first kinds in list order
    assert any(PUZZLE_KINDS[k].rule.startswith('B') for k in firsts)
    t = PuzzleTrainer(kinds=['score', 'bismarck_score'], seed=2)
    t.bismarck.value = False                                   # Bismarck switched off: its kinds drop out
    assert t.chosen == ['score']
