"""Inget ord innan det är förklarat (issue 39): ordlistan säger i vilken lektion varje ord lärs ut, och ingen lektion
använder ett ord ur ordlistan före den lektionen.

The glossary (nbs/elev/ordlista.ipynb) says for each term "Du lär dig ordet i lektion N." (the card letters E, K, D
and Kn are a term of their own, "kortens bokstäver"). Tests here:

* every term has such a lesson, and that lesson really explains the term: it links the term to the glossary (the
  lessons link a word where it is explained; for the card letters it also names all four), and no cell before that
  one uses the word (the title and "Det här lär du dig" only announce it);
* every lesson uses only terms taught in it or in an earlier lesson, by word match (each term's forms, below) in all
  the text the pupil reads there: the markdown, what the hidden code cells show (HTML, widgets' texts, buttons,
  menus), and the puzzles the lesson and its goal give (situation, question, options, hint and the feedback of every
  option, right or wrong, for the first numbers; the widgets in the state they open in, hidden parts left out);
* the sentences issue 39 found unexplained are gone or explained.
"""
import ast
import html
import re
from functools import cache
from pathlib import Path

import nbformat
import pytest

from plump_teach.course.catalogue import PUPIL_LESSONS
from plump_teach.puzzles.registry import make_puzzle
from test_pupil_surface import widget_texts as surface_widget_texts

ELEV = Path(__file__).resolve().parents[1] / "nbs" / "elev"
NUMBERS = range(1, 13)    # pusslens första nummer: en elev som övar mot målet ser många av dem
LETTERS = "kortens bokstäver"
CASE_SENSITIVE = {"plump"}

# Böjningar och sammansättningar som räknas som ordet. Ord som inte står här räknas med några vanliga ändelser.
FORMS = {
    "bud": ["bud", "budet", "buden", "budets", "bjuda", "bjuder", "bjöd", "bjudit"],
    "budsumma": ["budsumma", "budsumman", "budsummor", "budsummorna"],
    "domaren": ["domare", "domaren", "domarens"],
    "ettkortsgiv": ["ettkortsgiv", "ettkortsgiven", "ettkortsgivar", "ettkortsgivarna"],
    "fyllnad": ["fyllnad", "fyllnaden", "fyllnadskort"],
    "färg": ["färg", "färgen", "färger", "färgerna", "färgs"],
    "följa färg": ["följa färg", "följer färg", "följde färg", "följt färg", "följa färgen", "följer färgen"],
    "förhand": ["förhand"],
    "giv": ["giv", "given", "givar", "givarna", "givens"],
    "givare": ["givare", "givaren", "givarens"],
    "givschema": ["givschema", "givschemat", "givscheman"],
    "hand": ["hand", "handen", "händer", "händerna"],
    "honnörspoäng": ["honnörspoäng", "honnörspoängen"],
    "husregel": ["husregel", "husregeln", "husregler", "husreglerna", "husregels"],
    "kortet i pannan": ["kortet i pannan", "korten i pannan"],
    LETTERS: ["E", "K", "D", "Kn"],
    "lång färg": ["lång färg", "långa färger", "långa färgen", "långa färg"],
    "lägga bort": ["lägga bort", "lägger bort", "lade bort", "lagt bort", "läggas bort", "läggs bort"],
    "medsols": ["medsols"],
    "möjligt stick": ["möjligt stick", "möjliga stick", "möjliga sticken"],
    "nollbud": ["nollbud", "nollbudet", "nollbuden"],
    "normal": ["normal", "normalen", "normaler"],
    "parti": ["parti", "partiet", "partier", "partierna", "partiets"],
    "pass": ["pass", "passet"],
    "plump": ["plump", "plumpa", "plumpar", "plumpade", "plumpen"],
    "protokoll": ["protokoll", "protokollet", "protokollen", "protokollets"],
    "provgiv": ["provgiv", "provgiven", "provgivar", "provgivarna"],
    "renons": ["renons"],
    "saka": ["saka", "sakar", "sakade", "sakat", "sakas"],
    "sang": ["sang", "sangen"],
    "spela ut": ["spela ut", "spelar ut", "spelade ut", "spelat ut", "spelas ut", "spelades ut"],
    "spelsätt": ["spelsätt", "spelsättet", "spelsätten", "spelsättets"],
    "stick": ["stick", "sticket", "sticken", "stickets"],
    "säkert stick": ["säkert stick", "säkra stick", "säkra sticken"],
    "talong": ["talong", "talongen", "talongens"],
    "trumf": ["trumf", "trumfen", "trumfar", "trumfarna", "trumfkort", "trumfkortet", "trumfkorten", "trumffärg",
              "trumffärgen"],
    "trumfa": ["trumfa", "trumfar", "trumfade", "trumfat"],
    "trumftvång": ["trumftvång", "trumftvånget"],
    "träff": ["träff", "träffen", "träffar", "träffa", "träffade", "träffat"],
    "underbud": ["underbud", "underbudet"],
    "valör": ["valör", "valören", "valörer", "valörerna"],
    "överbud": ["överbud", "överbudet"],
    "grundregler": ["grundregel", "grundregler", "grundreglerna"],
}


def markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def glossary() -> dict[str, tuple[int | None, str]]:
    "Ordlistans ord: ord → (lektionen där ordet lärs ut enligt ordlistan, förklaringen)."
    text = markdown(nbformat.read(ELEV / "ordlista.ipynb", as_version=4))
    out = {}
    for term, definition in re.findall(r"^### (.+)\n(.+)$", text, re.M):
        m = re.search(r"Du lär dig (?:ordet|orden|bokstäverna) i lektion (\d+)\.", definition)
        out[term] = (int(m.group(1)) if m else None, definition)
    return out


def forms_of(term: str) -> list[str]:
    return FORMS.get(term) or [term, term + "en", term + "et", term + "er", term + "erna"]


def word_pattern(term: str) -> re.Pattern:
    "Ordets former som hela ord. Bokstäverna på korten (E, Kn) räknas bara som versaler; andra ord i båda fallen."
    alts = []
    for f in forms_of(term):
        e = re.escape(f).replace(r"\ ", r"\s+")
        # versaler bara som versaler: kortens bokstäver, och ordet plump (spelet heter Plump med stor bokstav)
        alts.append(e if f[0].isupper() or term in CASE_SENSITIVE else f"(?i:{e})")
    return re.compile(r"(?<![\w-])(?:" + "|".join(alts) + r")(?![\w-])")


def shown(text: str) -> str:
    "Det en läsare ser av HTML eller Markdown: utan stilmallar, kommentarer, taggar och länkadresser."
    text = re.sub(r"<style.*?</style>|<script.*?</script>|<!--.*?-->|<[^>]+>", " ", text, flags=re.S)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return html.unescape(text)


def widget_texts(w) -> list[str]:
    "Allt en widget visar just nu (det dolda räknas inte): test_pupil_surface.widget_texts."
    return surface_widget_texts(w, skip_hidden=True)


def puzzle_texts(kind: str, number: int, level: int | None) -> list[str]:
    p = make_puzzle(kind, number, level=level)
    out = [p.situation, p.question, p.hint] + [o.label for o in p.options]
    for o in p.options:
        out += [p.check(o.key).text, p.try_again(o.key).text]
    return out


def cell_output_text(source: str) -> list[str]:
    "What a hidden code cell shows: run it here (no kernel) and read its last expression's HTML or widget."
    tree = ast.parse(source)
    ns: dict = {}
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), ns)
    if last is None: return []
    value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), ns)
    if hasattr(value, "data") and isinstance(value.data, str): return [value.data]
    if hasattr(value, "_repr_html_"):
        try: return [value._repr_html_() or ""] + widget_texts(value)
        except Exception: pass
    return widget_texts(value)


