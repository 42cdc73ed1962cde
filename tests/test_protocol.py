"""The score-sheet keeper (ScoreKeeper and ProtocolWidget): whole games, undo/redo, save/load, CSV, bad input."""
import json
import random
from dataclasses import fields

import pytest

import plump_teach

from plump_teach.engine.plump_game import PlumpGame
from plump_teach.engine.plump_rules import PlumpRules, PlumpError, score, deal_schedule
from plump_teach.engine.cards import PlumpTeachError
from plump_teach.engine.scoresheet import ScoreKeeper, load_protocol
from plump_teach.engine.storage import FileError
from plump_teach.ui.keeper import ProtocolWidget

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
        with pytest.raises(PlumpTeachError, match=fragment):
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
        "version.json": (good.replace('"version": 2', '"version": 9'), 'version 9'),
        "fusk.json": (good.replace('"bid",\n   2,\n   3', '"bid",\n   2,\n   99'), 'Budet 99 finns inte'),
        "namn.json": (good.replace('"dealer": 0', '"dealer": 7'), 'skadad|ingen spelare'),
        "saknas.json": (json.dumps({k: v for k, v in json.loads(good).items() if k != 'events'}), 'fältet "events" saknas'),
    }
    for name, (text, fragment) in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(PlumpError, match=fragment):
            load_protocol(tmp_path / name)
        assert (tmp_path / name).read_text() == text
    with pytest.raises(FileError, match='inget protokoll'): load_protocol(tmp_path / "finns-inte.json")


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
    assert 'ger först' in w.draw_result.value and '(P4)' not in w.draw_result.value and w.dealer_choice.value in ("Anna", "Bo")
    (tmp_path / "p.json").write_text("annat")
    w.start_button.click()
    assert 'finns redan och skrivs inte över' in w.message.value
    assert (tmp_path / "p.json").read_text() == "annat"


# ---------------------------------------------------------------- issue 10: careless and hostile input

import csv
import errno
import os
from pathlib import Path
import re
import stat

from plump_teach.engine.storage import FileChanged, write_atomic
import plump_teach.engine.storage as protocol_module   # write_atomic, som alla filer skrivs med

PYTHON_TEXT = re.compile(r"Händelse \d|\((bid|tricks)\)|Errno|codec|Expecting value|Traceback|missing \d+ required|"
                         r"object has no|'NoneType'|\[\[|\['bid'")


def umask():
    mask = os.umask(0o022); os.umask(mask)
    return mask


def swedish(e: Exception) -> str:
    msg = str(e)
    assert not PYTHON_TEXT.search(msg), msg
    return msg


def game_in_deal_two(tmp_path):
    k = ScoreKeeper(["Anna", "Bo", "Cissi"])
    k.bid("Bo", 3).bid("Cissi", 2).bid("Anna", 1).tricks([5, 3, 2]).bid("Cissi", 1)
    return k, k.save(tmp_path / "p.json")


