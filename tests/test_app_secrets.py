"""plump-teach och dess hemligheter (issue 38): lärarkoden aldrig på en kommandorad eller i en adress, filer med koder 0600.

The teacher code reaches `plump-teach` from the environment (PLUMP_LARARKOD), a file only its owner can read
(--larare-kod-fil) or a prompt (--fraga-larare-kod), and otherwise is drawn at random and shown once in the
terminal. The server process gets it in its environment, never in its argv (visible to every user in `ps`).
The old --teacher-code is refused with a message that says how to give the code now. No URL that the app
prints or opens holds the teacher code. klasslank.html (it holds the class code) is created 0600 from the start.
`--lektion N ...` goes to the server as `--lesson=N`. No server is started: `subprocess.Popen` is replaced by a
fake that records the command and its environment (the real server is started in tests/test_app_server.py).
"""
import os
import re
import stat

import pytest

from plump_teach.classroom import app

CODE = "abcd12"


class FakeServer:
    "In place of the server's process: records the command line and the environment it was given."
    started: list = []

    def __init__(self, cmd, env=None, **kw):
        self.cmd, self.env = cmd, env
        FakeServer.started.append(self)

    def wait(self, timeout=None): return 0
    def poll(self): return 0


@pytest.fixture
def run_app(tmp_path, monkeypatch, capsys):
    "Run `plump-teach ARGS` in this process with a fake server; gives (the fake, its output, the URLs opened)."
    monkeypatch.delenv("PLUMP_LARARKOD", raising=False)
    monkeypatch.setattr(app.subprocess, "Popen", FakeServer)
    opened = []
    monkeypatch.setattr(app, "_open_when_ready", lambda url, proc, wait=60: opened.append(url))
    monkeypatch.setattr(app.threading, "Thread", lambda target, args, daemon: type(
        "T", (), {"start": lambda self: target(*args)})())

    def run(*args, env=None):
        FakeServer.started = []
        for k, v in (env or {}).items(): monkeypatch.setenv(k, v)
        app.main(["--code", CODE, "--results", str(tmp_path / "resultat"), *args])
        [server] = FakeServer.started
        return server, capsys.readouterr().out, opened
    return run


def urls(text: str) -> list[str]:
    return re.findall(r"https?://\S+", text)


def test_the_teacher_code_from_the_environment_goes_to_the_server_in_its_environment_only(run_app):
    server, out, opened = run_app(env={"PLUMP_LARARKOD": "Hemlig-Kod7"})
    assert server.env["PLUMP_LARARKOD"] == "hemlig-kod7"
    assert not [a for a in server.cmd if "hemlig" in a.lower() or "--teacher" in a], server.cmd
    assert "hemlig" not in out.lower() and "lärarkoden i miljövariabeln PLUMP_LARARKOD" in out
    # the app's own environment no longer holds it (the browser it opens inherits that environment)
    assert "PLUMP_LARARKOD" not in os.environ
    assert opened == [f"http://127.0.0.1:8866/?kod={CODE}"]


def test_a_random_teacher_code_is_shown_once_in_the_terminal_and_in_no_url(run_app):
    server, out, opened = run_app("--ip", "0.0.0.0")
    teacher = server.env["PLUMP_LARARKOD"]
    assert re.fullmatch(r"[0-9a-z]{10}", teacher) and teacher != CODE
    assert out.count(teacher) == 1 and f"Logga in där med lärarkoden: {teacher}" in out
    assert not [a for a in server.cmd if teacher in a or "--teacher" in a]
    printed = urls(out) + opened
    assert printed and not [u for u in printed if teacher in u], printed
    # ?kod= in an address only ever holds the class code (the pupils' link)
    assert {m for u in printed for m in re.findall(r"[?&]kod=([^&\s]*)", u)} == {CODE}
    assert not [u for u in printed if u.count("?") > 1], printed


def test_the_teacher_code_from_a_file_only_its_owner_can_read(run_app, tmp_path):
    f = tmp_path / "lararkod"
    f.write_text("fil-kod-99\nandra raden\n")
    f.chmod(0o600)
    server, out, _ = run_app("--larare-kod-fil", str(f))
    assert server.env["PLUMP_LARARKOD"] == "fil-kod-99" and "fil-kod-99" not in out
    assert f"lärarkoden i filen {f}." in out


