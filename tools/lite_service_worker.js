// Kursens servicearbetare: JupyterLites egen (service-worker-jupyterlite.js, för filerna som Python läser och
// skriver) med ett lager till, som sparar kursen i webbläsaren så att den fungerar utan nät.
//
// tools/lite.py skriver service-worker.js av den här filen: först PLUMP_VERSION (ett kontrollvärde över alla
// filerna i bygget) och PLUMP_FILES (filerna som sparas, relativt webbplatsens rot), sedan den här koden, sist
// importScripts av JupyterLites servicearbetare. JupyterLite registrerar själv service-worker.js; det får bara
// finnas en servicearbetare per webbplats, därför ligger lagret här och inte i en egen fil.
//
// Så fungerar lagret:
// * Allt som webbplatsen själv har (en GET-begäran till en fil under webbplatsens rot) besvaras först ur
//   cachen "plump-kurs-<version>". Finns filen inte där hämtas den från servern, och står den i PLUMP_FILES
//   sparas den. Frågetecknet i adressen räknas inte (JupyterLite lägger till ?_=..., ?v=... och ?path=...).
// * Sidan ber om resten ("plump-fyll") när eleven kan börja: då hämtas allt i PLUMP_FILES som saknas, fyra
//   filer åt gången, och sist sparas en markering (.plump-sparad) som säger att kursen är komplett. Det som
//   redan hämtas på en gång hämtas inte två gånger.
// * Ett nytt bygge har en ny version och alltså en ny cache; den förra versionen får ligga kvar (en sida som
//   redan är öppen kan behöva dess filer), äldre tas bort.
// * Utan nät och utan filen i cachen: en äldre version av filen om den finns, annars för en sida ett svenskt
//   meddelande i stället för webbläsarens felsida.
// * JupyterLites egna begäranden (/api/drive, /api/stdin/, pulsen) lämnas åt dess servicearbetare.
(function () {
  'use strict';
  const PREFIX = 'plump-kurs-';
  const NAME = PREFIX + PLUMP_VERSION;
  const BASE = new URL('./', self.location.href);
  const DONE = new URL('.plump-sparad', BASE).href;
  const FILES = PLUMP_FILES.map((f) => new URL(f, BASE).href);
  const LISTED = new Set(FILES);
  const pending = new Map();

  function keyOf(url) {
    // adressen utan frågetecken; en mapp betyder dess index.html
    if (url.origin !== BASE.origin || !url.pathname.startsWith(BASE.pathname)) return null;
    return url.origin + url.pathname + (url.pathname.endsWith('/') ? 'index.html' : '');
  }

  function jupyterlites(url) {
    const p = url.pathname;
    return p.includes('/api/drive') || p.includes('/api/stdin/') || p === '/api/service-worker-heartbeat';
  }

  // Hämta en fil i listan från servern och spara den; samma fil hämtas bara en gång åt gången. Svaret ges
  // ur cachen (alla som väntar får var sin kopia).
  function load(key) {
    let job = pending.get(key);
    if (!job) {
      job = (async () => {
        const res = await fetch(key, { cache: 'no-cache', credentials: 'same-origin' });
        if (!res.ok) return { status: res.status, statusText: res.statusText };
        const cache = await caches.open(NAME);
        await cache.put(key, res);
        return null;
      })();
      pending.set(key, job);
      const done = () => pending.delete(key);
      job.then(done, done);
    }
    return job.then(async (bad) => {
      if (bad) return new Response(null, bad);
      return (await (await caches.open(NAME)).match(key)) || fetch(key);
    });
  }

  async function answer(event, key) {
    const req = event.request;
    const hit = await (await caches.open(NAME)).match(key);
    if (hit) return hit;
    try {
      if (LISTED.has(key)) return await load(key);
      return await fetch(req);
    } catch (err) {
      const old = await caches.match(key);          // en äldre version av kursen
      if (old) return old;
      if (req.mode === 'navigate') return offlinePage();
      throw err;
    }
  }

  function offlinePage() {
    const html = '<!DOCTYPE html><html lang="sv"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Ingen kontakt</title></head>' +
      '<body style="font: 18px/1.5 system-ui, sans-serif; max-width: 40em; margin: 2em auto; padding: 0 1em">' +
      '<h1>Sidan kan inte visas utan nät</h1>' +
      '<p>Webbläsaren har inte hunnit spara den här sidan, och just nu når den inte servern.</p>' +
      '<p>Ladda om sidan när nätet fungerar igen. Går det inte, säg till din lärare.</p></body></html>';
    return new Response(html, { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  }

  async function fill() {
    const cache = await caches.open(NAME);
    if (await cache.match(DONE)) return;
    const have = new Set((await cache.keys()).map((r) => r.url));
    const todo = FILES.filter((f) => !have.has(f));
    let next = 0, failed = 0;
    async function worker() {
      while (next < todo.length) {
        const key = todo[next++];
        try { if (!(await load(key)).ok) failed++; } catch (e) { failed++; }
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()]);
    if (!failed) await cache.put(DONE, new Response(PLUMP_VERSION));
  }

  async function tidy() {
    // behåll den här versionen och den närmast före (nycklarna kommer i den ordning cacharna skapades)
    const ours = (await caches.keys()).filter((n) => n.startsWith(PREFIX) && n !== NAME);
    await Promise.all(ours.slice(0, -1).map((n) => caches.delete(n)));
  }

  self.addEventListener('fetch', (event) => {
    const req = event.request;
    if (req.method !== 'GET') return;
    const url = new URL(req.url);
    if (jupyterlites(url)) return;
    const key = keyOf(url);
    if (!key) return;
    event.stopImmediatePropagation();   // JupyterLites lyssnare ska inte också svara
    event.respondWith(answer(event, key));
  });

  self.addEventListener('message', (event) => {
    if (event.data && event.data.plump === 'fyll') event.waitUntil(fill().catch((e) => console.warn('plump-kurs', e)));
  });

  self.addEventListener('activate', (event) => { event.waitUntil(tidy()); });
})();