@pytest.mark.parametrize("action, fragment", [
    (lambda k: k.tricks(None), "Giv 2: budgivningen är inte klar; Anna ska bjuda"),
    (lambda k: k.undo(1.5), "som ett heltal"),
    (lambda k: k.undo("1"), "som ett heltal"),
    (lambda k: k.undo(True), "som ett heltal"),
    (lambda k: k.undo(0), "minst ett steg"),
    (lambda k: k.undo(99), "bara att ångra 5 steg"),
    (lambda k: k.edit_deal("1", {"Anna": 1}, [1, 1, 1]), "givens nummer"),
    (lambda k: k.edit_deal(True, {"Anna": 1}, [1, 1, 1]), "givens nummer"),
    (lambda k: k.edit_deal(2, {"Anna": 1}, [1, 1, 1]), "Giv 2 är inte stängd"),
    (lambda k: k.edit_deal(1, {"Anna": 1, "Bo": 3}, [5, 3, 2]), "Cissi saknas"),
    (lambda k: k.edit_deal(1, {"Anna": 1, "anna": 2, "Bo": 3, "Cissi": 2}, [5, 3, 2]), "två gånger"),
    (lambda k: k.edit_deal(1, None, [5, 3, 2]), "namn och bud"),
    (lambda k: k.edit_deal(1, {"Anna": 1, "Bo": 3, "Cissi": 2}, None), "Giv 1: ange sticken"),
    (lambda k: k.edit_deal(1, {"Anna": 1, "Bo": 3, "Cissi": 2}, [5, 3, 2.0]), "Giv 1: skriv Cissis stick som ett heltal"),
    (lambda k: k.edit_deal(1, {"Anna": 5, "Bo": 3, "Cissi": 2}, [5, 3, 2]), "Giv 1, Anna: Givaren får inte bjuda 5"),
    (lambda k: k.bid("Anna", True), "Giv 2, Anna: ett bud är ett heltal"),
    (lambda k: k.bid("Anna", 1.0), "Giv 2, Anna: ett bud är ett heltal"),
    (lambda k: k.bid("Anna", 10 ** 5000), "ett så stort tal"),
    (lambda k: k.bid("Anna", -1), "Budet -1 finns inte"),
    (lambda k: k.bid(["Anna"], 1), "ange spelaren med namn"),
    (lambda k: k.bid(None, 1), "ange spelaren med namn"),
    (lambda k: k.bid(True, 1), "ange spelaren med namn"),
    (lambda k: k.bid("Erik", 1), "ingen spelare Erik"),
    (lambda k: k.bid("Cissi", 1), "inte Cissis tur att bjuda; nu bjuder Anna"),
    (lambda k: k.save(None), "som en sökväg"),
    (lambda k: k.save(123), "som en sökväg"),
    (lambda k: k.save("a\x00b"), "nolltecken"),
    (lambda k: load_protocol("a\x00b"), "nolltecken"),
    (lambda k: ProtocolWidget("a\x00b"), "nolltecken"),
    (lambda k: k.save("\ud800"), "ett tecken som inget filnamn kan ha"),   # found by test_fuzz with other examples
    (lambda k: load_protocol("\ud800"), "ett tecken som inget filnamn kan ha"),
    (lambda k: ProtocolWidget(None), "som en sökväg"),
])
def test_every_public_method_refuses_careless_input_in_swedish(tmp_path, action, fragment):
    k, path = game_in_deal_two(tmp_path)
    before, on_disk = k.to_json(), path.read_bytes()
    with pytest.raises(PlumpTeachError) as e:
        action(k)
    assert fragment in swedish(e.value)
    assert k.to_json() == before and path.read_bytes() == on_disk


def test_tricks_refused_per_player_with_the_deal_number():
    k = ScoreKeeper(["Anna", "Bo", "Cissi"], first_deal=4)       # giv 5: 6 kort
    k.bid("Bo", 3).bid("Cissi", 2).bid("Anna", 0)
    before = k.to_json()
    for tricks, fragment in [([15, -9, 0], "Giv 5: Anna kan inte ha tagit 15 stick; given har 6 kort"),
                             ([8, -2, 0], "Giv 5: Anna kan inte ha tagit 8 stick"),
                             ([6, -2, 2], "Giv 5: Bo kan inte ha tagit -2 stick"),
                             ([3, 3, True], "Giv 5: skriv Cissis stick som ett heltal"),
                             ({"Anna": 3, "Bo": 3}, "Giv 5: sticken för Cissi saknas"),
                             ({"Anna": 3, "Bo": 3, 7: 0}, "Giv 5: ange spelaren med namn"),
                             ([3, 3], "alla 3 spelarna"), ("330", "som namn och antal"), (None, "som namn och antal")]:
        with pytest.raises(PlumpError) as e:
            k.tricks(tricks)
        assert fragment in swedish(e.value)
    for renons, fragment in [(5, "renons som en lista"), (["Erik"], "ingen spelare Erik")]:
        with pytest.raises(PlumpError, match=fragment): k.tricks([3, 3, 0], renons)
    assert k.to_json() == before
    k.tricks({"anna": 3, " Bo": 3, "CISSI": 0}, renons="cissi")     # names compared as they look
    assert k.events[-1] == ['tricks', [3, 3, 0], [2]]             # Cissi sitter på plats 2


