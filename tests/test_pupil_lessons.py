"""Elevlektionerna i nbs/elev: de går i en riktig kärna, visar ingen kod och har det en lektion ska ha.

The pupil lessons (nbs/elev): each runs top to bottom in a real kernel, shows no code (every code cell is
collapsed and has no `#| export`), every cell runs alone (no NameError), each lesson has goals, a summary,
questions, navigation and at least two puzzles, every glossary link points to an existing anchor, and the
deal lesson 1 shows is the engine's (guide example P18).
"""
import re
from pathlib import Path

import nbformat
import pytest

from kernels import one_kernel

ELEV = Path(__file__).resolve().parents[1] / "nbs" / "elev"
GLOSSARY = ELEV / "ordlista.ipynb"
NOTEBOOKS = sorted(p.name for p in ELEV.glob("*.ipynb"))
LESSONS = [n for n in NOTEBOOKS if n[:2].isdigit()]     # lektionerna: 01_…, 02_…; ordlistan och andra sidor har inget nummer


def read(name):
    return nbformat.read(ELEV / name, as_version=4)


def markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def test_there_is_a_first_lesson_and_a_glossary():
    assert "01_vad_ar_plump.ipynb" in LESSONS and GLOSSARY.exists()


@pytest.fixture(scope="module")
def kernel():
    "One Python kernel for every lesson and every cell; each runs in it as if it were new (tests/kernels.py)."
    with one_kernel(ELEV) as k:
        yield k


_executed: dict[str, list] = {}


def executed(kernel, name) -> list:
    """The lesson's code cells run top to bottom, as a pupil's Run All, in a kernel as good as new (the shared one
    after `fresh()`: a new kernel per lesson cost about 1 s each); once per test run, lesson 1's test reads it too.
    One result per cell run (tests/kernels.py: its errors and its outputs, streams included)."""
    if name not in _executed:
        _executed[name] = kernel.run_cells([c.source for c in code_cells(read(name))])
    return _executed[name]


@pytest.mark.kernel
@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", NOTEBOOKS)
def test_lesson_runs_in_a_kernel(kernel, name):
    results = executed(kernel, name)
    found = [e for r in results for e in r.errors]
    assert not found, f"{name}: {found}"
    assert len(results) == len(code_cells(read(name)))
    for r in results:
        for o in r.outputs:
            # inga testutskrifter eller strömmar syns för eleven (test_eq skriver bara när det går fel)
            assert o["output_type"] != "stream", f"{name}: en cell skriver text: {o.get('text', '')[:200]!r}"


def run_alone(k, code: str) -> list[str]:
    return k.run(code).errors


@pytest.mark.kernel
@pytest.mark.timeout(600)
@pytest.mark.parametrize("name", LESSONS)
def test_every_cell_runs_alone(kernel, name):
    """Varje kodcell körs ensam: den importerar själv allt den behöver (inget NameError).

    Each code cell alone, in one kernel shared by all lessons: before the cell the names of every earlier cell are
    gone, and the course's modules are imported anew (tests/kernels.py). A cell that uses a name, an import or a module state
    from another cell fails here as it did when each cell had a new kernel (9-23 s a lesson before, for the kernel
    starts); what a fresh kernel would also reset (the state of other packages, such as random's seed) cannot make a
    cell fail with a missing name."""
    nb = read(name)
    for i, c in enumerate(code_cells(nb)):
        found = run_alone(kernel, c.source)
        assert not found, f"{name}, kodcell {i + 1} ensam: {found}"


