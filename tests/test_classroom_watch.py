"""Varje elevsida med kärna får sidans vakt (WATCH_SCRIPT och TAP_STYLE), också när Voilà skickar sidan i bitar.

Every pupil page with a kernel gets the page's watch (plump_teach.classroom.pages.WATCH_SCRIPT: the kernel closed,
the puzzles that did not come; TAP_STYLE: 44 px taps) before `</head>`, through the server's output transform
`NoOutsideLinks`. Voilà streams a page that runs while it is sent, and its first chunk can end before `</head>`:
then the watch goes into the chunk where `</head>` comes. Before, only a page whose first chunk held `</head>` (a
pre-started page) had it, and a lesson rendered on demand had neither the watch nor the 44 px taps.
"""
from types import SimpleNamespace

import pytest

tornado = pytest.importorskip("tornado")

from plump_teach.classroom.server import NoOutsideLinks  # noqa: E402

HTML = {"Content-Type": "text/html; charset=UTF-8"}


def sent(chunks: list[bytes], path: str = "/voila/render/01_vad_ar_plump.ipynb", headers=None) -> bytes:
    t = NoOutsideLinks(SimpleNamespace(path=path))
    _, _, first = t.transform_first_chunk(200, dict(headers or HTML), chunks[0], len(chunks) == 1)
    return first + b"".join(t.transform_chunk(c, i == len(chunks) - 2) for i, c in enumerate(chunks[1:]))


def test_streamed_page_gets_the_watch_where_its_head_ends():
    page = sent([b"<html><head><title>x</title>", b"<style></style></head><body>", b"<p>text</p></body></html>"])
    assert page.count(b"__plumpWidgetsMissing") == 1 and page.count(b"/elev/sida/") == 1
    assert page.index(b"__plumpWidgetsMissing") < page.index(b"</head>") < page.index(b"<body>")


def test_whole_page_gets_the_watch_once():
    page = sent([b"<html><head></head><body><p>a</p></body></html>", b"<p>b</p></head>"])
    assert page.count(b"/elev/sida/") == 1 and page.index(b"/elev/sida/") < page.index(b"</head>")


def test_page_with_length_gets_it_in_its_only_chunk():
    headers = {**HTML, "Content-Length": "40"}
    t = NoOutsideLinks(SimpleNamespace(path="/voila/render/start.ipynb"))
    _, h, chunk = t.transform_first_chunk(200, headers, b"<html><head></head><body></body></html>", True)
    assert chunk.count(b"/elev/sida/") == 1 and h["Content-Length"] == str(len(chunk))


def test_other_pages_get_no_watch():
    assert b"/elev/sida/" not in sent([b"<html><head>", b"</head><body></body></html>"], path="/larare")
    assert b"/elev/sida/" not in sent([b"<html><head>", b"</head></html>"], headers={"Content-Type": "text/css"})