def test_names_are_cleaned_and_compared_as_they_look():
    with pytest.raises(PlumpError, match="lista med namn"): ScoreKeeper("Abc")
    with pytest.raises(PlumpError, match="lista med namn"): ScoreKeeper({"Anna": 1, "Bo": 2})
    with pytest.raises(PlumpError, match="olika namn"): ScoreKeeper(["\u00c5sa", "A\u030asa"])      # NFC / NFD
    with pytest.raises(PlumpError, match="olika namn"): ScoreKeeper(["Anna", "Anna\u200b"])         # zero-width space
    with pytest.raises(PlumpError, match="olika namn"): ScoreKeeper(["Anna", " anna "])
    with pytest.raises(PlumpError, match="Spelare 2 behöver ett namn"): ScoreKeeper(["Anna", "\u200b "])
    with pytest.raises(PlumpError, match="ska anges som PlumpRules"): ScoreKeeper(["Anna", "Bo"], rules={"sang": True})
    with pytest.raises(PlumpError, match="heltal"): ScoreKeeper(["Anna", "Bo"], first_deal=True)
    with pytest.raises(PlumpError, match="giv 20"): ScoreKeeper(["Anna", "Bo"], first_deal=19)
    k = ScoreKeeper(["A\u030asa ", "Bo\u200b"], dealer="\u00e5sa")
    assert k.players == ["\u00c5sa", "Bo"] and k.first_dealer == 0
    k.bid("bo", 1).bid("A\u030asa", 2)
    assert k.events == [['bid', 1, 1], ['bid', 0, 2]]             # Bo på plats 1, Åsa på plats 0


def test_genitive_in_messages_and_the_widget(tmp_path):
    k = ScoreKeeper(["Lars", "Max", "Anna"], dealer="Anna")
    with pytest.raises(PlumpError, match="inte Max tur att bjuda; nu bjuder Lars"): k.bid("Max", 1)
    w = ProtocolWidget(tmp_path / "p.json")
    for t, name in zip(w.name_inputs, ["Lars", "Max", "Anna"]): t.value = name
    w.dealer_choice.value = "Anna"
    w.start_button.click()
    assert "Lars bud:" in w.entry.children[0].value and "Larss" not in w.entry.children[0].value


EVIL = '<img src=x onerror="alert(1)">'


def test_player_names_are_escaped_in_every_html_the_keeper_draws(tmp_path):
    k = ScoreKeeper([EVIL, "Bo"], dealer=EVIL)
    k.bid("Bo", 3).bid(EVIL, 2).tricks([5, 5])
    path = k.save(tmp_path / "p.json")
    for html_text in (k.sheet_html(), k._repr_html_(), k.to_html_page(title=EVIL)):
        assert "<img" not in html_text and "&lt;img" in html_text
    w = ProtocolWidget(path)                                    # start screen lists the names
    assert "<img" not in w.children[0].value
    w.resume_button.click()
    assert all("<img" not in x.value for x in (w.sheet, w.status, w.message, w.entry.children[0]))
    w.undo_button.click(); w.undo_button.click()                # back to EVIL's bid: the heading has the name
    assert "<img" not in w.entry.children[0].value and "&lt;img" in w.entry.children[0].value
    w._export('html')
    assert "<img" not in w.export_link.value and "<img" not in (tmp_path / "p.html").read_text()
    s = ProtocolWidget(tmp_path / "ny.json")
    for t, name in zip(s.name_inputs, [EVIL, "Bo"]): t.value = name
    s.draw_button.click()
    assert "<img" not in s.draw_result.value