@pytest.mark.kernel
def test_run_alone_catches_a_name_from_an_earlier_cell(kernel):
    "The check above can fail: a name, an import and a module's state from the cell before are all gone."
    assert run_alone(kernel, "x = 1\nfrom plump_teach.engine.cards import Card\nimport plump_teach.engine.cards as c\nc.MARK = 1") == []
    assert run_alone(kernel, "x") == ["NameError: name 'x' is not defined"]
    assert run_alone(kernel, "Card") == ["NameError: name 'Card' is not defined"]
    assert run_alone(kernel, "import plump_teach.engine.cards as c\nc.MARK") == [
        "AttributeError: module 'plump_teach.engine.cards' has no attribute 'MARK'"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_no_code_shows(name):
    for i, c in enumerate(code_cells(read(name))):
        assert c.metadata.get("jupyter", {}).get("source_hidden") is True, f"{name}: kodcell {i + 1} är inte hopfälld"
        # JupyterLab visar första raden i en hopfälld cell: den ska vara tom
        assert c.source.split("\n")[0].strip() == "", f"{name}: kodcell {i + 1} visar {c.source.split(chr(10))[0]!r}"
        assert "#| export" not in c.source and "#|export" not in c.source, f"{name}: kodcell {i + 1} exporterar"
        assert "test_eq" not in c.source or c.source.lstrip().startswith("#| hide"), \
            f"{name}: kodcell {i + 1} testar utan #| hide"


def catalogue(name):
    from plump_teach.course.catalogue import lesson_of
    return lesson_of(name)


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_has_its_parts(name):
    nb = read(name)
    text = markdown(nb)
    lesson = catalogue(name)
    # startinstruktionen är en egen cell överst, bara för JupyterLab (utan kod i Voilà och på webbplatsen tas den bort)
    start = nb.cells[1]
    assert re.search(r"Run All Cells", start.source) and "Kör alla celler" in start.source and "Skift+Enter" in start.source, \
        f"{name}: startinstruktion saknas i andra cellen"
    assert start.metadata.get("plump_teach", {}).get("jupyterlab_only") is True, f"{name}: startinstruktionen är inte märkt"
    # varje lektion slutar likadant: Ord att kunna, Kolla att du kan, målet, och frågorna för klassen
    order = ["## Det här lär du dig", "## Prova själv", "## Ord att kunna", "## Kolla att du kan", "## Målet", "## Att prata om"]
    for heading in order:
        assert heading in text, f"{name}: {heading!r} saknas"
    assert [text.index(h) for h in order] == sorted(text.index(h) for h in order), f"{name}: delarna i fel ordning"
    assert "## Sammanfattning" not in text
    questions = re.findall(r"^\d+\. ", text.split("## Att prata om")[1], re.M)
    assert 2 <= len(questions) <= 4, f"{name}: {len(questions)} frågor"
    check = text.split("## Kolla att du kan")[1].split("## Målet")[0]
    assert len(re.findall(r"^\*\*\d\.\*\* ", check, re.M)) == 3, f"{name}: Kolla att du kan ska ha tre frågor"
    assert check.count("<details><summary>Visa svaret</summary>") == 3 and check.count("</details>") == 3
    words = text.split("## Ord att kunna")[1].split("## Kolla att du kan")[0]
    assert len(re.findall(r"\]\(ordlista\.ipynb#", words)) >= 3, f"{name}: Ord att kunna länkar inte orden"
    puzzles = sum(c.source.count("show_puzzle(") for c in code_cells(nb))
    goals = [c.source for c in code_cells(nb) if "show_goal(" in c.source]
    if lesson.kinds:
        # målet: fem rätt i rad på lektionens pusselsorter, i en cell som visar målet för just den här lektionen
        assert 1 <= puzzles <= 3, f"{name}: {puzzles} pussel"
        assert len(goals) == 1 and f"show_goal('{name}')" in goals[0], f"{name}: målet saknas"
        kinds = set(re.findall(r"show_puzzle\('(\w+)'", "\n".join(c.source for c in code_cells(nb))))
        assert kinds & set(lesson.kinds), f"{name}: lektionens pussel hör inte till målets sorter"
    else:
        assert not goals and puzzles == 0, f"{name}: en lektion utan pusselsorter har inget pusselmål"
    assert any("Widget" in c.source or "Stepper" in c.source or "Try" in c.source or "Table" in c.source
               for c in code_cells(nb))
    # navigering överst och nederst: startsidan, ordlistan och nästa lektion om den finns
    for cell in (nb.cells[0], nb.cells[-1] if nb.cells[-1].cell_type == "markdown" else nb.cells[-2]):
        assert "(start.ipynb)" in cell.source and "(ordlista.ipynb)" in cell.source
    number = int(name[:2])
    nxt = [n for n in LESSONS if n.startswith(f"{number + 1:02d}_")]
    if nxt: assert f"({nxt[0]})" in nb.cells[0].source


# Lagom för en tolvåring: högst ungefär 700 ord löptext per lektion, och korta meningar (LIX).
WORD_LIMIT, LIX_LIMIT = 750, 35


def prose(nb) -> str:
    "Texten eleven läser: markdown utan navigering, JupyterLab-instruktionen, kommentarer, HTML och länkadresser."
    parts = []
    for c in nb.cells:
        if c.cell_type != "markdown" or c.metadata.get("plump_teach", {}).get("jupyterlab_only"): continue
        s = c.source
        if s.startswith("[◀"): s = s.split("\n", 1)[1] if "\n" in s else ""
        s = re.sub(r"<!--.*?-->", " ", s, flags=re.S)
        s = re.sub(r"<[^>]+>", " ", s)
        s = re.sub(r"\]\([^)]*\)", "]", s)
        parts.append(s)
    return "\n".join(parts)


def words_and_lix(text: str) -> tuple[int, float]:
    "Antal ord och LIX: ord per mening plus andelen långa ord (fler än sex bokstäver) i procent."
    words = re.findall(r"[A-Za-zÅÄÖåäöéü]+(?:-[A-Za-zÅÄÖåäöéü]+)*|\d+", text)
    # en mening slutar med punkt, frågetecken, utropstecken eller kolon, eller är en rubrik eller en punkt i en lista
    sentences = len(re.findall(r"[.!?:](?=\s|$)|^#+ |^\s*(?:-|\d+\.) ", text, re.M)) or 1
    long = sum(len(w) > 6 for w in words)
    return len(words), round(len(words) / sentences + 100 * long / max(1, len(words)), 1)


def test_lessons_are_short_enough_for_a_twelve_year_old(capsys):
    rows = [(name, *words_and_lix(prose(read(name)))) for name in LESSONS]
    with capsys.disabled():
        print("\nLektion                                   ord   LIX")
        for name, w, lix in rows: print(f"{name:40} {w:5} {lix:5}")
    too_long = [(n, w) for n, w, _ in rows if w > WORD_LIMIT]
    too_hard = [(n, x) for n, _, x in rows if x > LIX_LIMIT]
    assert not too_long, f"fler än {WORD_LIMIT} ord: {too_long}"
    assert not too_hard, f"LIX över {LIX_LIMIT}: {too_hard}"


def test_words_and_lix_count_what_they_say():
    w, lix = words_and_lix("Anna har två ess. Hon bjuder 2.\n- Kortlekar")
    # 8 ord (talet 2 räknas), 3 meningar (två punkter och en listpunkt), ett långt ord (Kortlekar)
    assert (w, lix) == (8, round(8 / 3 + 100 / 8, 1))


def anchors() -> set[str]:
    "Ordlistans ankare: JupyterLab ger varje rubrik ett id, texten med bindestreck för mellanslag."
    return {"-".join(h.split()) for h in re.findall(r"^### (.+)$", markdown(read(GLOSSARY.name)), re.M)}


def test_glossary_is_alphabetical_with_rule_ids():
    text = markdown(read(GLOSSARY.name))
    entries = [(None, t, d) for t, d in re.findall(r"^### (.+)\n(.+)$", text, re.M)]
    assert len(entries) >= 12
    key = lambda t: t.translate(str.maketrans("åäö", "{|}"))
    terms = [t for _, t, _ in entries]
    assert terms == sorted(terms, key=key), "ordlistan är inte i bokstavsordning"
    from plump_teach.ui.lesson import term_anchor
    assert {term_anchor(t) for t in terms} == anchors()
    for _, term, definition in entries:
        assert re.search(r"<!-- regel [PB]\d+", definition), f"{term}: regel saknas (som en kommentar eleven inte ser)"
    for term in ("giv", "givare", "bud", "stick", "trumf", "förhand", "plump", "protokoll"):
        assert term in terms


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_glossary_links_point_to_anchors(name):
    known = anchors()
    text = markdown(read(name))
    if "## Ord att kunna" in text:   # orden att kunna länkas där en gång till, som en lista
        before, rest = text.split("## Ord att kunna")
        listed = re.findall(r"\]\(ordlista\.ipynb#([^)]+)\)", rest.split("## Kolla att du kan")[0])
        for a in listed: assert a in known, f"{name}: Ord att kunna: #{a} finns inte i ordlistan"
        text = before + rest.split("## Kolla att du kan", 1)[1]
    links = re.findall(r"\]\(ordlista\.ipynb#([^)]+)\)", text)
    if name in LESSONS: assert len(links) >= 5, f"{name}: för få länkar till ordlistan"
    for a in links: assert a in known, f"{name}: länken #{a} finns inte i ordlistan"
    # varje ord länkas bara vid första användningen
    assert len(links) == len(set(links)), f"{name}: samma ord länkas flera gånger"


def test_relative_links_exist():
    for name in NOTEBOOKS:
        for target in re.findall(r"\]\(([^)#:]+\.ipynb)", markdown(read(name))):
            assert (ELEV / target).exists(), f"{name}: länken {target} finns inte"


@pytest.mark.kernel
def test_lesson_1_shows_the_engines_deal(kernel):
    "Lektion 1 visar guidens exempel P18, och siffrorna är motorns: bud, stick och poäng."
    from plump_teach.ui.lesson import example_deal, show_deal
    d = example_deal(5)
    assert (d.cards, d.trump, d.names[d.dealer]) == (5, "♥", "Dan")
    assert d.bids == [2, 1, 0, 1] and d.taken == [2, 2, 0, 1] and d.points() == [12, 0, 10, 11]
    lesson = "01_vad_ar_plump.ipynb"
    html = "\n".join(o.get("data", {}).get("text/html", "") for r in executed(kernel, lesson) for o in r.outputs)
    assert show_deal(d, "poäng").data in html and show_deal(d, "stick").data in html
    assert html.count("<svg") >= 21 + 20     # händerna och trumfkortet, och de 20 spelade korten
    for s, name in enumerate(d.names):
        row = re.search(rf">{name}</th>(.*?)</tr>", show_deal(d, "poäng").data).group(1)
        assert re.findall(r">(\d+)<", row)[:3] == [str(d.bids[s]), str(d.taken[s]), str(d.points()[s])]
    # texten om poängen stämmer med motorn
    text = markdown(read(lesson))
    assert "Cissi tog inget stick" in text and "Bo bjöd 1 men tog 2 stick" in text


def test_core_lessons_use_only_the_basic_rules():
    """Grundkursen lär ut en sorts Plump: ingen lektion utom extralektionen (Husregler) nämner en husregel, och
    deras pussel gäller grundreglerna (inget 'Husregel: …' i pusslet)."""
    from plump_teach.course.catalogue import PUPIL_LESSONS
    from plump_teach.puzzles.registry import make_puzzle
    for l in PUPIL_LESSONS:
        nb = read(l.file)
        calls = re.findall(r"show_puzzle\('(\w+)', (\d+)(?:, level=(\d))?\)", "\n".join(c.source for c in code_cells(nb)))
        if l.optional:
            assert "husregel" in markdown(nb).lower()
            continue
        assert "husregel" not in prose(nb).lower(), l.file
        for kind, number, level in calls:
            p = make_puzzle(kind, int(number), level=int(level) if level else None)
            assert "husregel" not in (p.situation + p.question).lower(), (l.file, kind, number)
    calls = re.findall(r"show_puzzle\('(\w+)'", "\n".join(c.source for c in code_cells(read("01_vad_ar_plump.ipynb"))))
    assert set(calls) == {"trick_winner", "score"}


def test_nbdev_clean_keeps_the_hidden_cells():
    "nbdev-clean (med projektets [tool.nbdev]) behåller {'jupyter': {'source_hidden': true}} i elevlektionerna."
    import json
    from nbdev.clean import clean_nb
    from nbdev.config import get_config
    keys = get_config(path=ELEV).get("allowed_cell_metadata_keys") or []
    for name in NOTEBOOKS:
        nb = json.loads((ELEV / name).read_text())
        before = [c["metadata"] for c in nb["cells"]]
        clean_nb(nb, allowed_cell_metadata_keys=keys)
        assert [c["metadata"] for c in nb["cells"]] == before, name


def rule_mentions(text: str) -> set[str]:
    "Regel-id:n som texten nämner: 'regel P6', '(P6)', 'P6, P7', 'B1–B5' räknas inte som B2–B4."
    return set(re.findall(r"(?<![\w-])([PB]\d{1,2})(?!\d)", text))


def test_every_rule_is_taught_in_the_pupil_track():
    """Täckning: varje regel P1–P21 och B1–B9 lärs ut i elevkursen. Kursens register (PUPIL_LESSONS) säger vilken
    lektion som lär ut vad; varje lektion finns, har registrets titel, och nämner var och en av sina regler
    i sin text, och registret täcker alla regler."""
    from plump_teach.course.catalogue import PUPIL_LESSONS
    assert [l.file for l in PUPIL_LESSONS] == LESSONS, "registret och lektionerna i nbs/elev stämmer inte"
    taught = set()
    for l in PUPIL_LESSONS:
        nb = read(l.file)
        title = re.search(r"^# (.+)$", nb.cells[0].source, re.M).group(1)
        assert title == l.name, (l.file, title)
        missing = set(l.rules) - rule_mentions(markdown(nb))
        assert not missing, f"{l.file}: nämner inte {sorted(missing)}"
        taught |= set(l.rules)
    every = {f"P{i}" for i in range(1, 22)} | {f"B{i}" for i in range(1, 10)}
    assert taught == every, sorted(every - taught)


def test_pupil_start_page_lists_every_lesson_in_order():
    from plump_teach.course.catalogue import PUPIL_LESSONS
    text = markdown(read("start.ipynb"))
    links = re.findall(r"\]\((\d\d_[^)]+\.ipynb)\)", text)
    assert links == [l.file for l in PUPIL_LESSONS]
    assert "(traning.ipynb)" in text and "(ordlista.ipynb)" in text
    # och varje lektion länkar vidare till nästa, den sista till träningen
    for l, nxt in zip(PUPIL_LESSONS, [*PUPIL_LESSONS[1:], None]):
        assert f"({nxt.file if nxt else 'traning.ipynb'})" in read(l.file).cells[0].source, l.file
