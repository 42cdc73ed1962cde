"""A lightweight simulated pupil for the classroom server (`plump-teach`): HTTP plus the kernel websocket.

One `Pupil` does what a pupil's browser does, without a browser:

1. GET /?kod=KOD&namn=ElevN (the landing; keeps the cookies it sets), then GET /voila/render/traning.ipynb.
   The whole page is read; its `jupyter-config-data` holds the kernel id. A 503 (or a page saying the class is
   full) counts as "full", not as a failure. With `static=True` it also fetches the page's own scripts and style
   sheets, like a browser with an empty cache.
2. Opens /api/kernels/<id>/channels?session_id=<uuid> with the cookies (the plain JSON protocol: no subprotocol),
   sends kernel_info_request and loads the widget state over the `jupyter.widget.control` comm
   (`request_states`, as Voilà's widget manager does). Time to a clickable puzzle: from the first GET until the
   page, the kernel_info_reply and the widget state are all in (then the browser draws live widgets).
3. Clicks 'Starta' (a comm_msg `{"method": "custom", "content": {"event": "click"}}` on the button's comm) and
   waits until the kernel is idle again (the first puzzle's widgets have come as comm_open), then clicks one
   answer button of the puzzle and measures click-to-feedback: until the update of an HTML model with the
   feedback (`role="status"`).
4. Waits for the bell (an asyncio.Event shared by the class), then leaves as a closed tab does:
   POST /voila/api/shutdown/<kernel_id> (no _xsrf, like the browser's beacon) and closes the websocket.

`Pupil.run()` never raises; it returns a dict with the outcome ('klar', 'fullt', 'fel', 'hänger'), the stage,
the times in seconds and a short error text.
"""
import asyncio
import json
import re
import struct
import time
import uuid
from http.cookies import SimpleCookie
from urllib.parse import quote

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

AsyncHTTPClient.configure(None, max_clients=1000)   # the default is 10 parallel requests per process

TRAINER = "/voila/render/traning.ipynb"
CONTROL_BUTTONS = {"Nästa uppgift", "Ledtråd", "Visa svar", "Starta", "Ny uppgift"}
_CONFIG = re.compile(r'<script id="jupyter-config-data" type="application/json">\s*(.*?)\s*</script>', re.S)
_ASSET = re.compile(r'(?:src|href)="(/[^"]+\.(?:js|css)(?:\?[^"]*)?)"')


def _decode(frame):
    "A kernel websocket frame as a message dict (text: JSON; bytes: the legacy binary format with buffers)."
    if isinstance(frame, str): return json.loads(frame)
    n = struct.unpack("!I", frame[:4])[0]
    offsets = list(struct.unpack("!" + "I" * n, frame[4:4 * (n + 1)])) + [len(frame)]
    msg = json.loads(frame[offsets[0]:offsets[1]].decode())
    msg["buffers"] = [frame[offsets[i]:offsets[i + 1]] for i in range(1, n)]
    return msg