def test_load_protocol_says_what_is_wrong_in_swedish(tmp_path):
    (tmp_path / "bild.json").write_bytes(bytes([0xff, 0xd8, 0xff, 0xe0, 0x00]))
    (tmp_path / "halv.json").write_text('{"format": "plump_teach.ScoreKeeper",\n "version": 1,\n "players": [')
    (tmp_path / "djup.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "stort.json").write_text('{"version": ' + "9" * 5000 + "}")
    good = json.loads(ScoreKeeper(["Anna", "Bo"]).to_json())
    cases = {tmp_path: "är en mapp, inte en protokollfil",
             tmp_path / "bild.json": "inte text i UTF-8",
             tmp_path / "halv.json": "skadad eller avbruten: den går inte att läsa som JSON (felet är på rad 3)",
             tmp_path / "djup.json": "listor i fler nivåer än något protokoll har",
             tmp_path / "stort.json": "tal eller listor som inget protokoll har"}
    for name, change in {"true": {"version": True}, "float": {"version": 1.0}, "str": {"version": "1"},
                         "dict": {"players": {"Anna": 0, "Bo": 1}}, "abc": {"players": "Abc"},
                         "dealer": {"dealer": True}, "events": {"events": {"bid": 1}},
                         "rules": {"rules": {"sang": 1}}, "junk": {"events": [["bid", "Bo"]]},
                         "kind": {"events": [["spela", "Bo", 1]]}, "nested": {"events": [[[["bid"]]]]}}.items():
        (tmp_path / f"{name}.json").write_text(json.dumps({**good, **change}))
        cases[tmp_path / f"{name}.json"] = {"true": "version som inte går", "float": "version som inte går",
                                            "str": "version som inte går", "dict": "lista med namn",
                                            "abc": "lista med namn", "dealer": "ger först",
                                            "events": "ska vara en lista", "rules": "True eller False",
                                            "junk": "Giv 1: ett bud har fel antal värden",
                                            "kind": "Giv 1: en rad är varken ett bud eller ett resultat",
                                            "nested": "varken ett bud"}[name]
    for path, fragment in cases.items():
        before = path.read_bytes() if path.is_file() else None
        with pytest.raises(FileError if path == tmp_path else PlumpError) as e:   # a folder: the file, not the rules
            load_protocol(path)
        assert fragment in swedish(e.value), (path.name, str(e.value))
        if before is not None: assert path.read_bytes() == before


def test_replay_errors_name_the_deal_and_player_not_an_event_number(tmp_path):
    rng = random.Random(5)
    k = play_random(ScoreKeeper(["Anna", "Bo", "Cissi"]), rng, steps=43)
    d = k.to_dict()
    i = max(j for j, e in enumerate(d['events']) if e[0] == 'bid')
    deal_no = 1 + sum(e[0] == 'tricks' for e in d['events'][:i])
    who = d['players'][d['events'][i][1]]
    d['events'][i][2] = 77
    (tmp_path / "fusk.json").write_text(json.dumps(d))
    with pytest.raises(PlumpError) as e:
        load_protocol(tmp_path / "fusk.json")
    msg = swedish(e.value)
    assert f"Giv {deal_no}, {who}: Budet 77 finns inte" in msg and "Händelse" not in msg


def test_two_keepers_on_one_file_never_overwrite_each_other(tmp_path):
    path = tmp_path / "p.json"
    ScoreKeeper(["Anna", "Bo", "Cissi"]).save(path)
    a, b = load_protocol(path), load_protocol(path)
    a.bid("Bo", 3).save(path)
    first = path.read_bytes()
    b.bid("Bo", 2)
    with pytest.raises(FileChanged) as e:
        b.save(path)
    assert "har ändrats sedan" in swedish(e.value) and "annat namn" in str(e.value)
    assert path.read_bytes() == first                        # a's bid is still there
    a.bid("Cissi", 1).save(path)                             # a may go on: the file is what a wrote
    assert load_protocol(path) == a
    with pytest.raises(FileChanged, match="redan en fil"): ScoreKeeper(["Anna", "Bo"]).save(path)
    b.save(path, overwrite=True)                             # only when asked to
    assert load_protocol(path) == b