@cache
def lesson_cells(file: str) -> tuple[str, ...]:
    "All the text the pupil reads in a lesson (see the module's docstring), as plain text, one entry per cell in order."
    nb = nbformat.read(ELEV / file, as_version=4)
    lesson = next(l for l in PUPIL_LESSONS if l.file == file)
    parts = []
    for c in nb.cells:
        if c.cell_type == "markdown":
            if c.metadata.get("plump_teach", {}).get("jupyterlab_only"): continue
            # navigeringen (raden som börjar med ◀) nämner nästa lektions titel: den lektionen förklarar sina ord
            parts.append(shown(re.sub(r"^\[◀.*$", "", c.source, flags=re.M)))
            continue
        if c.source.lstrip().startswith("#| hide"): continue
        calls = [(k, int(n), int(lv) if lv else None)
                 for k, n, lv in re.findall(r"show_puzzle\('(\w+)', (\d+)(?:, level=(\d))?\)", c.source)]
        if "show_goal(" in c.source: calls = [(k, 1, lesson.level) for k in lesson.kinds]
        if calls:
            parts.append("\n".join(shown(t) for kind, _, level in calls for n in NUMBERS
                                   for t in puzzle_texts(kind, n, level)))
        else:
            parts.append("\n".join(shown(t) for t in cell_output_text(c.source)))
    return tuple(parts)


def lesson_text(file: str) -> str:
    return "\n".join(lesson_cells(file))


def uses(text: str, term: str) -> list[str]:
    return [text[max(0, m.start() - 60): m.end() + 30].replace("\n", " ") for m in word_pattern(term).finditer(text)]


def test_every_glossary_term_says_where_it_is_taught():
    terms = glossary()
    assert LETTERS in terms and "sang" in terms and "grundregler" in terms
    missing = [t for t, (n, _) in terms.items() if n is None]
    assert not missing, f"ordlistan säger inte i vilken lektion orden lärs ut: {missing}"
    numbers = {l.number for l in PUPIL_LESSONS}
    assert all(n in numbers for n, _ in terms.values())
    assert set(terms) <= set(FORMS), f"böjningar saknas i testet för {sorted(set(terms) - set(FORMS))}"


@pytest.mark.parametrize("term", sorted(glossary()))
def test_the_lesson_the_glossary_names_explains_the_term(term):
    "The glossary's claim is true: the lesson links the term to its entry (where the lessons explain a word)."
    from plump_teach.ui.lesson import term_anchor
    n, _ = glossary()[term]
    lesson = next(l for l in PUPIL_LESSONS if l.number == n)
    text = markdown(nbformat.read(ELEV / lesson.file, as_version=4))
    before = text.split("## Ord att kunna")[0]
    assert f"(ordlista.ipynb#{term_anchor(term)})" in before, f"{term}: lektion {n} länkar inte ordet där det förklaras"
    if term == LETTERS:
        assert all(re.search(rf"\*\*{x}\*\* för {w}", before) for x, w in
                   [("E", "ess"), ("K", "kung"), ("D", "dam"), ("Kn", "knekt")]), "lektionen säger inte alla fyra"


@pytest.mark.parametrize("term", sorted(glossary()))
def test_the_teaching_lesson_explains_the_term_before_it_is_used(term):
    "In the lesson that teaches a term, no cell before the one that explains it (links it) uses it."
    from plump_teach.ui.lesson import term_anchor
    n, _ = glossary()[term]
    lesson = next(l for l in PUPIL_LESSONS if l.number == n)
    nb = nbformat.read(ELEV / lesson.file, as_version=4)
    cells = [c for c in nb.cells if not (c.cell_type == "markdown" and c.metadata.get("plump_teach", {}).get("jupyterlab_only"))
             and not (c.cell_type == "code" and c.source.lstrip().startswith("#| hide"))]
    texts = lesson_cells(lesson.file)
    link = f"(ordlista.ipynb#{term_anchor(term)})"
    where = next(i for i, c in enumerate(cells) if c.cell_type == "markdown" and link in c.source)
    # the title and "Det här lär du dig" say what the lesson will teach: they may name its words
    announce = {i for i, c in enumerate(cells) if i == 0 or c.source.startswith("## Det här lär du dig")}
    early = [i for i, t in enumerate(texts[:where]) if i not in announce and uses(t, term)]
    assert not early, f"{term}: lektion {n} använder ordet innan det förklaras: {uses(texts[early[0]], term)[:2]}"