@pytest.mark.skipif(os.name == "nt", reason="Windows har inte rättigheterna 0o077")
@pytest.mark.parametrize("content, mode, says", [
    ("kod123\n", 0o644, "kan läsas av andra än dig (rättigheterna är 0644); skriv chmod 600"),
    ("kod123\n", 0o640, "kan läsas av andra än dig (rättigheterna är 0640)"),
    ("kod123\n", 0o604, "kan läsas av andra än dig (rättigheterna är 0604)"),
    ("", 0o600, "lärarkoden på första raden i filen"),
    ("\nkod123\n", 0o600, "är tom"),
    ("två ord; och mer\n", 0o600, "går inte att använda: bara bokstäver och siffror"),
    (None, None, "finns inte"),
])
def test_a_teacher_code_file_that_others_can_read_or_that_is_wrong_is_refused(run_app, tmp_path, capsys,
                                                                            content, mode, says):
    f = tmp_path / "lararkod"
    if content is not None:
        f.write_text(content)
        f.chmod(mode)
    with pytest.raises(SystemExit) as e: run_app("--larare-kod-fil", str(f))
    err = capsys.readouterr().err
    assert e.value.code == 2 and f"plump-teach: fel: " in err and says in err and "Traceback" not in err, err
    assert not FakeServer.started and "kod123" not in err


def test_the_old_teacher_code_option_says_how_to_give_the_code_now(run_app, capsys):
    for args in (["--teacher-code", "gammal99"], ["--teacher-code=gammal99"], ["--port", "9000", "--teacher-code", "gammal99"]):
        with pytest.raises(SystemExit) as e: run_app(*args)
        err = capsys.readouterr().err
        assert e.value.code == 2 and "--teacher-code finns inte längre" in err, err
        assert "PLUMP_LARARKOD" in err and "--larare-kod-fil" in err and "--fraga-larare-kod" in err
        assert "gammal99" not in err                            # the old code is not echoed back
        assert not FakeServer.started


def test_the_teacher_code_from_the_prompt_twice():
    a = app.cli_parser().parse_args(["--fraga-larare-kod"])
    answers = iter(["Kod 12345", "kod12346", "kod12345", "KOD12345"])
    asked = []
    def ask(prompt): asked.append(prompt); return next(answers)
    assert app.teacher_code(a, {}, ask=ask, tty=True) == ("kod12345", "som du skrev")
    assert len(asked) == 4 and asked[0].startswith("Lärarkod")
    never_the_same = iter(["kod111", "kod222"] * 3)
    with pytest.raises(app.TeacherCodeError, match="de två lärarkoderna var inte lika"):
        app.teacher_code(a, {}, ask=lambda prompt: next(never_the_same), tty=True)
    with pytest.raises(app.TeacherCodeError, match="behöver en terminal"):
        app.teacher_code(a, {}, ask=ask, tty=False)


def test_the_lessons_the_class_starts_with_go_to_the_server(run_app):
    server, out, _ = run_app("--lektion", "6", "1", "6")
    assert [a for a in server.cmd if a.startswith("--lesson=")] == ["--lesson=1", "--lesson=6"]
    assert "Sidorna för lektion 1 och 6 startas i förväg för hela klassen." in out
    server, _, _ = run_app()
    assert not [a for a in server.cmd if a.startswith("--lesson=")]


def test_the_class_link_page_is_created_readable_by_its_owner_only(run_app, tmp_path, monkeypatch):
    results = tmp_path / "resultat"
    results.mkdir(mode=0o755)
    page = results / "klasslank.html"
    page.write_text("gammal")
    page.chmod(0o644)                                           # as an older plump-teach left it
    opens = []
    real_open = os.open
    def spy(path, flags, mode=0o777, *a, **kw):
        if "klasslank" in str(path): opens.append((flags, mode))
        return real_open(path, flags, mode, *a, **kw)
    monkeypatch.setattr(os, "open", spy)
    run_app()
    assert stat.S_IMODE(page.stat().st_mode) == 0o600 and CODE in page.read_text()
    # created 0600 (not chmod-ed afterwards), under a new name that no one else had opened first
    assert opens and all(mode == 0o600 and flags & os.O_CREAT and flags & os.O_EXCL for flags, mode in opens), opens
    assert [p.name for p in results.iterdir()] == ["klasslank.html"]


def test_a_new_results_folder_is_for_the_teacher_only(run_app, tmp_path):
    run_app()
    assert stat.S_IMODE((tmp_path / "resultat").stat().st_mode) == 0o700


def test_a_teacher_code_in_the_environment_that_cannot_be_used_is_refused(run_app, capsys):
    with pytest.raises(SystemExit) as e: run_app(env={"PLUMP_LARARKOD": "två ord/och snedstreck"})
    err = capsys.readouterr().err
    assert e.value.code == 2 and "lärarkoden i PLUMP_LARARKOD går inte att använda" in err, err
    assert not FakeServer.started
