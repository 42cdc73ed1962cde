"""The score-sheet keeper (ScoreKeeper and ProtocolWidget): whole games, undo/redo, save/load, CSV, bad input."""
import json
import random
from dataclasses import fields

import pytest

from plump_teach.plump import PlumpGame, PlumpRules, PlumpError, score, deal_schedule
from plump_teach.protocol import ScoreKeeper, load_protocol
from plump_teach.protocol_widget import ProtocolWidget

NAMES = ["Anna", "Bo", "Cissi", "Dan", "Erik", "Fia"]
SIMPLE = [f.name for f in fields(PlumpRules)]


def random_rules(rng, n):
    while True:
        kw = {k: rng.random() < 0.2 for k in SIMPLE}
        if n not in (3, 4): kw['thirteen_cards'] = False
        try: return PlumpRules(**kw)
        except PlumpError: continue


def play_random(keeper, rng, steps=None, check=None):
    """Enter random legal bids and tricks (with the odd renons) until the game is over or `steps` entries."""
    done = 0
    while keeper.status()['phase'] != 'over' and (steps is None or done < steps):
        st = keeper.status()
        if st['phase'] == 'bid':
            ok = [b for b, why in keeper.bid_options().items() if why is None]
            keeper.bid(st['to_bid'], rng.choice(ok))
        else:
            n, cards = len(keeper.players), st['cards']
            tricks = [0] * n
            for _ in range(cards): tricks[rng.randrange(n)] += 1
            renons = [p for p in keeper.players if rng.random() < 0.03]
            keeper.tricks(tricks, renons)
        done += 1
        if check: check(keeper)
    return keeper


@pytest.mark.parametrize("seed", range(25))
def test_whole_games_score_like_plumpgame(seed):
    rng = random.Random(seed)
    n = 2 + seed % 5
    rules = random_rules(rng, n)
    k = play_random(ScoreKeeper(NAMES[:n], dealer=rng.randrange(n), rules=rules), rng)
    assert len(k.game.deals) == len(deal_schedule(n, rules))
    # PlumpGame's own scoring of the same bids and tricks, entered independently
    g = PlumpGame(NAMES[:n], rules, seed=99, dealer=k.first_dealer)
    for kind, *args in k.events:
        (g.bid if kind == 'bid' else g.record_result)(*args)
    assert g.totals == k.totals
    # and the plain sum of score() over the deals
    plain = [0] * n
    for d in k.game.deals:
        for s in range(n):
            plain[s] += score(d.bids[s], d.taken[s], d.cards, rules, renons=s in d.renons)
    assert plain == k.totals
    assert ScoreKeeper.from_csv(k.to_csv(), rules).to_csv() == k.to_csv()
    assert ScoreKeeper.from_csv(k.to_csv(), rules).totals == k.totals


@pytest.mark.parametrize("seed", range(6))
def test_undo_redo_and_save_load_at_every_step(seed, tmp_path):
    rng = random.Random(100 + seed)
    n = 3 + seed % 3
    k = ScoreKeeper(NAMES[:n], dealer=0, rules=random_rules(rng, n))
    path = tmp_path / "p.json"

    def check(keeper):
        keeper.save(path)
        again = load_protocol(path)
        assert again == keeper and again.sheet_html() == keeper.sheet_html()

    play_random(k, rng, steps=60, check=check)
    sheet, events = k.sheet_html(), [list(e) for e in k.events]
    back = rng.randint(1, len(events))
    k.undo(back)
    assert k.events == events[:-back]
    for kind, *args in events[-back:]:
        (k.bid if kind == 'bid' else k.tricks)(*args)
    assert k.sheet_html() == sheet and k.events == events


def test_bad_input_is_refused_in_swedish_and_changes_nothing(tmp_path):
    k = ScoreKeeper(["Anna", "Bo", "Cissi", "Dan"], dealer="Dan", first_deal=5)
    path = k.save(tmp_path / "p.json")
    on_disk = path.read_bytes()

    def refused(action, fragment):
        before = k.to_json()
        with pytest.raises(PlumpError, match=fragment):
            action()
        assert k.to_json() == before and path.read_bytes() == on_disk

    refused(lambda: k.tricks([2, 2, 0, 1]), 'budgivningen')                 # tricks before all bids
    k.bid("Anna", 2).bid("Bo", 1).bid("Cissi", 0); k.save(path); on_disk = path.read_bytes()
    refused(lambda: k.bid("Dan", 2), 'Givaren får inte bjuda 2: då blir budsumman 2 \\+ 1 \\+ 0 \\+ 2 = 5')
    refused(lambda: k.bid("Dan", 6), 'Budet 6 finns inte')
    refused(lambda: k.bid("Anna", 1), 'inte Annas tur')
    k.bid("Dan", 1); k.save(path); on_disk = path.read_bytes()
    refused(lambda: k.tricks([2, 2, 0, 2]), 'summerar till 6')
    refused(lambda: k.tricks({"Anna": 5, "Erik": 0}), 'ingen spelare Erik')
    refused(lambda: k.edit_deal(6, {"Anna": 1}, [1, 1, 1, 2]), 'Ingen giv är stängd')
    with pytest.raises(PlumpError, match='olika namn'): ScoreKeeper(["Anna", "Anna"])
    with pytest.raises(PlumpError, match='2–6 spelare'): ScoreKeeper(["Anna"])
    with pytest.raises(PlumpError, match='2–6 spelare'): ScoreKeeper(NAMES + ["Gun"])


