"""Fixtures för webbläsartesterna: riktig Chromium (Playwright) mot JupyterLab 4 och Voilà.

Fixtures for the browser tests (a real Chromium driven by Playwright, against JupyterLab 4 and Voilà).

browser      sessionens Chromium (/usr/bin/chromium, eller $PLUMP_CHROMIUM). Saknas Chromium eller
             playwright hoppas testet över med en förklaring, utom när miljövariabeln CI är satt:
             då misslyckas det.
page         en ny sida i en egen kontext per test. Alla URL:er den begär loggas (`request_log`);
             misslyckas testet sparas screenshots/FAILED-<test>.png.
request_log  RequestLog för `page`: `.urls` (även websockets) och `.external()`, de som lämnat loopback.
jupyterlab   fabrik: `base_url = jupyterlab(*filer)` kopierar filerna till en tom rotkatalog och startar
             JupyterLab där (127.0.0.1, ledig port, utan token). Servern stoppas efter testet, även vid fel.
voila        fabrik: `url = voila(notebook, *andra_filer)` startar Voilà på notebooken på samma sätt.
jupyterlab_module  som jupyterlab, men en server för alla tester i modulen.
lite_site    webbplatsen utan installation (tools/lite.py build), byggd en gång per körning och process (en
             andra process väntar på bygget och återanvänder det); ger mappen.
lite_server  lite_site serverad med `tools/lite.py serve` på en ledig port; stoppas efter testet.

Hjälpfunktionerna (open_notebook_and_run_all, wait_for_text, outputs, screenshot …) finns i
browser_helpers.py. Skärmbilderna som testerna beskriver (screenshots/*.png) tas bara med PLUMP_SKARMBILDER=1. Serverloggarna (jupyterlab.log, voila.log) ligger i testets tmp_path och visas
om servern inte startar.
"""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from browser_helpers import (CHROMIUM, CHROMIUM_ARGS, RequestLog, copy_into, screenshot, server_env,
                             start_server, tail, unavailable)
from lite_helpers import BUILD_TIMEOUT, LITE, ROOT as PROJECT


def pytest_configure(config):
    if not config.pluginmanager.hasplugin("timeout"):   # utan pytest-timeout ska markören ändå vara känd
        config.addinivalue_line("markers", "timeout(seconds): tidsgräns per test (pytest-timeout)")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    rep = yield
    setattr(item, f"rep_{rep.when}", rep)   # låter `page` se om testet misslyckades
    return rep


# ---------------------------------------------------------------- webbläsaren

@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Python-paketet playwright", "the Python package playwright")
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} (Debian-paketet chromium)", f"{CHROMIUM} (the Debian package chromium)")
    pw = sync_playwright().start()
    try:
        # Playwright ger varje start en ny, tillfällig profilkatalog.
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


_request_logs: dict[int, RequestLog] = {}


@pytest.fixture
def page(browser, request):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="sv-SE")
    log = RequestLog()
    ctx.on("request", lambda r: log.record(r.url))
    ctx.on("requestfailed", lambda r: log.failed.append((r.url, r.failure or "")))
    pg = ctx.new_page()
    pg.on("websocket", lambda ws: log.record(ws.url))
    pg.set_default_timeout(30_000)
    _request_logs[id(pg)] = log
    try:
        yield pg
    finally:
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            try: screenshot(pg, f"FAILED-{request.node.name}", always=True)
            except Exception: pass
        _request_logs.pop(id(pg), None)
        ctx.close()


@pytest.fixture
def request_log(page) -> RequestLog:
    return _request_logs[id(page)]


# ---------------------------------------------------------------- servrarna

# JupyterLabs användarinställningar i testerna (skrivs i en egen katalog per server): inga nyheter
# och ingen uppdateringskontroll (ingen trafik ut, ingen fråga i hörnet), inga toasts som kan ligga
# över knappar, och alla celler i DOM (windowingMode "none") så att körräknarna går att läsa.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification": {
        "fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True},
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
}

LAB_FLAGS = [
    "--no-browser", "--allow-root",
    "--ServerApp.token=", "--ServerApp.password=",
    "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0",
    "--LabApp.news_url=None",                                          # hämta inga nyheter
    "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",  # leta inte efter ny version
    "--LabApp.extension_manager=readonly",                             # inga tillägg från PyPI
]


