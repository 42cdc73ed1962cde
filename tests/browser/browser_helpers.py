"""Hjälpfunktioner för webbläsartesterna (Chromium via Playwright, JupyterLab 4, Voilà).

Helpers for the browser tests. Fixtures are in conftest.py; tests import the helpers from here:

    from browser_helpers import open_notebook_and_run_all, wait_for_text, outputs, screenshot

(Modulen har ett eget namn i stället för att ligga i conftest.py, eftersom `from conftest import …`
blir tvetydigt så fort tests/ får en egen conftest.py.)
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest

HERE = Path(__file__).resolve().parent
SCREENSHOTS = HERE / "screenshots"
CHROMIUM = Path(os.environ.get("PLUMP_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-default-apps", "--disable-extensions", "--no-default-browser-check",
    # Inget lämnar maskinen: ingen proxy, och alla värdnamn utom loopback slås upp som "finns inte".
    # Begäran syns ändå i RequestLog (och misslyckas genast i stället för att vänta på nätet).
    "--no-proxy-server",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]
SERVER_START_TIMEOUT = 90    # s: JupyterLab/Voilà svarar på HTTP
KERNEL_TIMEOUT = 60_000      # ms: kärnan startad och ledig
RUN_ALL_TIMEOUT = 120_000    # ms: alla celler körda
OUTPUTS = ".jp-OutputArea-output"   # cellutdata; samma klass i JupyterLab och i Voilàs lab-mall

ENABLE_HINT = '`apt-get install -y chromium` + `.venv/bin/pip install -e ".[dev]"` (playwright, voila, pytest-timeout)'


def unavailable(sv: str, en: str):
    """Hoppa över testet eftersom `sv` (på engelska `en`) saknas, men misslyckas i stället när
    miljövariabeln CI är satt (icke-tom): i CI ska webbläsartesterna alltid köras."""
    msg = (f"Webbläsartesterna kan inte köras: {sv} saknas. Aktivera dem med: {ENABLE_HINT}.\n"
           f"Browser tests cannot run: {en} is missing. Enable them with: {ENABLE_HINT}.")
    if os.environ.get("CI"):
        pytest.fail(msg + "\nCI är satt, så testet misslyckas i stället för att hoppas över "
                    "(CI is set, so this fails instead of skipping).", pytrace=False)
    pytest.skip(msg)


# ---------------------------------------------------------------- begärda URL:er

@dataclass
class RequestLog:
    """Alla URL:er som en sida (och dess workers) begärt, i ordning, och dess websockets;
    `failed` är de begäranden som misslyckades, som (url, orsak)."""
    urls: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)

    def record(self, url: str): self.urls.append(url)

    def external(self) -> list[str]:
        "URL:er som lämnat loopback (allt utom 127.0.0.0/8, localhost och ::1; data:, blob: m.fl. räknas inte)."
        return [u for u in self.urls if not is_loopback_url(u)]


def is_loopback_url(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome", "chrome-extension", "devtools"): return True
    host = (parts.hostname or "").lower()
    return host in ("localhost", "::1") or host.startswith("127.")


# ---------------------------------------------------------------- servrar

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_no_proxy = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _answers(url: str) -> bool:
    "Svarar servern med HTTP (vilken statuskod som helst under 500)?"
    try:
        with _no_proxy.open(url, timeout=2) as r: return r.status < 500
    except urllib.error.HTTPError as e: return e.code < 500
    except (urllib.error.URLError, OSError): return False


def tail(path: Path, n: int = 60) -> str:
    try: return "\n".join(path.read_text(errors="replace").splitlines()[-n:])
    except OSError: return "(ingen logg)"


class Server:
    "En serverprocess i en egen processgrupp, med stdout och stderr i en loggfil."

    def __init__(self, cmd: list[str], cwd: Path, log: Path, env: dict):
        self.cmd, self.log = cmd, log
        self._logf = open(log, "ab")
        self.proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=self._logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)

    def wait_until_answers(self, probe_url: str, timeout: float = SERVER_START_TIMEOUT):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Servern avslutades med kod {self.proc.returncode}: {' '.join(self.cmd)}\n"
                                   f"--- {self.log} ---\n{tail(self.log)}")
            if _answers(probe_url): return
            time.sleep(0.2)   # avfrågning av en process som startar (ingen webbsida inblandad)
        raise TimeoutError(f"Servern svarade inte på {probe_url} inom {timeout} s\n"
                           f"--- {self.log} ---\n{tail(self.log)}")

    def stop(self):
        """SIGTERM till processgruppen (servern stänger då sina kärnor), SIGKILL om den dröjer.

        Kärnorna startas i en egen session och nås inte av processgruppen; de som servern startat
        och som ändå finns kvar avslutas via sina pid.
        """
        kids = []
        try:
            import psutil
            kids = psutil.Process(self.proc.pid).children(recursive=True)
        except Exception:
            pass
        if self.proc.poll() is None:
            try: os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError: pass
            try: self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                try: os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError: pass
                self.proc.wait(timeout=10)
        for k in kids:
            try: k.wait(timeout=5)
            except Exception:
                try: k.kill()
                except Exception: pass
        self._logf.close()


def start_server(cmd_for_port, probe_path: str, cwd: Path, log: Path, env: dict, servers: list) -> str:
    "Starta på en ledig port och vänta tills den svarar; tog någon annan porten emellan, försök med en ny."
    for attempt in range(3):
        port = free_port()
        srv = Server(cmd_for_port(port), cwd, log, env)
        servers.append(srv)
        base = f"http://127.0.0.1:{port}"
        try:
            srv.wait_until_answers(base + probe_path)
            return base
        except RuntimeError:
            if attempt == 2 or "already in use" not in tail(log, 200): raise
    raise AssertionError("unreachable")


def server_env(tmp: Path) -> dict:
    "Jupyters och IPythons kataloger i tmp: användarens inställningar och kärnspecar påverkar inte testet."
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("IPYTHONDIR", "ipython")):
        (tmp / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(tmp / sub)
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"   # tystar debugpy-varningen i kärnans logg
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost,::1"
    return env


def copy_into(root: Path, files) -> list[str]:
    names = []
    for f in map(Path, files):
        (shutil.copytree if f.is_dir() else shutil.copy2)(f, root / f.name)
        names.append(f.name)
    return names


# ---------------------------------------------------------------- JupyterLab 4

# Den synliga notebooken i huvudytan (testerna öppnar en i taget).
_PANEL = ("const panel = [...document.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')]"
          ".find(p => p.checkVisibility());")

# Kärnans läge i notebookens verktygsrad: kärnans namn `.jp-Toolbar-kernelName` ("No Kernel" innan
# en kärna valts) och indikatorn `.jp-Notebook-ExecutionIndicator[data-status]`
# (connecting/unknown/starting/idle/busy …). Indikatorn säger "idle" även när ingen kärna finns,
# därför krävs ett kärnnamn också. 'dialog' = en dialog (t.ex. "Select Kernel") är öppen.
JS_KERNEL_STATE = """() => {
  %s
  if (document.querySelector('.jp-Dialog')) return 'dialog';
  if (!panel) return 'loading';
  const name = panel.querySelector('.jp-Toolbar-kernelName')?.textContent.trim();
  const status = panel.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status;
  if (!name || name === 'No Kernel' || name === 'Ingen kärna') return 'no-kernel:' + status;
  return status === 'idle' ? 'ready' : 'kernel:' + status;
}""" % _PANEL

# Körräknarna i alla icke-tomma kodceller (tomma celler körs aldrig och får ingen räknare).
# `prev` = högsta räknaren före Run All. Klart när kärnan är ledig, ingen cell visar [*] och någon
# cell har fått en räknare > prev. Fel: en nyss körd cell har ett traceback i utdata (stderr med
# "Traceback (most recent call last)" eller "Cell In[n], line m"), eller Run All stannade innan
# alla celler kördes; då visas den senast körda cellens utdata.
JS_RUN_STATE = """(prev) => {
  %s
  if (!panel) return {done: false, why: 'ingen notebook'};
  const status = panel.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status;
  const tb = /Traceback \\(most recent call last\\)|^\\s*Cell In\\[\\d+\\], line \\d+/m;
  let running = 0, pending = 0, ran = 0, last = null;
  const counts = [], errors = [];
  const text = c => [...c.querySelectorAll('.jp-OutputArea-output')].map(o => o.textContent).join('\\n');
  panel.querySelectorAll('.jp-Notebook .jp-CodeCell').forEach((c, i) => {
    const prompt = c.querySelector('.jp-InputPrompt')?.textContent ?? '';
    if (prompt.includes('*')) running++;
    const src = c.querySelector('.jp-InputArea-editor .cm-content')?.textContent ?? '';
    if (!src.trim()) return;
    const m = /\\[(\\d+)\\]/.exec(prompt);
    const n = m ? +m[1] : null;
    counts.push(n);
    if (n === null || n <= prev) { pending++; return; }
    ran++;
    if (last === null || n > last.n) last = {n, index: i + 1, cell: c};
    const err = [...c.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
      .map(o => o.textContent).find(t => tb.test(t));
    if (err) errors.push('kodcell ' + (i + 1) + ' [' + n + ']:\\n' + err.slice(-3000));
  });
  const done = status === 'idle' && running === 0 && ran > 0;
  if (done && pending > 0 && errors.length === 0)
    errors.push('körningen stannade efter kodcell ' + last.index + ' [' + last.n + '] (' + pending +
                ' celler kördes inte); dess utdata:\\n' + text(last.cell).slice(-3000));
  return {done, status, running, pending, ran, counts, errors};
}""" % _PANEL


def kernel_state(page) -> str:
    return page.evaluate(JS_KERNEL_STATE)


def run_state(page, prev: int = 0) -> dict:
    return page.evaluate(JS_RUN_STATE, prev)


def wait_for_kernel_idle(page, timeout: float = KERNEL_TIMEOUT):
    """Vänta tills den öppna notebookens kärna är startad och ledig (Idle).

    Har notebooken ingen kärnspec i sin metadata (så ser den ut efter nbdev-clean) frågar JupyterLab
    med dialogen "Select Kernel"; den besvaras med förvalet (Python 3), som en person skulle göra.
    """
    end = time.monotonic() + timeout / 1000
    while True:
        left = max(1000, (end - time.monotonic()) * 1000)
        page.wait_for_function(f"() => ['ready', 'dialog'].includes(({JS_KERNEL_STATE})())",
                               timeout=left, polling=100)
        if kernel_state(page) == "ready":
            return
        dialog = page.locator(".jp-Dialog")
        try:
            header = dialog.locator(".jp-Dialog-header").inner_text(timeout=3000)
        except PlaywrightTimeoutError:
            continue   # the dialog closed by itself (JupyterLab found the notebook's kernel)
        if not re.search(r"Kernel|[Kk]ärna", header):
            raise AssertionError(f"Oväntad dialog i JupyterLab: {dialog.inner_text()!r}")
        dialog.locator("button.jp-mod-accept").click()   # "Select" (förvald kärna)
        dialog.wait_for(state="detached")


def open_notebook(page, base_url: str, name: str, timeout: float = KERNEL_TIMEOUT):
    "Öppna /lab/tree/<name> i JupyterLab och vänta tills cellerna syns och kärnan är ledig."
    page.goto(f"{base_url}/lab/tree/{quote(name)}")
    page.locator("#jp-main-dock-panel .jp-NotebookPanel .jp-Notebook .jp-Cell").first.wait_for(timeout=timeout)
    wait_for_kernel_idle(page, timeout)


def run_all_cells(page, timeout: float = RUN_ALL_TIMEOUT, allow_errors: bool = False) -> dict:
    """Menyn Run → Run All Cells, och vänta tills alla icke-tomma kodceller har körts.

    Returnerar läget: {counts, errors, …}. Gav en cell ett fel kastas AssertionError med
    felet, om inte allow_errors=True.
    """
    prev = max([c for c in run_state(page)["counts"] if c is not None], default=0)
    page.locator(".lm-MenuBar").get_by_role("menuitem", name=re.compile(r"^(Run|Kör)$")).click()
    page.locator('.lm-Menu li[data-command="runmenu:run-all"]').click()   # "Run All Cells"
    state = page.wait_for_function(f"(prev) => {{ const r = ({JS_RUN_STATE})(prev); return r.done && r; }}",
                                   arg=prev, timeout=timeout, polling=100).json_value()
    if state["errors"] and not allow_errors:
        raise AssertionError("Fel vid Run All Cells:\n" + "\n".join(state["errors"]))
    return state


def open_notebook_and_run_all(page, base_url: str, name: str, timeout: float = RUN_ALL_TIMEOUT,
                              allow_errors: bool = False) -> dict:
    "Öppna notebooken i JupyterLab 4, vänta på ledig kärna, kör alla celler och vänta tills de är klara."
    open_notebook(page, base_url, name)
    return run_all_cells(page, timeout, allow_errors)


# Körläget när alla kodceller är hopfällda (som i elevlektionerna): JS_RUN_STATE läser cellernas källkod i
# editorn, som inte ritas när cellen är hopfälld. Klart när alla kodceller har en körräknare > prev, ingen
# visar [*] och kärnan är ledig; fel = ett traceback i någon utdata.
JS_HIDDEN_RUN_STATE = """(prev) => {
  %s
  if (!panel) return {done: false, status: 'ingen notebook', counts: [], errors: []};
  const status = panel.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status;
  const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')].map(p => p.textContent);
  const counts = prompts.map(t => { const m = /\\[(\\d+)\\]/.exec(t); return m ? +m[1] : null; });
  const errors = [...panel.querySelectorAll('.jp-OutputArea-output')].map(o => o.textContent)
    .filter(t => /Traceback \\(most recent call last\\)|Error:/.test(t)).map(t => t.slice(-2000));
  const done = status === 'idle' && !prompts.some(t => t.includes('*')) && counts.every(n => n !== null && n > prev);
  return {done, status, counts, errors};
}""" % _PANEL


def run_all_hidden(page, timeout: float = RUN_ALL_TIMEOUT, allow_errors: bool = False) -> dict:
    """Run → Run All Cells, som eleven gör, och vänta tills alla kodceller har körts, även hopfällda
    (run_all_cells för elevlektionerna). Returnerar läget {done, status, counts, errors}; gav en cell
    ett fel kastas AssertionError med felet, om inte allow_errors=True."""
    prev = max([n for n in page.evaluate(JS_HIDDEN_RUN_STATE, 0)["counts"] if n is not None], default=0)
    page.locator(".lm-MenuBar").get_by_role("menuitem", name=re.compile(r"^(Run|Kör)$")).click()
    page.locator('.lm-Menu li[data-command="runmenu:run-all"]').click()
    state = page.wait_for_function(f"(prev) => {{ const r = ({JS_HIDDEN_RUN_STATE})(prev); return r.done && r; }}",
                                   arg=prev, timeout=timeout, polling=200).json_value()
    if state["errors"] and not allow_errors:
        raise AssertionError("Fel vid Run All Cells:\n" + "\n".join(state["errors"]))
    return state


# ---------------------------------------------------------------- allmänt

def outputs(page):
    "Cellernas utdata, där widgetarna ritas. Cellernas källkod ingår inte: text i koden ger ingen träff."
    return page.locator(OUTPUTS)


def wait_for_text(page, text, timeout: float = 30_000, within=None, exact: bool = False):
    """Vänta tills `text` (str eller re.Pattern) syns och returnera en Locator för den.

    Söker i cellernas utdata om inte `within` (Locator eller CSS-selektor) anges, så att samma
    text i en kodcell inte räknas.
    """
    scope = outputs(page) if within is None else (page.locator(within) if isinstance(within, str) else within)
    loc = scope.get_by_text(text, exact=exact).first
    loc.wait_for(state="visible", timeout=timeout)
    return loc


# Skärmbilderna är till för den som tittar på sidorna (1280x900, 768x1024, 390x844): de tas bara när
# PLUMP_SKARMBILDER=1 är satt, t.ex. `PLUMP_SKARMBILDER=1 python3 run.py test`. Utan den kostade de 473 bilder
# och ungefär 40 s av testkommandots tid, och ingen tittade på dem (CI kastar dem). Ett test som misslyckas
# sparar alltid sin (screenshots/FAILED-<test>.png, conftest.py).
TAKE_SCREENSHOTS = os.environ.get("PLUMP_SKARMBILDER", "") not in ("", "0")


def screenshot(page, name: str, full_page: bool = True, always: bool = False) -> Path:
    """Spara en skärmbild som tests/browser/screenshots/<name>.png (git-ignorerad) och returnera sökvägen: när
    PLUMP_SKARMBILDER är satt, eller `always` (skärmbilden av ett fel)."""
    path = SCREENSHOTS / f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name)}.png"
    if TAKE_SCREENSHOTS or always:
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)
    return path


# Är utdata ritade? `scope` 'lab' = den synliga notebooken i JupyterLab, annars hela sidan (Voilà, där
# #loading syns tills notebooken är körd). Klart när minst `count` utdata finns, alla har innehåll
# (en widget ritas in i en tom utdata, och "Loading widget..." står där medan den laddas); säger någon att
# widgeten inte gick att rita är det ett fel.
JS_OUTPUTS_RENDERED = """([scope, count]) => {
  const root = scope === 'lab'
    ? [...document.querySelectorAll('#jp-main-dock-panel .jp-NotebookPanel')].find(p => p.checkVisibility())
    : document;
  if (!root || document.querySelector('#loading')) return false;
  const outs = [...root.querySelectorAll('.jp-OutputArea-output')];
  const broken = outs.map(o => o.textContent).filter(t => /Error displaying widget|Error rendering/.test(t));
  if (broken.length) return {broken};
  return outs.length >= count && outs.every(o => (o.childElementCount > 0 || o.textContent.trim() !== '')
                                                 && !/Loading widget/.test(o.textContent)) && {n: outs.length};
}"""


def wait_for_outputs_rendered(page, count: int = 1, scope: str = "lab", timeout: float = 60_000) -> dict:
    """Vänta tills minst `count` cellutdata finns och alla är ritade (även widgetarna), i den synliga
    notebooken (`scope='lab'`) eller på hela sidan (`scope='page'`, Voilà). Kastar AssertionError om
    en widget inte gick att rita."""
    state = page.wait_for_function(f"(a) => ({JS_OUTPUTS_RENDERED})(a)", arg=[scope, count],
                                   timeout=timeout, polling=200).json_value()
    assert "broken" not in state, f"En widget ritades inte: {state['broken']}"
    return state


def settle(page, ms: int = 150):
    "Låt sidan rita om efter en ändring (två bildrutor och en kort stund, t.ex. efter set_viewport_size)."
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_timeout(ms)


# Sidans mått (fönstret, dokumentet och varje synlig notebook, dess rullande del och Voilàs #rendered_cells: bredd,
# höjd och innehållets bredd och höjd), bildruta för bildruta, tills de har varit desamma `frames` bildrutor i rad
# (högst `limit` ms). Sant om de stod still.
JS_LAYOUT_STILL = """async ([frames, limit]) => {
  const sig = () => {
    const d = document.documentElement, parts = [window.innerWidth, d.clientWidth, d.scrollWidth, d.scrollHeight];
    for (const el of document.querySelectorAll('.jp-NotebookPanel, .jp-WindowedPanel-outer, #rendered_cells'))
      if (el.checkVisibility()) {
        const r = el.getBoundingClientRect();
        parts.push(r.width, r.height, el.scrollWidth, el.scrollHeight);
      }
    return parts.join(',');
  };
  const t0 = performance.now();
  let last = sig(), same = 0;
  while (same < frames && performance.now() - t0 < limit) {
    await new Promise(r => requestAnimationFrame(r));
    const now = sig();
    same = now === last ? same + 1 : 0;
    last = now;
  }
  return same >= frames;
}"""


def settle_layout(page, frames: int = 8, limit_ms: int = 5000) -> bool:
    """Vänta tills sidan har ritat om efter en ändring av fönstrets storlek: sidans och notebookens mått är desamma
    `frames` bildrutor i rad (högst `limit_ms`). Efter set_viewport_size väntade testerna förut en fast stund
    (0,5-0,6 s per storlek); så länge väntar det här bara när sidan fortfarande rör sig."""
    return page.evaluate(JS_LAYOUT_STILL, [frames, limit_ms])


# Knappar (och annat att trycka på) i cellutdata under `root` som syns men är lägre än `min` px: tryckytor
# ska vara minst 44 px höga för ett finger. Returnerar dem med text, höjd och bredd.
JS_SMALL_BUTTONS = """(root, min) => [...root.querySelectorAll(
    '.jp-OutputArea-output :is(button, [role=button], input[type=button], input[type=submit], select)')]
  .filter(b => b.checkVisibility() && b.getBoundingClientRect().width > 0)
  .map(b => { const r = b.getBoundingClientRect();
              return {text: (b.textContent || b.value || '').trim().slice(0, 40), h: Math.round(r.height),
                      w: Math.round(r.width), cls: String(b.className).slice(0, 60)}; })
  .filter(b => b.h < min - 0.5)"""


def small_buttons(root, min_px: int = 44) -> list[dict]:
    "Knapparna i cellutdata i Locatorn `root` som syns men är lägre än `min_px` (se JS_SMALL_BUTTONS)."
    return root.evaluate(JS_SMALL_BUTTONS, min_px)


def assert_page_fits(name: str, problems: list[str], small: dict):
    """Slutdomen för en sida i elevkursen: `problems` (för breda element m.m.) och `small` ({knapptext: [var,
    höjd]}, knappar lägre än 44 px) ska vara tomma."""
    problems = list(problems)
    if small:
        problems.append(f"{sum(map(len, small.values()))} knappar lägre än 44 px: {small}")
    assert not problems, f"{name}:\n" + "\n".join(problems)


# ---------------------------------------------------------------- protokollföraren (ProtocolWidget)

def click(area, name):
    "Tryck på en knapp; bud (siffror) måste stämma exakt, andra knappar kan ha en ikon före texten."
    area.get_by_role("button", name=name, exact=name.isdigit()).click()


def bid(page, area, bidder, value):
    "Vänta tills budknapparna för `bidder` är ritade, och tryck på budet."
    wait_for_text(page, f"{bidder}s bud:", within=area)
    click(area, str(value))


def enter_tricks(page, area, tricks):
    "För in sticken ({namn: antal}) och stäng given."
    for name, t in tricks.items():
        box = area.locator(".widget-inline-hbox", has=page.locator("label", has_text=name)).filter(
            has=page.locator("input[type=number]")).first
        field = box.locator("input[type=number]")
        field.fill(str(t))
        field.press("Enter")
    click(area, "Stäng given")


def play_first_deal(page, area):
    """I en ny protokollförare: Anna, Bo och Cissi, Starta, och giv 1 (10 kort) förs in: Bo bjuder 3,
    Cissi 2, givaren Anna får inte bjuda 5 (P6: 3 + 2 + 5 = 10) och bjuder 1; sticken 3, 2, 5."""
    for i, name in enumerate(["Anna", "Bo", "Cissi"]):
        area.get_by_placeholder(f"Spelare {i + 1}").fill(name)
    click(area, "Starta protokollet")
    wait_for_text(page, "Giv 1 av 19: 10 kort. Anna ger och Bo är förhand. Bo bjuder.", within=area)
    bid(page, area, "Bo", 3)
    bid(page, area, "Cissi", 2)
    wait_for_text(page, "Annas bud:", within=area)
    wait_for_text(page, "Givaren får inte bjuda 5", within=area)
    assert area.get_by_role("button", name="5", exact=True).is_disabled()
    bid(page, area, "Anna", 1)
    wait_for_text(page, "För in sticken.", within=area)
    enter_tricks(page, area, {"Bo": 3, "Cissi": 2, "Anna": 5})
    wait_for_text(page, "Giv 2 av 19: 9 kort. Bo ger och Cissi är förhand.", within=area)


# ---------------------------------------------------------------- JupyterLite (tools/lite.py)

LITE_BOOT_TIMEOUT = 120_000   # ms: Pyodide har startat och notebookens första celler har körts


def wait_for_lite_notebook(page, name: str):
    """JupyterLite: notebooken `name` är den synliga fliken och dess celler finns. Fliken väntas in först: efter en
    omladdning återställer JupyterLite de gamla flikarna, och deras celler syns innan `name` har öppnats.
    LITE_BOOT_TIMEOUT: with three test processes on two cores, another page may be starting Pyodide meanwhile."""
    page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current", has_text=name).wait_for(
        timeout=LITE_BOOT_TIMEOUT)
    page.locator("#jp-main-dock-panel .jp-NotebookPanel .jp-Notebook .jp-Cell").filter(visible=True).first.wait_for(
        timeout=LITE_BOOT_TIMEOUT)


# JupyterLab's saved workspace in JupyterLite: the state database in the browser's IndexedDB. Its layout lists the
# open tabs as "notebook:<path>" once JupyterLab has saved it, which it does a while after the change.
JS_SAVED_TABS = """async () => {
  const db = await new Promise((ok, no) => { const q = indexedDB.open('JupyterLite Storage - /');
                                             q.onsuccess = () => ok(q.result); q.onerror = no; });
  try {
    if (!db.objectStoreNames.contains('statedb')) return '';
    const v = await new Promise(ok => { const q = db.transaction('statedb').objectStore('statedb').get('default');
                                        q.onsuccess = () => ok(q.result); q.onerror = () => ok(null); });
    const main = v && v.data && v.data['layout-restorer:data'] && v.data['layout-restorer:data'].main;
    return JSON.stringify(main && main.dock || '');
  } finally { db.close(); }
}"""


def wait_for_saved_tabs(page, paths, timeout: int = LITE_BOOT_TIMEOUT) -> None:
    """JupyterLite: wait until the workspace JupyterLab saved in the browser lists a tab for every path in `paths`
    (instead of a fixed pause: under load the save comes later)."""
    deadline = time.monotonic() + timeout / 1000
    while True:
        dock = page.evaluate(JS_SAVED_TABS)
        if all(f"notebook:{p}" in dock for p in paths):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"arbetsytan sparades inte med flikarna {list(paths)}: {dock[:300]}")
        page.wait_for_timeout(250)


def open_lite_puzzles(page, base_url: str, wrong: str):
    """JupyterLite: öppna pussel.ipynb, kör alla celler och vänta tills första pusslets knapp `wrong`
    går att klicka. Returnerar (pusslets widget, knappen). Kärnans "idle" kan synas innan Pyodide har
    startat, därför räknas först knappen."""
    page.goto(base_url + "/lab/index.html?path=pussel.ipynb")
    wait_for_lite_notebook(page, "pussel.ipynb")
    wait_for_kernel_idle(page)
    page.locator(".lm-MenuBar").get_by_role("menuitem", name=re.compile(r"^(Run|Kör)$")).click()
    page.locator('.lm-Menu li[data-command="runmenu:run-all"]').click()
    widget = outputs(page).filter(has_text="Givarens bud").filter(has_text="Uppgift 1 ").first
    button = widget.get_by_role("button", name=wrong, exact=True)
    button.wait_for(state="visible", timeout=LITE_BOOT_TIMEOUT)
    return widget, button


def right_and_wrong(puzzle):
    "Knapptexterna för ett rätt och ett fel svar på ett pussel, som widgeten visar dem."
    label = lambda o: f"{o.label} {o.card.name}" if o.card is not None else o.label
    right = next(o for o in puzzle.options if o.key in puzzle.answers)
    wrong = next(o for o in puzzle.options if o.key not in puzzle.answers)
    return label(right), label(wrong)


def click_bid_fast(area, value: int, drawn_for: str, tries: int = 300) -> int:
    """Tryck på budknappen `value` så fort Playwright kan, utan att vänta på att knapparna ritas om.

    `drawn_for` är klassen som knappen för det avsedda läget bär (plump-giv-G-steg-S-plats-P, se
    ProtocolWidget._refresh). Hinner klicket träffa en knapp som ritades för ett tidigare läge (den som nyss
    bjöd) räknas det, och budet klickas igen. Returnerar antalet sådana klick på gamla knappar."""
    from playwright.sync_api import Error as PlaywrightError
    stale = 0
    for _ in range(tries):
        button = area.locator("button.plump-bud", has_text=re.compile(rf"^\s*{value}\s*$")).first
        try: handle = button.element_handle(timeout=10_000)
        except PlaywrightError:
            raise AssertionError(f"ingen budknapp {value} (med klassen plump-bud) syns") from None
        try:
            classes = (handle.get_attribute("class") or "").split()
            handle.click(timeout=3_000)
        except PlaywrightError:
            continue   # knappen togs bort (ritades om) innan klicket hann fram
        if drawn_for in classes: return stale
        stale += 1
    raise AssertionError(f"budknappen {value} för {drawn_for} gick inte att träffa på {tries} försök")


def run_cell(page, index: int) -> str:
    "Kör kodcellen nummer `index` (från 0) i den öppna notebooken med Shift+Enter och returnera dess utdata."
    cell = page.locator("#jp-main-dock-panel .jp-NotebookPanel .jp-Notebook .jp-CodeCell").nth(index)
    before = cell.locator(".jp-InputPrompt").inner_text()
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(
        "([el, before]) => { const p = el.querySelector('.jp-InputPrompt').textContent;"
        " return p !== before && /\\[\\d+\\]/.test(p); }", arg=[cell.element_handle(), before])
    wait_for_kernel_idle(page)
    return cell.locator(".jp-OutputArea").inner_text()


def teacher_cookie(base: str, code: str) -> str:
    "Logga in på klassrummets lärarsida med formuläret (POST, utan webbläsare); ger kakan `plump_larare=…`."
    req = urllib.request.Request(f"{base}/larare/logga-in", data=urllib.parse.urlencode({"kod": code}).encode())
    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k): return None
    try: urllib.request.build_opener(Stay).open(req, timeout=30)
    except urllib.error.HTTPError as e:
        assert e.code == 303, e.code
        return next(c.split(";")[0] for c in e.headers.get_all("Set-Cookie") if c.startswith("plump_larare="))
    raise AssertionError("inloggningen skickade inte vidare")


def teacher_get(base: str, path: str, cookie: str) -> str:
    "Texten på lärarsidans `path` med inloggningens kaka `cookie`."
    req = urllib.request.Request(base + path, headers={"Cookie": cookie})
    with urllib.request.urlopen(req, timeout=30) as r: return r.read().decode("utf-8", "replace")


@contextmanager
def plump_teach_server(home: Path, code: str, *args: str, teacher: str | None = None, env: dict | None = None):
    """`plump-teach` ur samma miljö som testerna, på en ledig port i mappen `home`, utan webbläsare och med klasskoden
    `code` (och `args`, lärarkoden `teacher` i miljön); ger (adressen, processen) när landningssidan svarar. Efteråt stoppas den med SIGTERM, och
    hela processgruppen (servern och kärnorna) får SIGKILL om något finns kvar."""
    port, log = free_port(), home / "plump-teach.log"
    env = {**server_env(home), "TMPDIR": str(home), **({"PLUMP_LARARKOD": teacher} if teacher else {}), **(env or {})}
    with open(log, "wb") as out:
        proc = subprocess.Popen([str(Path(sys.executable).parent / "plump-teach"), "--no-browser", "--port", str(port),
                                 "--code", code, *args], env=env, cwd=home, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 120
        while True:
            assert proc.poll() is None, tail(log)
            try:
                if urllib.request.urlopen(f"{base}/?kod={code}", timeout=5).status == 200: break
            except OSError: pass
            assert time.monotonic() < end, tail(log)
            time.sleep(0.3)
        yield base, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try: proc.wait(timeout=30)
            except subprocess.TimeoutExpired: pass
        try: os.killpg(proc.pid, signal.SIGKILL)
        except OSError: pass
        proc.wait()


# ---------------------------------------------------------------- når trycket knappen?

# Knappar (och annat att trycka på) under `root` som syns i fönstret men där ett annat element ligger över
# knappens mitt: ett finger eller en mus som trycker där når inte knappen. En förälder till knappen räknas inte (då är
# knappen bortrullad i sin ruta, inte täckt). Returnerar dem med text och det som ligger över.
JS_COVERED_BUTTONS = """(root) => [...root.querySelectorAll('button, [role=button], input[type=button], select')]
  .filter(b => b.checkVisibility())
  .map(b => { const r = b.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
              if (r.width === 0 || x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
              const hit = document.elementFromPoint(x, y);
              if (!hit || b.contains(hit) || hit.contains(b)) return null;   // en förälder: knappen är bortrullad
              return {text: (b.textContent || b.value || '').trim().slice(0, 40), x: Math.round(x), y: Math.round(y),
                      over: String(hit.className?.baseVal ?? hit.className).slice(0, 60)}; })
  .filter(Boolean)"""


def covered_buttons(root) -> list[dict]:
    "Knapparna i Locatorn `root` som syns i fönstret men har något annat över sin mitt (se JS_COVERED_BUTTONS)."
    return root.evaluate(JS_COVERED_BUTTONS)


# Det som ligger över mitten av elementet, eller null när ett tryck där når elementet.
JS_COVERED_BY = """(b) => { const r = b.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !hit || b.contains(hit) || hit.contains(b) ? null : String(hit.className?.baseVal ?? hit.className).slice(0, 60); }"""


def tap_through(target, covered: list[dict]):
    """Tryck på knappen `target` (Locator eller ElementHandle) som en elev gör. Ligger något annat över knappens
    mitt läggs {text, over} till i `covered`, och klicket skickas direkt till knappen, så att testet kan fortsätta
    och felet redovisas i slutet."""
    target.scroll_into_view_if_needed()
    over = target.evaluate(JS_COVERED_BY)
    if over is None: return target.click()
    covered.append({"text": target.evaluate("b => (b.textContent || b.value || '').trim().slice(0, 40)"), "over": over})
    target.dispatch_event("click")