def test_damaged_or_edited_files_are_refused(tmp_path):
    k = ScoreKeeper(["Anna", "Bo", "Cissi"])
    k.bid("Bo", 2).bid("Cissi", 3)
    good = k.save(tmp_path / "p.json").read_text()
    cases = {
        "halv.json": (good[: len(good) // 2], 'skadad eller avbruten'),
        "tom.json": ("", 'skadad eller avbruten'),
        "främmande.json": ('{"format": "plump_teach.PlumpGame", "version": 1}', 'inget Plump-protokoll'),
        "version.json": (good.replace('"version": 1', '"version": 9'), 'version 9'),
        "fusk.json": (good.replace('"Cissi",\n   3', '"Cissi",\n   99'), 'Budet 99 finns inte'),
        "namn.json": (good.replace('"dealer": 0', '"dealer": 7'), 'skadad|ingen spelare'),
        "saknas.json": (json.dumps({k: v for k, v in json.loads(good).items() if k != 'events'}), 'fältet "events" saknas'),
    }
    for name, (text, fragment) in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(PlumpError, match=fragment):
            load_protocol(tmp_path / name)
        assert (tmp_path / name).read_text() == text
    with pytest.raises(PlumpError, match='inget protokoll'): load_protocol(tmp_path / "finns-inte.json")


def test_widget_plays_a_whole_small_game(tmp_path):
    w = ProtocolWidget(tmp_path / "liten.json")
    for t, name in zip(w.name_inputs, ["Anna", "Bo", "Cissi"]): t.value = name
    w.dealer_choice.value = "Bo"
    w.rule_boxes['down_only'].value = True
    w.rule_boxes['zero_scores_five'].value = True
    w.start_button.click()
    assert w.keeper.rules == PlumpRules(down_only=True, zero_scores_five=True)
    rng = random.Random(3)
    deals = 0
    while w.keeper.status()['phase'] != 'over':
        st = w.keeper.status()
        if st['phase'] == 'bid':
            enabled = [b for b, btn in w.bid_buttons.items() if not btn.disabled]
            assert enabled == [b for b, why in w.keeper.bid_options().items() if why is None]
            w.bid_buttons[rng.choice(enabled)].click()
        else:
            cards, left = st['cards'], st['cards']
            for i, p in enumerate(w.keeper.players):
                t = left if i == 2 else rng.randint(0, left)
                w.trick_inputs[p].value, left = t, left - t
            w.close_button.click()
            deals += 1
    assert deals == 10
    assert 'Placering:' in w.sheet.value
    assert load_protocol(tmp_path / "liten.json") == w.keeper
    w.undo_button.click()
    assert w.keeper.status()['phase'] == 'tricks'


def test_widget_refused_entry_leaves_the_file_alone(tmp_path):
    w = ProtocolWidget(tmp_path / "p.json")
    for t, name in zip(w.name_inputs, ["Anna", "Bo"]): t.value = name
    w.start_button.click()
    w.bid_buttons[3].click(); w.bid_buttons[2].click()
    on_disk = (tmp_path / "p.json").read_bytes()
    w.trick_inputs["Anna"].value = 9
    w.close_button.click()
    assert 'summerar till 9' in w.message.value and 'role="alert"' in w.message.value
    assert (tmp_path / "p.json").read_bytes() == on_disk


def test_widget_setup_errors_are_shown(tmp_path):
    w = ProtocolWidget(tmp_path / "p.json")
    w.name_inputs[0].value = "Anna"
    w.start_button.click()
    assert '2–6 spelare' in w.message.value
    w.name_inputs[1].value = "Anna"
    w.start_button.click()
    assert 'olika namn' in w.message.value
    w.name_inputs[1].value = "Bo"
    w.draw_button.click()
    assert 'ger först (P4)' in w.draw_result.value and w.dealer_choice.value in ("Anna", "Bo")
    (tmp_path / "p.json").write_text("annat")
    w.start_button.click()
    assert 'finns redan och skrivs inte över' in w.message.value
    assert (tmp_path / "p.json").read_text() == "annat"