def jupyterlab_starter(tmp: Path, servers: list):
    """`start(*files, settings=None, extra_args=())` för fixturerna jupyterlab och jupyterlab_module: varje
    anrop startar en JupyterLab i en ny katalog under `tmp` och lägger servern i `servers`."""
    def start(*files, settings: dict | None = None, extra_args=()) -> str:
        home = tmp / f"jupyterlab{len(servers)}"
        root, user_settings, workspaces = home / "root", home / "user-settings", home / "workspaces"
        for d in (root, user_settings, workspaces): d.mkdir(parents=True)
        copy_into(root, files)
        merged = {k: dict(v) for k, v in LAB_SETTINGS.items()}
        for k, v in (settings or {}).items(): merged.setdefault(k, {}).update(v)
        for plugin, values in merged.items():
            ext, name = plugin.rsplit("/", 1)
            (user_settings / ext).mkdir(parents=True, exist_ok=True)
            (user_settings / ext / f"{name}.jupyterlab-settings").write_text(json.dumps(values))
        cmd = lambda port: [
            sys.executable, "-m", "jupyterlab", *LAB_FLAGS, f"--port={port}",
            f"--ServerApp.root_dir={root}",
            f"--LabApp.user_settings_dir={user_settings}", f"--LabApp.workspaces_dir={workspaces}",
            *extra_args]
        return start_server(cmd, "/api/status", root, home / "jupyterlab.log", server_env(home), servers)
    return start


@pytest.fixture
def jupyterlab(tmp_path):
    """Fabrik: `base_url = jupyterlab(*files, settings=None, extra_args=())`.

    Kopierar filerna (notebooks, kataloger) till en ny rotkatalog och startar JupyterLab där.
    `settings` ({"@jupyterlab/x-extension/plugin": {...}}) läggs ovanpå LAB_SETTINGS.
    """
    servers = []
    try:
        yield jupyterlab_starter(tmp_path, servers)
    finally:
        for s in servers: s.stop()


@pytest.fixture(scope="module")
def jupyterlab_module(tmp_path_factory):
    """Som `jupyterlab`, men servrarna delas av testerna i en modul och stoppas efter den sista.

    Testerna öppnar då notebookarna i var sin arbetsyta (/lab/workspaces/<namn>/tree/...), så att
    flikarna från ett tidigare test inte öppnas igen.
    """
    servers = []
    try:
        yield jupyterlab_starter(tmp_path_factory.mktemp("jupyterlab"), servers)
    finally:
        for s in servers: s.stop()


@pytest.fixture
def voila(tmp_path):
    """Fabrik: `url = voila(notebook, *files, extra_args=())`.

    Kopierar notebooken (och filer den behöver) till en ny katalog och startar `voila <notebook>`
    där; URL:en är sidan som visar notebooken (Voilà kör den när sidan begärs).
    """
    if importlib.util.find_spec("voila") is None:
        unavailable("Python-paketet voila", "the Python package voila")
    servers = []

    def start(notebook, *files, extra_args=()) -> str:
        home = tmp_path / f"voila{len(servers)}"
        root = home / "root"
        root.mkdir(parents=True)
        name = copy_into(root, [notebook, *files])[0]
        cmd = lambda port: [
            sys.executable, "-m", "voila", name, "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--Voila.port_retries=0",
            "--VoilaConfiguration.show_tracebacks=True",   # ett fel i en cell syns på sidan
            *extra_args]
        # "/" kör notebooken; en statisk sökväg gör det inte, och även 404 betyder att servern svarar
        base = start_server(cmd, "/voila/static/__ready__", root, home / "voila.log", server_env(home), servers)
        return base + "/"

    try:
        yield start
    finally:
        for s in servers: s.stop()


# ---------------------------------------------------------------- webbplatsen utan installation

@pytest.fixture(scope="session")
def lite_site(tmp_path_factory):
    "Build (or reuse) the site once per session; return its folder."
    if not (shutil.which("npm") and shutil.which("node")) and not (PROJECT / "_lite" / "site" / "index.html").exists():
        unavailable("npm och node (för att hämta Pyodide och kompilera i förväg)",
                    "npm and node (to fetch Pyodide and precompile)")
    log = tmp_path_factory.mktemp("lite") / "build.log"
    t0 = time.monotonic()
    with open(log, "w") as f:
        r = subprocess.run([sys.executable, str(LITE), "build"], cwd=PROJECT, stdout=f, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=BUILD_TIMEOUT)
    took = time.monotonic() - t0
    if r.returncode:
        pytest.fail(f"tools/lite.py build misslyckades ({r.returncode}):\n{tail(log, 80)}", pytrace=False)
    print(f"\n[lite] tools/lite.py build: {took:.1f} s\n{tail(log, 3)}")
    return PROJECT / "_lite" / "site"


@pytest.fixture
def lite_server(lite_site, tmp_path):
    "Serve the site with `tools/lite.py serve` on a free loopback port; stopped after the test."
    servers = []
    cmd = lambda port: [sys.executable, str(LITE), "serve", "--port", str(port), "--dir", str(lite_site)]
    try:
        yield start_server(cmd, "/jupyter-lite.json", PROJECT, tmp_path / "lite-serve.log", server_env(tmp_path),
                           servers)
    finally:
        for s in servers: s.stop()