def test_two_widgets_on_one_file(tmp_path):
    path = tmp_path / "p.json"
    w = ProtocolWidget(path)
    for t, name in zip(w.name_inputs, ["Anna", "Bo", "Cissi"]): t.value = name
    w.start_button.click()
    one, two = ProtocolWidget(path), ProtocolWidget(path)
    one.resume_button.click(); two.resume_button.click()
    one.bid_buttons[3].click()
    saved = path.read_bytes()
    two.bid_buttons[2].click()
    assert path.read_bytes() == saved
    assert "inte sparat" in two.banner.value and "har ändrats" in two.banner.value and 'role="alert"' in two.banner.value
    # no more entries until it is saved; the reload button brings in the other keeper's file
    events = list(two.keeper.events)
    two._act(lambda: two.keeper.bid("Cissi", 1))
    assert two.keeper.events == events and "inte sparat" in two.message.value
    assert two.undo_button.disabled and "Inga fler inskrivningar" in two.entry.children[0].value
    two.reload_button.click()
    assert two.keeper == one.keeper and two.banner.value == ''
    two.bid_buttons[2].click()                               # now two is the newest; one must not overwrite
    one.bid_buttons[1].click()
    assert "har ändrats" in one.banner.value
    assert load_protocol(path) == two.keeper


@pytest.mark.parametrize("how", ["parent-is-a-file", "disk-full"])
def test_a_failed_save_is_unmistakable_and_can_be_saved_elsewhere(tmp_path, monkeypatch, how):
    w = ProtocolWidget(tmp_path / "p.json")
    for t, name in zip(w.name_inputs, ["Anna", "Bo", "Cissi"]): t.value = name
    w.start_button.click()
    w.bid_buttons[3].click()
    if how == "parent-is-a-file":
        (tmp_path / "fil").write_text("x")
        w.path = tmp_path / "fil" / "p.json"                 # as if the folder had become unwritable
        reason = "en del av sökvägen är en fil"
    else:
        real = protocol_module.write_atomic
        def full(path, text):
            if Path(path).parent == tmp_path: raise OSError(errno.ENOSPC, "No space left on device")
            return real(path, text)
        monkeypatch.setattr(protocol_module, "write_atomic", full)
        reason = "disken är full"
    w.bid_buttons[2].click()
    assert w.keeper.events[-1] == ['bid', 2, 2]                # Cissi: kept on screen, not lost
    assert "Protokollet är inte sparat" in w.banner.value and reason in w.banner.value
    assert "No space" not in w.banner.value and "Errno" not in w.banner.value
    assert "inte sparat" in w.message.value
    assert w.bid_buttons == {} and "Inga fler inskrivningar" in w.entry.children[0].value
    w._bid_clicked(1, "Anna", w._ticket())                     # refused: nothing more until saved
    assert len(w.keeper.events) == 2 and "Spara det i en annan fil" in w.message.value
    other = tmp_path / "annan" / "räddad.json"
    w.rescue_path.value = str(other)
    w.rescue_button.click()
    assert w.banner.value == '' and w.path == other.resolve()
    assert load_protocol(other) == w.keeper
    w.bid_buttons[1].click()
    assert load_protocol(other).events[-1] == ['bid', 0, 1]          # Anna, plats 0


def test_trick_boxes_refuse_impossible_numbers_visibly(tmp_path):
    w = ProtocolWidget(tmp_path / "p.json")
    for t, name in zip(w.name_inputs, ["Anna", "Bo", "Cissi"]): t.value = name
    w.start_button.click()
    for b in (3, 2, 1): w.bid_buttons[b].click()
    on_disk = (tmp_path / "p.json").read_bytes()
    for value, fragment in [(15, "Anna kan inte ha tagit 15 stick; given har 10 kort"),
                            (-2, "Anna kan inte ha tagit -2 stick")]:
        w.trick_inputs["Anna"].value = value
        assert w.trick_inputs["Anna"].value == value          # BoundedIntText clamped 15 to 10, -2 to 0
        w.close_button.click()
        assert fragment in w.message.value and 'role="alert"' in w.message.value
        assert (tmp_path / "p.json").read_bytes() == on_disk


