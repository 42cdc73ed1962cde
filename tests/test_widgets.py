"""The puzzle widgets driven headlessly: set values, press buttons with click(), read the widget state."""
import pytest

from plump_teach.puzzles import PUZZLE_KINDS
from plump_teach.widgets import PuzzleWidget, PuzzleTrainer, show_puzzle


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
            assert 'Inte riktigt.' in w.feedback.value and f'({w.puzzle.rule})' in w.feedback.value
            assert wrong[0].disabled and not right[0].disabled and w.streak == 0
        right[0].click()
        assert 'Rätt!' in w.feedback.value and f'({w.puzzle.rule})' in w.feedback.value
        assert all(b.disabled for b in w.buttons)
        assert (w.correct, w.attempts) == (1, 1 + bool(wrong))


def test_double_clicks_and_new_puzzle_mid_answer_never_break_it():
    w = show_puzzle('trick_winner', 5)
    right, wrong = buttons_for(w)
    for _ in range(3): wrong[0].click()        # the same wrong answer counts once
    assert w.attempts == 1
    w.new_button.click()                        # a new puzzle before the right answer
    assert w.puzzle.number == 6 and w.feedback.value == '' and not any(b.disabled for b in w.buttons)
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


def test_trainer_runs_a_whole_session_and_summarizes():
    t = PuzzleTrainer(kinds=['score', 'trump', 'schedule'], rounds=6, seed=4)
    t.start_button.click()
    assert {k for k, _ in t.plan} == {'score', 'trump', 'schedule'}
    for i in range(6):
        right, wrong = buttons_for(t.widget)
        (wrong[0] if i % 2 else right[0]).click()
        t.widget.new_button.click()
    assert [first for _, first, _ in t.results] == [True, False] * 3
    assert 'Du löste 3 av 6 uppgifter på första försöket' in t.summary.value
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
    from plump_teach.plump_rules import PlumpError
    with pytest.raises(PlumpError, match='nivå|heltal|Sorterna som finns'): show_puzzle(*args)


@pytest.mark.parametrize("kw", [dict(kinds='score'), dict(kinds=[['score']]), dict(kinds=[1]), dict(kinds=5),
                                dict(level=True), dict(level=1.0), dict(rounds='3'), dict(rounds=0),
                                dict(seed=1.5), dict(seed=10 ** 5000)])
def test_trainer_refuses_bad_input_in_swedish(kw):
    from plump_teach.plump_rules import PlumpError
    if kw.get('kinds') == 'score':   # one name is one kind, not five letters
        assert PuzzleTrainer(**kw).choose.value == ('score',)
        return
    with pytest.raises(PlumpError): PuzzleTrainer(**kw)


def test_trainer_offers_bismarck_kinds():
    t = PuzzleTrainer(kinds=['bismarck_score', 'right_card'], rounds=2, level=2, seed=3).start()
    assert {k for k, _ in t.plan} == {'bismarck_score', 'right_card'}