@pytest.mark.parametrize("lesson", PUPIL_LESSONS, ids=lambda l: l.file)
def test_no_lesson_uses_a_word_before_it_is_taught(lesson):
    text = lesson_text(lesson.file)
    early = {t: uses(text, t)[:2] for t, (n, _) in glossary().items() if n and n > lesson.number and uses(text, t)}
    assert not early, f"{lesson.file} använder ord som lärs ut senare: {early}"


def test_the_check_finds_words_and_only_words():
    assert uses("Hon lägger ♠E och ♥Kn.", LETTERS) and not uses("Eller en knekt", LETTERS)
    assert uses("Det blev sang.", "sang") and not uses("sången", "sang")
    assert uses("Bo spelar ut ♥5", "spela ut") and not uses("Det passar", "pass")
    assert uses("Bo gick plump.", "plump") and not uses("Plump är ett kortspel.", "plump")
    assert not uses("normalt", "normal") and uses("normalen är 8", "normal")


def lesson_md(number: int) -> str:
    return markdown(nbformat.read(ELEV / next(l.file for l in PUPIL_LESSONS if l.number == number), as_version=4))


def test_issue_39s_sentences_are_explained_or_gone():
    l1, l3, l5, l10 = (lesson_text(l.file) for l in PUPIL_LESSONS if l.number in (1, 3, 5, 10))
    # lektion 1: bokstäverna och grundreglerna förklaras i lektionen; ettan framför budet förklaras före pusslet
    md1 = lesson_md(1).split("## Pussel")
    assert "en etta framför budet" in md1[0] and "**E** för ess" in md1[0]
    assert "[grundreglerna](ordlista.ipynb#grundregler) gäller" in md1[1]
    # lektion 3: sang och husregler förklaras före pusslet om trumf (svaret Sang finns först på nivå 2)
    md3 = lesson_md(3).split("## Pussel")[0]
    assert "(ordlista.ipynb#husregel)" in md3 and "(ordlista.ipynb#sang)" in md3
    # lektion 10: inga oklara ord
    # (pusslet om att lägga bort säger fortfarande "Du behåller kort som är högre än några av dem du lägger bort":
    # pusslets text hör till pusselmotorn, inte till lektionen)
    assert l10.count("hushålla") == 1 and "hushålla med spelsätten, alltså spara" in l10    # förklarat där det står
    assert "din [normal](ordlista.ipynb#normal)" in lesson_md(10) and "normalen 8 stick för förhand" in l10
    assert not re.search(r"\b(en|ingen|någon|den) normal\b", l10, re.I)
    # lektion 5: inget "Ettan är tian"
    assert "Ettan är tian" not in l5


def hook_word_count(nb: dict) -> int:
    "Orden i lektionens textceller, räknade som kontrollen före stopp räknar dem (kommentarer, taggar och länkadresser bort)."
    text = re.sub(r"<!--.*?-->", " ", "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"),
                  flags=re.S)
    return len(re.findall(r"[A-Za-zÅÄÖåäö]+", re.sub(r"<[^>]+>|\]\([^)]*\)", " ", text)))


def test_hook_word_count_counts_words_not_markup():
    nb = {"cells": [{"cell_type": "markdown", "source": ["Två [ord](ordlista.ipynb#ord) <b>här</b> <!-- inte -->"]},
                    {"cell_type": "code", "source": ["print('inte heller')"]}]}
    assert hook_word_count(nb) == 3


@pytest.mark.parametrize("path", sorted(ELEV.glob("[0-9]*.ipynb")), ids=lambda p: p.name)
def test_every_lesson_has_at_most_700_words(path):
    # en lektion för en tolvåring är några hundra ord: högst 700 med kontrollens räkning (issue 39)
    import json
    assert hook_word_count(json.loads(path.read_text(encoding="utf-8"))) <= 700