def test_a_stale_button_is_refused_visibly_and_never_recorded_for_someone_else(tmp_path):
    w = ProtocolWidget(tmp_path / "p.json")
    for t, name in zip(w.name_inputs, ["Anna", "Bo", "Cissi"]): t.value = name
    w.start_button.click()
    bo_buttons = dict(w.bid_buttons)
    bo_buttons[3].click()                                       # Bo bids 3
    bo_buttons[2].click()                                       # fast second click on Bo's old button, meant for Cissi
    assert w.keeper.events == [['bid', 1, 3]]
    assert "fördes inte in" in w.message.value and "Bos bud" in w.message.value and "Nu bjuder Cissi" in w.message.value
    w.bid_buttons[2].click()                                    # the click on Cissi's button is Cissi's bid
    assert w.keeper.events == [['bid', 1, 3], ['bid', 2, 2]]
    anna = dict(w.bid_buttons)
    w.undo_button.click()                                       # back to Cissi: Anna's buttons are stale now
    anna[0].click()
    assert w.keeper.events == [['bid', 1, 3]] and "fördes inte in" in w.message.value
    for b in (2, 1): w.bid_buttons[b].click()
    close, boxes = w.close_button, dict(w.trick_inputs)
    for p, t in zip(["Anna", "Bo", "Cissi"], [5, 3, 2]): boxes[p].value = t
    close.click()
    assert len(w.keeper.game.deals) == 1
    close.click()                                               # a second click on the same "Stäng given"
    assert len(w.keeper.game.deals) == 1 and "fördes inte in" in w.message.value
    assert load_protocol(tmp_path / "p.json") == w.keeper


def test_exported_files_get_ordinary_permissions(tmp_path):
    k = ScoreKeeper(["Anna", "Bo"])
    k.bid("Bo", 3).bid("Anna", 3).tricks([5, 5])
    want = 0o666 & ~umask()
    for path in (k.save(tmp_path / "p.json"), k.save_csv(tmp_path / "p.csv"), k.save_page(tmp_path / "p.html"),
                 write_atomic(tmp_path / "x.txt", "x")):
        assert stat.S_IMODE(path.stat().st_mode) == want, (path.name, oct(path.stat().st_mode))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith('.')] == []     # no temporary files left


def test_csv_for_a_swedish_spreadsheet_and_the_old_format(tmp_path):
    k = ScoreKeeper(["Anna", "Bo", "Cissi"], rules=PlumpRules(zero_scores_five=True, sang=True))
    k.bid("Bo", 0).bid("Cissi", 2).bid("Anna", 1).tricks([3, 0, 7]).bid("Cissi", 1)
    text = k.to_csv()
    assert text.startswith('\ufeff')
    rows = list(csv.reader(text[1:].splitlines(), delimiter=';'))
    assert rows[0][0] == 'Regler' and 'lyckat nollbud ger 5 poäng' in rows[0][1] and rows[0][2].split() == ['sang', 'zero_scores_five']
    assert rows[1][:9] == ['giv', 'kort', 'givare', 'spelare', 'bud', 'stick', 'poäng', 'plump', 'renons']
    assert rows[2:5] == [['1', '10', 'Anna', 'Anna', '1', '3', '0', 'ja', 'nej', '1 plump'],
                         ['1', '10', 'Anna', 'Bo', '0', '0', '5', 'nej', 'nej', '05'],
                         ['1', '10', 'Anna', 'Cissi', '2', '7', '0', 'ja', 'nej', '2 plump']]
    assert rows[5:] == [['summa', '', '', 'Anna', '', '', '0', '', '', ''], ['summa', '', '', 'Bo', '', '', '5', '', '', ''],
                        ['summa', '', '', 'Cissi', '', '', '0', '', '', '']]
    back = ScoreKeeper.from_csv(text)                            # the rules come from the file
    assert back.rules == k.rules and back.totals == [0, 5, 0]
    with pytest.raises(PlumpError, match="summan för Bo stämmer inte"):
        ScoreKeeper.from_csv(text.replace('summa;;;Bo;;;5', 'summa;;;Bo;;;6'))
    k.save_csv(tmp_path / "p.csv")
    assert (tmp_path / "p.csv").read_bytes().startswith(b'\xef\xbb\xbf')
    # what version 1 of the keeper wrote: commas, no BOM, no rules row, no totals
    old = ("giv,kort,givare,spelare,bud,stick,poäng,plump,renons\n"
           "6,5,Dan,Anna,2,2,12,nej,nej\n6,5,Dan,Bo,1,2,0,ja,nej\n6,5,Dan,Cissi,0,0,10,nej,nej\n6,5,Dan,Dan,1,1,11,nej,nej\n"
           "7,4,Anna,Anna,1,1,11,nej,nej\n7,4,Anna,Bo,2,1,0,ja,nej\n7,4,Anna,Cissi,1,2,0,ja,nej\n7,4,Anna,Dan,1,0,0,ja,nej\n")
    k2 = ScoreKeeper.from_csv(old)
    assert k2.totals == [23, 0, 10, 11] and k2.first_deal == 5 and k2.rules == PlumpRules()
    for broken, fragment in [(old.replace("6,5,Dan,Bo,1,2,0", "6,5,Dan,Bo,x,2,0"), "rad 3: kolumnen bud ska vara ett heltal"),
                             (old.replace("7,4,Anna,Anna", "7,4,Bo,Anna"), "i giv 7 ger Anna enligt givordningen"),
                             (old.replace("6,5,Dan,Anna,2,2,12", "6,5,Dan,Anna,2,2,13"), "poängen för Anna i giv 6 stämmer inte"),
                             ("a;b\n1;2\n", "ska ha kolumnerna"), (None, "CSV-text")]:
        with pytest.raises(PlumpError) as e:
            ScoreKeeper.from_csv(broken)
        assert fragment in swedish(e.value)


