"""Det prova-widgetarna och pusslen säger är sant (issue 39): en bock (✔) bara där motorn säger ja, en text som
bara ber om det som går att göra, och ett "Rätt!" bara för det som uppgiften frågar efter."""
import itertools

from plump_teach.engine.tricks import legal_cards
from plump_teach.ui.tryout.tricks import FollowTry


def test_a_forbidden_card_never_gets_a_tick():
    "Lesson 2's 'Tryck på ett av Bos kort': the chosen card shows ✔ only if the engine allows it, else ✘."
    f = FollowTry(house_rules=True)
    checked = 0
    for led, trump, must in itertools.product(range(4), range(len(f.trump.buttons)), range(2)):
        f.led.buttons[led].click(); f.trump.buttons[trump].click(); f.must_trump.buttons[must].click()
        ok = legal_cards(f.hand, f.trick, f.trump_suit, f.must_trump.value)
        for i, card in enumerate(f.hand):
            f.card.buttons[i].click()
            marks = [b.description[0] for b in f.card.buttons if b.description[0] in '✓✔✘']
            assert marks == ['✔' if card in ok else '✘'], (card, f.trick, f.trump_suit, marks)
            assert ('ja.' if card in ok else 'nej.') in f.answer.value
            checked += 1
    assert checked == 4 * 5 * 2 * 7
    assert FollowTry().card.buttons[0].description == '✘ ♠K'   # the first card shown chosen is forbidden