class Kernel:
    "A kernel websocket: sends messages, keeps the widget models up to date, and lets one wait for a message."
    def __init__(self, conn, session: str):
        self.conn, self.session = conn, session
        self.models = {}              # model id -> state (from update_states, comm_open, comm_msg update)
        self.opened = []              # model ids in the order their comm_open came
        self.waiters = []             # (predicate, future)
        self.closed = False
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self):
        try:
            while True:
                frame = await self.conn.read_message()
                if frame is None: break
                msg = _decode(frame)
                self._track(msg)
                for pred, fut in list(self.waiters):
                    if not fut.done():
                        try:
                            if pred(msg): fut.set_result(msg)
                        except Exception as e: fut.set_exception(e)
        finally:
            self.closed = True
            for _, fut in self.waiters:
                if not fut.done(): fut.set_exception(ConnectionError("kärnans websocket stängdes"))

    def _track(self, msg):
        t, c = msg.get("msg_type") or msg["header"]["msg_type"], msg.get("content", {})
        if t == "comm_open" and c.get("target_name") == "jupyter.widget":
            self.models[c["comm_id"]] = dict(c.get("data", {}).get("state", {}))
            self.opened.append(c["comm_id"])
        elif t == "comm_msg":
            data = c.get("data", {})
            if data.get("method") in ("update", "echo_update") and c.get("comm_id") in self.models:
                self.models[c["comm_id"]].update(data.get("state", {}))

    def expect(self, pred):
        "A future for the first message (from now on) for which pred(msg) is true; register before sending."
        fut = asyncio.get_running_loop().create_future()
        self.waiters.append((pred, fut))
        fut.add_done_callback(lambda f: self.waiters.remove((pred, f)) if (pred, f) in self.waiters else None)
        return fut

    def send(self, channel: str, msg_type: str, content: dict, metadata: dict | None = None) -> str:
        msg_id = uuid.uuid4().hex
        msg = {"header": {"msg_id": msg_id, "username": "elev", "session": self.session, "msg_type": msg_type,
                          "version": "5.3", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
               "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": channel, "buffers": []}
        self.conn.write_message(json.dumps(msg))
        return msg_id

    async def request(self, channel, msg_type, content, pred, timeout, metadata=None):
        "Send a message and wait for the answer: pred(msg, msg_id) says which message it is."
        holder = {}
        fut = self.expect(lambda m: pred(m, holder.get("id")))
        holder["id"] = self.send(channel, msg_type, content, metadata)
        return await asyncio.wait_for(fut, timeout)

    def close(self):
        if not self.closed: self.conn.close()
        self.reader.cancel()


def _parent(m): return m.get("parent_header", {}).get("msg_id")
def _type(m): return m.get("msg_type") or m["header"]["msg_type"]
def _idle_after(m, msg_id): return _type(m) == "status" and _parent(m) == msg_id and m["content"].get("execution_state") == "idle"


class Pupil:
    "One simulated pupil; `await Pupil(...).run(bell)` gives the outcome and the times."
    def __init__(self, base: str, number: int, code: str | None = "kod", static: bool = True, timeout: float = 180,
                 page: str = TRAINER, views: int | None = None):
        self.base, self.number, self.code, self.static, self.timeout = base.rstrip("/"), number, code, static, timeout
        self.page, self.views = page, views     # the page to open, and how many widget views a whole page has
        self.name = f"Elev{number}"
        self.cookies = {}
        self.http = AsyncHTTPClient()
        self.arrived = asyncio.Event()   # set when the pupil is done (or gave up) and waits for the bell
        self.result = {"elev": self.name, "utfall": "hänger", "steg": "start", "fel": "", "tider": {},
                       "landning": None, "avsked": None}

    # ---- HTTP
    def _cookie_header(self): return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def _keep_cookies(self, response):
        for h in response.headers.get_list("Set-Cookie"):
            c = SimpleCookie(); c.load(h)
            for k, m in c.items(): self.cookies[k] = m.coded_value

    async def _fetch(self, path, method="GET", **kw):
        headers = {"Cookie": self._cookie_header()} if self.cookies else {}
        req = HTTPRequest(self.base + path, method=method, headers=headers, follow_redirects=False,
                          request_timeout=self.timeout, connect_timeout=self.timeout,
                          allow_nonstandard_methods=True, body=b"" if method == "POST" else None, **kw)
        r = await self.http.fetch(req, raise_error=False)
        if r.code == 599 and r.error: raise r.error
        self._keep_cookies(r)
        return r

    def _lap(self, key, t0):
        self.result["tider"][key] = round(time.monotonic() - t0, 3)

    # ---- the pupil's visit
    async def run(self, bell: asyncio.Event | None = None) -> dict:
        kernel = None
        kernel_id = None
        r = self.result
        t0 = time.monotonic()
        try:
            r["steg"] = "landning"
            if self.code is not None:
                land = await self._fetch(f"/?kod={quote(self.code)}&namn={quote(self.name)}")
                if land.code == 200 and b'name="samma"' in (land.body or b""):    # the name is known: "yes, it is me"
                    land = await self._fetch(f"/?kod={quote(self.code)}&namn={quote(self.name)}&samma=1")
                r["landning"] = land.code
                self._lap("landning", t0)
            r["steg"] = "sidan"
            page = await self._fetch(self.page)
            body = page.body.decode("utf-8", "replace") if page.body else ""
            self._lap("sidan", t0)
            if page.code == 503 or "Klassen är full" in body:
                r["utfall"], r["http"] = "fullt", page.code
                return r
            if page.code != 200:
                r["utfall"], r["fel"] = "fel", f"HTTP {page.code} för träningssidan"
                return r
            m = _CONFIG.search(body)
            kernel_id = m and json.loads(m.group(1)).get("kernelId")
            if not kernel_id:
                r["utfall"], r["fel"] = "fel", "ingen kärna i sidan"
                return r
            r["kärna"] = kernel_id
            r["vyer"] = body.count("application/vnd.jupyter.widget-view+json")
            r["ej_klar"] = body.count("plump-ej-klar")
            if self.static:
                r["steg"] = "filer"
                for path in sorted(set(_ASSET.findall(body))):
                    await self._fetch(path.replace("&amp;", "&"))
                self._lap("filer", t0)

            r["steg"] = "websocket"
            ws_url = self.base.replace("http", "ws", 1) + f"/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}"
            headers = {"Cookie": self._cookie_header()} if self.cookies else {}
            conn = await asyncio.wait_for(websocket_connect(HTTPRequest(ws_url, headers=headers,
                                                                        connect_timeout=self.timeout,
                                                                        request_timeout=self.timeout),
                                                            max_message_size=64 * 1024 * 1024), self.timeout)
            kernel = Kernel(conn, uuid.uuid4().hex)
            r["steg"] = "kernel_info"
            await kernel.request("shell", "kernel_info_request", {},
                                 lambda m, i: _type(m) == "kernel_info_reply" and _parent(m) == i, self.timeout)
            self._lap("kernel_info", t0)

            r["steg"] = "widgetar"
            control = uuid.uuid4().hex
            answer = kernel.expect(lambda m: _type(m) == "comm_msg" and m["content"].get("comm_id") == control
                                   and m["content"].get("data", {}).get("method") == "update_states")
            kernel.send("shell", "comm_open", {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}},
                        {"version": "1.0.0"})
            kernel.send("shell", "comm_msg", {"comm_id": control, "data": {"method": "request_states"}})
            states = (await asyncio.wait_for(answer, self.timeout))["content"]["data"]["states"]
            kernel.send("shell", "comm_close", {"comm_id": control, "data": {}})
            for mid, s in states.items(): kernel.models.setdefault(mid, {}).update(s.get("state", {}))
            self._lap("klickbart", t0)
            missing = [v for v in re.findall(r'"model_id":\s*"([0-9a-f]+)"', body) if v not in kernel.models]
            if (self.views is not None and r["vyer"] < self.views) or r["ej_klar"] or missing:
                r["utfall"], r["fel"] = "halv", (f"{r['vyer']} av {self.views} widgetar i sidan, {r['ej_klar']} celler "
                                                  f"ej klara, {len(missing)} widgetar utan modell")
                return r
            if self.page != TRAINER:
                await (self._table(kernel) if "spelbordet" in self.page else self._lesson(kernel))
                r["utfall"], r["steg"] = "klar", "klar"
                return r

            r["steg"] = "starta"
            start = next((mid for mid, s in kernel.models.items()
                          if s.get("_model_name") == "ButtonModel" and s.get("description") == "Starta"), None)
            if start is None:
                r["utfall"], r["fel"] = "fel", "ingen knapp Starta bland widgetarna"
                return r
            before = len(kernel.opened)
            t1 = time.monotonic()
            await kernel.request("shell", "comm_msg", {"comm_id": start, "data": {"method": "custom",
                                                                                 "content": {"event": "click"}}},
                                 _idle_after, self.timeout)
            self._lap("pussel", t1)
            buttons = [mid for mid in kernel.opened[before:] if kernel.models[mid].get("_model_name") == "ButtonModel"
                       and kernel.models[mid].get("description", "").strip() not in CONTROL_BUTTONS]
            if not buttons:
                new = [kernel.models[mid] for mid in kernel.opened[before:]]
                descs = [s.get("description") for s in new if s.get("_model_name") == "ButtonModel"]
                r["utfall"], r["fel"] = "fel", f"inga svarsknappar efter Starta ({len(new)} nya widgetar, knappar {descs})"
                return r

            r["steg"] = "svar"
            feedback = kernel.expect(lambda m: _type(m) == "comm_msg" and "role=\"status\"" in
                                     str(m["content"].get("data", {}).get("state", {}).get("value", "")))
            t2 = time.monotonic()
            kernel.send("shell", "comm_msg", {"comm_id": buttons[0], "data": {"method": "custom",
                                                                               "content": {"event": "click"}}})
            await asyncio.wait_for(feedback, self.timeout)
            self._lap("återkoppling", t2)
            r["utfall"], r["steg"] = "klar", "klar"
        except (asyncio.TimeoutError, TimeoutError):
            r["utfall"], r["fel"] = "hänger", f"inget svar på {self.timeout:.0f} s i steget {r['steg']}"
        except HTTPClientError as e:
            r["utfall"], r["fel"] = "fel", f"HTTP {e.code} ({e.message}) i steget {r['steg']}"
        except Exception as e:   # noqa: BLE001 — a benchmark counts failures, it does not stop on them
            r["utfall"], r["fel"] = "fel", f"{type(e).__name__}: {e} (steget {r['steg']})"[:300]
        finally:
            if r["utfall"] != "klar": self._lap("slut", t0)
            self.arrived.set()
            if bell is not None and r["utfall"] != "hänger":
                await bell.wait()
            await self._leave(kernel, kernel_id)
        return r

    async def _click_and_feedback(self, kernel, button):
        "Click an answer button; the time until the puzzle's feedback (an HTML update with role=status)."
        feedback = kernel.expect(lambda m: _type(m) == "comm_msg" and "role=\"status\"" in
                                 str(m["content"].get("data", {}).get("state", {}).get("value", "")))
        t2 = time.monotonic()
        kernel.send("shell", "comm_msg", {"comm_id": button, "data": {"method": "custom", "content": {"event": "click"}}})
        await asyncio.wait_for(feedback, self.timeout)
        self._lap("återkoppling", t2)

    async def _lesson(self, kernel):
        "A lesson page: the first puzzle's first answer (a button after the puzzle's 'Visa svar')."
        self.result["steg"] = "svar"
        order, after = list(kernel.models), None
        for mid in order:
            s = kernel.models[mid]
            if s.get("_model_name") != "ButtonModel": continue
            if s.get("description") == "Visa svar": after = True
            elif after and s.get("description", "").strip() not in CONTROL_BUTTONS:
                return await self._click_and_feedback(kernel, mid)
        raise RuntimeError("inget pussel med svarsknappar i lektionen")

    async def _table(self, kernel):
        "The table (lesson 7): 'Börja spela' on the first table, until the kernel is idle with new buttons (the bids)."
        self.result["steg"] = "börja spela"
        start = next((mid for mid, s in kernel.models.items()
                      if s.get("_model_name") == "ButtonModel" and s.get("description") == "Börja spela"), None)
        if start is None: raise RuntimeError("ingen knapp Börja spela")
        before = len(kernel.opened)
        t1 = time.monotonic()
        await kernel.request("shell", "comm_msg", {"comm_id": start, "data": {"method": "custom",
                                                                             "content": {"event": "click"}}},
                             _idle_after, self.timeout)
        self._lap("återkoppling", t1)
        if not any(kernel.models[m].get("_model_name") == "ButtonModel" for m in kernel.opened[before:]):
            raise RuntimeError("inga nya knappar efter Börja spela")

    async def _leave(self, kernel, kernel_id):
        "Close the tab: the browser's beacon to shut the kernel down, then the websocket goes."
        if kernel_id:
            try:
                res = await self._fetch(f"/voila/api/shutdown/{kernel_id}", method="POST")
                self.result["avsked"] = res.code
            except Exception as e:   # noqa: BLE001
                self.result["avsked"] = f"{type(e).__name__}"
        if kernel is not None: kernel.close()