def test_zero_scores_five_shows_05_wherever_the_keeper_shows_the_sheet():
    k = ScoreKeeper(["Anna", "Bo"], rules=PlumpRules(zero_scores_five=True))
    k.bid("Bo", 0).bid("Anna", 9).tricks([10, 0])
    assert '<td>05<br>' in k.sheet_html() and '<td>05<br>' in k.to_html_page()
    assert ';05' in k.to_csv().splitlines()[3]


def test_rules_and_presets_in_the_sheet_csv_and_print_page():
    for key, preset in __import__('plump_teach.engine.plump_rules', fromlist=['RULE_PRESETS']).RULE_PRESETS.items():
        k = ScoreKeeper(["Anna", "Bo", "Cissi"], rules=preset.rules)
        assert f"Regler: {preset.title}" in k.sheet_html() and preset.title in k.to_html_page()
        head = next(csv.reader(k.to_csv().lstrip('\ufeff').splitlines(), delimiter=';'))
        assert head[0] == 'Regler' and head[1].startswith(preset.title) and head[2].split() == list(preset.rules.changed())
    k = ScoreKeeper(["Anna", "Bo"], rules=PlumpRules(must_trump=True))
    assert "Regler: trumftvång (P10)" in k.sheet_html()


def test_setup_offers_the_sources_rule_sets(tmp_path):
    from plump_teach.engine.plump_rules import RULE_PRESETS
    w = ProtocolWidget(tmp_path / "p.json")
    labels = [label for label, _ in w.preset_choice.options]
    assert labels == [p.title for p in RULE_PRESETS.values()] + ["Egna husregler"]
    for t, name in zip(w.name_inputs, ["Anna", "Bo", "Cissi"]): t.value = name
    w.preset_choice.value = 'regeltexten'
    assert {k for k, b in w.rule_boxes.items() if b.value} == set(RULE_PRESETS['regeltexten'].rules.changed())
    assert w.draw_result.value == ''                            # this source does not draw for the dealer
    w.rule_boxes['sang'].value = True
    assert w.preset_choice.value == 'egna'
    w.preset_choice.value = 'uppat'
    assert not w.rule_boxes['sang'].value and w.rule_boxes['upward_only'].value
    assert 'ger först' in w.draw_result.value and '(P4)' not in w.draw_result.value
    drawn = w.dealer_choice.value
    w.name_inputs[2].value = "Dan"                               # other players: the draw no longer counts
    w.start_button.click()
    assert w.keeper is None and 'dras första givaren' in w.message.value
    w.draw_button.click()
    w.start_button.click()
    assert w.keeper.rules == PlumpRules.preset('uppat') and w.keeper.players[w.keeper.first_dealer] == w.dealer_choice.value
    assert drawn in ("Anna", "Bo", "Cissi")


def test_print_page_link_opens_the_saved_page(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    w = ProtocolWidget(tmp_path / "kväll.json")
    for t, name in zip(w.name_inputs, ["Anna", "Bo"]): t.value = name
    w.start_button.click()
    target = w._export('html')
    link = w.export_link.value
    href = re.search(r'href="([^"]+)"', link).group(1)
    assert 'target="_blank"' in link and href.endswith('kv%C3%A4ll.html') and target.exists()
    assert "Sidan för utskrift är sparad" in w.message.value


def test_a_score_sheet_file_from_version_1_with_names_still_loads(tmp_path):
    """Version 1 of the file kept names in the events; version 2 keeps seats, as the game files do (issue 28). A
    file written before the change loads as the same score sheet and is written as version 2 when saved again."""
    k = ScoreKeeper(["Anna", "Bo", "Cissi"], dealer="Bo")
    k.bid("Cissi", 1).bid("Anna", 0).bid("Bo", 2).tricks({"Anna": 3, "Bo": 4, "Cissi": 3}, renons=["Cissi"])
    k.bid("Anna", 1)
    old = {**k.to_dict(), 'version': 1,
           'events': [['bid', 'Cissi', 1], ['bid', 'Anna', 0], ['bid', 'Bo', 2], ['tricks', [3, 4, 3], ['Cissi']],
                      ['bid', 'Anna', 1]]}
    path = tmp_path / "gammal.json"
    path.write_text(json.dumps(old, ensure_ascii=False), encoding="utf-8")
    for loaded in (load_protocol(path), plump_teach.load(path)):
        assert loaded == k and loaded.totals == k.totals
        assert loaded.to_dict()['version'] == 2
        assert loaded.to_dict()['events'][:4] == [['bid', 2, 1], ['bid', 0, 0], ['bid', 1, 2], ['tricks', [3, 4, 3], [2]]]


# ---------------------------------------------------------------- issue 39: lektion 6, protokollet på elevens sida

def _shown(w) -> bool:
    return w.layout.display != 'none'


def test_pupil_keeper_shows_no_path_and_says_what_to_do(tmp_path):
    "Klasspartiet i lektion 6: ingen sökväg, ingen tom meny eller CSV förrän de behövs, och eleven får veta vad hen ska göra."
    w = ProtocolWidget(tmp_path / "klassparti.json", short_game=2)
    w.start_button.click()
    assert "Skriv namnen på dem som spelar, två till sex." in w.message.value
    assert "inte 0" not in w.message.value and "2–6" not in w.message.value
    w.name_inputs[0].value = "Anna"
    w.start_button.click()
    assert "två till sex" in w.message.value and "Anna" in w.message.value
    for t, name in zip(w.name_inputs[1:], ["Bo", "Cissi"]): t.value = name
    w.start_button.click()
    assert w.keeper is not None
    def text(): return w.message.value + w.file_info.value + w.status.value
    assert str(tmp_path) not in text() and "klassparti.json" not in text()
    assert "sparas på datorn" in w.file_info.value
    assert not _shown(w.edit_choice) and not _shown(w.edit_button) and not _shown(w.csv_button)
    while w.keeper.status()['phase'] != 'over':
        st = w.keeper.status()
        if st['phase'] == 'bid': next(b for b in w.bid_buttons.values() if not b.disabled).click()
        else:
            w.trick_inputs["Anna"].value = st['cards']
            w.close_button.click()
            assert _shown(w.edit_choice) and len(w.edit_choice.options) >= 1
            assert str(tmp_path) not in text()
    assert _shown(w.csv_button)
    w.csv_button.click()
    assert str(tmp_path) not in w.message.value
    again = ProtocolWidget(tmp_path / "klassparti.json", short_game=2)
    assert str(tmp_path) not in again.children[0].value and "klassparti.json" not in again.children[0].value
    again.resume_button.click()
    assert str(tmp_path) not in again.message.value + again.file_info.value


def test_teacher_keeper_still_shows_its_file(tmp_path):
    w = ProtocolWidget(tmp_path / "p.json")
    for t, name in zip(w.name_inputs, ["Anna", "Bo"]): t.value = name
    w.start_button.click()
    assert "p.json" in w.file_info.value and _shown(w.csv_button) and not _shown(w.edit_choice)
