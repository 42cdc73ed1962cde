// plump_teach i JupyterLab och på webbplatsen utan installation (JupyterLite): ett litet tillägg, skrivet för hand.
//
// Alltid: ett ord i en lektion länkar till ordlistan med ett ankare (ordlista.ipynb#följa-färg); sidan rullas
// fram till ordet, vilket JupyterLab inte själv gör i en notebook som inte är betrodd.
//
// Elevläget:
// Voici (den statiska Voilà) går inte att bygga här, så webbplatsen visar elevlektionerna i JupyterLab, men
// utan JupyterLabs engelska ramar: ingen meny, inga sidopaneler, ingen statusrad, ingen verktygsrad, ingen kod.
// Varje lektion öppnas ensam, och dess celler körs av sig själva så att kort och knappar ritas; en svensk rad
// längst ner säger vad som händer medan Python laddas. När eleven går till en annan lektion stängs den förra
// och dess Python. Elevläget slås på av adressen ...?elev=1 (webbplatsens framsida leder dit) och gäller sedan
// i fliken; ...?elev=0 slår av det (för läraren som vill se hela JupyterLab).
// När eleven kommer tillbaka öppnas bara en sida: den som adressen säger, eller vid en omladdning den eleven
// senast var på (JupyterLab skulle annars öppna alla flikar från förra gången, var och en med sin egen Python).
// Kan Python inte laddas (nätet är borta och kursen är inte sparad, eller något annat fel) säger raden längst
// ner det på svenska och vad eleven ska göra, i stället för att vänta i all evighet.
// Fliken i webbläsaren heter som sidan ("Lektion 6: Spela med riktiga kort"), inte som filen: namnet är sidans
// metadata.title (plump_teach.course.build.no_code sätter den) eller annars dess första rubrik.
//
// Startsidan (start.ipynb) visar "✓ Målet klart" efter länken till varje lektion där eleven har nått målet. Målen
// står i filen .plump-framsteg.json bredvid startsidan (plump_teach.course.progress; lektionens Python skriver den,
// på webbplatsen i webbläsarens lagring); tillägget läser den genom JupyterLabs filtjänst varje gång startsidan
// visas. Märket är detsamma som klassrummets server sätter dit (progress.mark_reached, GOAL_MARK).
//
// På webbplatsen utan installation ber tillägget dessutom webbplatsens servicearbetare (tools/lite.py,
// tools/lite_service_worker.js) att spara hela kursen i webbläsaren när den första lektionen är klar (inte
// medan den startar: då skulle de dela på nätet), så att kursen sedan fungerar utan nät.
//
// Tillägget laddas som JupyterLabs "federated extensions": en skriptfil som lägger en behållare i
// window._JUPYTERLAB med init() och get(modul). pip installerar mappen labextension/ som
// share/jupyter/labextensions/plump-teach-elev (se pyproject.toml), där JupyterLab hittar den;
// tools/lite.py kopierar filen till webbplatsen och skriver in den i jupyter-lite.json. Det behöver ingen
// byggkedja (webpack, npm) och använder bara JupyterLabs kommandon och skal, inga moduler från dess delade scope.
(function () {
  'use strict';
  const NAME = 'plump-teach-elev';
  const STORE = 'plump-teach-elev';
  const PAGE = 'plump-teach-elev-sida';      // sidan eleven senast var på, i fliken
  const START = 'elev/start.ipynb';
  const GOAL_MARK = '✓ Målet klart';            // som plump_teach.course.progress.GOAL_MARK
  const GOAL_CLASS = 'plump-malet-klart';         // som progress.GOAL_MARK_CLASS
  const GOAL_STYLE = 'margin-left:0.5em;color:#1a7f37;font-weight:600;white-space:nowrap';
  const PROGRESS = '.plump-framsteg.json';        // som progress.PROGRESS_FILE

  const dirOf = (path) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '');
  const baseOf = (path) => path.slice(path.lastIndexOf('/') + 1);

  // Lektionerna där målet är nått, ur framstegsfilen bredvid sidan `path` (tom lista om filen saknas eller är trasig)
  async function reachedGoals(app, path) {
    try {
      const m = await app.serviceManager.contents.get(dirOf(path) + PROGRESS, { content: true, type: 'file', format: 'text' });
      const data = typeof m.content === 'string' ? JSON.parse(m.content) : m.content;
      const goals = data && typeof data.goals === 'object' && data.goals ? data.goals : {};
      return Object.keys(goals).filter((f) => /\.ipynb$/.test(f) && goals[f] && typeof goals[f].reached === 'string' && goals[f].reached);
    } catch (e) { return []; }           // ingen fil än: inga mål nådda
  }

  // Märket efter varje länk till en lektion i `files`, en gång per länk; länkar till andra lektioner tappar sitt
  function markLinks(node, files) {
    for (const a of Array.from(node.querySelectorAll('.jp-RenderedHTMLCommon a[href]'))) {
      const href = decodeURIComponent((a.getAttribute('href') || '').split(/[?#]/)[0]);
      const hit = files.some((f) => href === f || href.endsWith('/' + f));
      const mark = a.nextElementSibling && a.nextElementSibling.classList.contains(GOAL_CLASS) ? a.nextElementSibling : null;
      if (hit && !mark) {
        const span = document.createElement('span');
        span.className = GOAL_CLASS;
        span.setAttribute('style', GOAL_STYLE);
        span.textContent = GOAL_MARK;
        a.after(span);
      } else if (!hit && mark) mark.remove();
    }
  }

  // Startsidan: läs målen och märk länkarna; cellerna ritas när de rullas fram, så märkningen görs om när de ritas
  const watched = new WeakMap();
  async function markGoals(app, w) {
    if (!w || !w.context || !w.content || baseOf(w.context.path) !== 'start.ipynb') return;
    await w.context.ready;
    const files = await reachedGoals(app, w.context.path);
    let state = watched.get(w);
    if (!state) {
      state = { files };
      let queued = false;
      const obs = new MutationObserver(() => {
        if (queued) return;
        queued = true;
        setTimeout(() => { queued = false; markLinks(w.content.node, state.files); }, 50);
      });
      obs.observe(w.content.node, { childList: true, subtree: true });
      w.disposed.connect(() => obs.disconnect());
      watched.set(w, state);
    }
    state.files = files;
    markLinks(w.content.node, files);
  }

  // Sidans namn: metadata.title, annars den första rubriken med en #
  function pageTitle(w) {
    if (!w || !w.context || !w.content || !w.content.model) return '';
    try {
      const t = w.content.model.getMetadata ? w.content.model.getMetadata('title') : null;
      if (typeof t === 'string' && t.trim()) return t.trim();
    } catch (e) { /* ingen metadata */ }
    for (const c of w.content.widgets || []) {
      if (c.model.type !== 'markdown') continue;
      const src = c.model.sharedModel ? c.model.sharedModel.getSource() : '';
      const m = /^#\s+(.+?)\s*$/m.exec(src);
      if (m) return m[1].replace(/<!--.*?-->/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/\*\*|`/g, '').replace(/\s+/g, ' ').trim();
    }
    return '';
  }

  function pupilMode() {
    const q = new URLSearchParams(window.location.search);
    try {
      if (q.get('elev') === '0') { window.sessionStorage.removeItem(STORE); return false; }
      if (q.get('elev') === '1') window.sessionStorage.setItem(STORE, '1');
      return window.sessionStorage.getItem(STORE) === '1';
    } catch (e) {                       // lagringen kan vara avstängd: då gäller bara adressen
      return q.get('elev') === '1';
    }
  }

  const STYLE = `
body.plump-elev .jp-NotebookPanel-toolbar,
body.plump-elev .jp-InputPrompt,
body.plump-elev .jp-OutputPrompt,
body.plump-elev .jp-OutputArea-promptOverlay,
body.plump-elev .jp-InternalAnchorLink,
body.plump-elev .jp-Collapser,
body.plump-elev .jp-CodeCell .jp-Cell-inputWrapper,
body.plump-elev .jp-Notebook-footer,
body.plump-elev .jp-cell-toolbar,
body.plump-elev .jp-CodeCell.jp-mod-noOutputs { display: none !important; }
body.plump-elev .jp-Notebook { padding: 8px 8px 72px 8px; }
body.plump-elev .jp-LabShell { background: var(--jp-layout-color0, #fff); }   /* där menyraden stod: vitt, inte ett grått band */
body.plump-elev .jp-Cell { padding: 2px 4px; }
body.plump-elev .jp-Notebook .jp-Cell,
body.plump-elev .jp-Notebook .jp-Cell .jp-Cell-inputWrapper,
body.plump-elev .jp-Notebook .jp-Cell .jp-InputArea-editor,
body.plump-elev .jp-Notebook .jp-Cell .jp-MarkdownOutput { background: transparent !important; border-color: transparent !important;
  box-shadow: none !important; }
body.plump-elev #jp-menu-panel, body.plump-elev #jp-top-panel { display: none !important; }
body.plump-elev .jp-MarkdownOutput, body.plump-elev .jp-RenderedHTMLCommon { font-size: 16px; }
/* minst 44 px att trycka på: "Visa svaret" (<summary>) är en 44 px hög rad. På en telefon eller surfplatta får en
   länk i texten osynlig luft över och under (44 px minus en bokstavshöjd; raderna flyttas inte), raderna står lite
   glesare så att luften inte når mitten av en länk på raden ovanför, och länkarna i en lista står en per 44 px */
body.plump-elev .jp-RenderedHTMLCommon summary { min-height: 44px; box-sizing: border-box; padding: 10px 0; cursor: pointer; }
@media (max-width: 600px), (pointer: coarse) {
  body.plump-elev .jp-RenderedHTMLCommon :is(p, li) { line-height: 1.65; }
  body.plump-elev .jp-RenderedHTMLCommon a { padding: calc(22px - 0.5em) 0; }
  body.plump-elev .jp-RenderedHTMLCommon li:has(> a) { margin: 0; padding: 10px 0; }
}
.plump-elev-banner { position: fixed; left: 0; right: 0; bottom: 0; z-index: 10000; display: none;
  padding: 12px 16px; background: #1f5f99; color: #fff; font: 16px/1.4 system-ui, sans-serif; }
`;

  // Webbplatsen utan installation (JupyterLite) känns igen på sin konfiguration i sidan.
  const isLite = () => !!document.querySelector('script#jupyter-config-data[data-jupyter-lite-root]');
  let filled = false;
  function fillCache() {
    // be servicearbetaren spara resten av kursen (en gång per sida; den hoppar över det som redan finns)
    if (filled || !isLite() || !('serviceWorker' in navigator)) return;
    filled = true;
    navigator.serviceWorker.ready.then((r) => { if (r.active) r.active.postMessage({ plump: 'fyll' }); })
      .catch((e) => console.warn('plump-kurs', e));
  }

  // Finns Python (Pyodide) i webbläsarens sparade kurs, eller går servern att nå? Annars kan det inte laddas.
  async function pythonReachable() {
    const url = new URL('static/pyodide/pyodide.asm.wasm', new URL(
      document.querySelector('script#jupyter-config-data').getAttribute('data-jupyter-lite-root') + '/', window.location.href)).href;
    try { if (window.caches && await window.caches.match(url, { ignoreSearch: true })) return true; } catch (e) { /* ingen cache */ }
    try { await fetch(url, { method: 'HEAD', cache: 'no-store' }); return true; } catch (e) { return false; }
  }

  const MSG_LOADING = 'Sidan startar: Python laddas i webbläsaren. Första gången kan det ta en halv minut.';
  const MSG_SLOW = 'Python har inte startat än. Vänta en stund till. Händer inget: ladda om sidan. ' +
    'Hjälper det inte, säg till din lärare.';
  const MSG_NO_NET = 'Python kan inte laddas: webbläsaren når inte kursens server, och kursen är inte sparad här än. ' +
    'Ladda om sidan när nätet fungerar igen. Hjälper det inte, säg till din lärare.';
  const MSG_FAILED = 'Python gick inte att starta. Ladda om sidan när nätet fungerar. Hjälper det inte, säg till din lärare.';

  // Sidan adressen öppnar: ?path=… på webbplatsen, /lab/tree/… eller /doc/tree/… i JupyterLab
  function pathInAddress() {
    const here = new URL(window.location.href);
    const q = here.searchParams.get('path');
    if (q) return q.replace(/^\/+/, '');
    const m = /\/(?:lab|doc)\/(?:workspaces\/[^/]+\/)?tree\/(.+\.ipynb)$/.exec(here.pathname);
    return m ? decodeURIComponent(m[1]) : '';
  }

  // Sidan `path` som JSON från servern (JupyterLab: /files/…, webbplatsen: files/… under dess rot), eller null
  async function fetchNotebook(path) {
    try {
      const cfg = document.querySelector('script#jupyter-config-data');
      const root = isLite() ? cfg.getAttribute('data-jupyter-lite-root') + '/'
                            : (JSON.parse(cfg.textContent).baseUrl || '/');
      const url = new URL(root + 'files/' + path.split('/').map(encodeURIComponent).join('/'), window.location.href);
      const r = await fetch(url.href, { credentials: 'same-origin' });
      return r.ok ? await r.json() : null;
    } catch (e) { return null; }
  }

  // På webbplatsen ser Python lektionens mapp genom webbplatsens servicearbetare (JupyterLites "drive"), men bara
  // om den redan är registrerad när Pythons kärna skapas; vid första besöket tar det en stund. Sant när sidan har
  // en aktiv servicearbetare, falskt efter `ms` millisekunder eller i en webbläsare utan servicearbetare.
  async function serviceWorkerReady(ms) {
    const sw = navigator.serviceWorker;
    if (!sw) return false;
    let timer;
    const late = new Promise((resolve) => { timer = setTimeout(() => resolve(false), ms); });
    try { return await Promise.race([sw.ready.then(() => true), late]); } finally { clearTimeout(timer); }
  }

  // Python startar medan JupyterLab ritar: JupyterLab startar annars lektionens Python först när sidan är
  // ritad (3-5 sekunder efter att sidan begärdes), och Python behöver sedan lika länge till. Tillägget startar
  // samma session som lektionen själv skulle starta (samma sökväg och namn) så fort JupyterLabs tjänster finns;
  // när lektionen öppnas hittar den sessionen och använder den, och inget startas två gånger (JupyterLite och
  // Jupyter-servern ger båda tillbaka den session som redan finns för sidan). Bara för en sida med kod.
  async function startPythonEarly(app) {
    const path = pathInAddress();
    if (!/\.ipynb$/.test(path)) return;
    try {
      const sm = app.serviceManager;
      // sidan själv, som fil (JupyterLites innehållstjänst är långsam medan JupyterLab startar), samtidigt som
      // servicearbetaren blir klar
      const [nb, swOk] = await Promise.all([fetchNotebook(path), isLite() ? serviceWorkerReady(10000) : true, sm.ready]);
      if (!swOk || !nb) return;                        // så startar lektionen sin Python själv, som förut
      if (!(nb.cells || []).some((c) => c.cell_type === 'code')) return;
      if (Array.from(sm.sessions.running()).some((s) => s.path === path)) return;
      const spec = (nb.metadata && nb.metadata.kernelspec) || {};
      const name = spec.name || (sm.kernelspecs.specs && sm.kernelspecs.specs.default) || undefined;
      (window.__plumpTider = window.__plumpTider || {}).python = Math.round(performance.now());   // för tidslinjen
      // JupyterLites Python-kärna kan vara oregistrerad än ("No factory for kernel"): försök igen en stund
      for (let i = 0; ; i++) {
        try {
          const own = await sm.sessions.startNew({ path, name: baseOf(path), type: 'notebook', kernel: name ? { name } : undefined });
          own.dispose();   // bara vår förbindelse: sessionen och dess Python finns kvar åt lektionen
          return;
        } catch (e) {
          if (i >= 100 || !/No factory/.test(String(e && e.message))) throw e;
          if (Array.from(sm.sessions.running()).some((s) => s.path === path)) return;   // lektionen hann före
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    } catch (e) { console.warn('plump-teach-elev: Python startade inte i förväg', e); }
  }

  const plugin = {
    id: 'plump-teach-elev:pupil-mode',
    description: 'Elevläget: lektionerna utan JupyterLabs ramar och utan kod, körda av sig själva.',
    autoStart: true,
    activate: function (app) {
      // Ordlistans ankare, i båda lägena
      let fragment = null;
      document.addEventListener('click', (ev) => {
        // en länk till en annan notebook med ankare: ordlista.ipynb#ord (i JupyterLab ibland ordlista.ipynb?…#ord)
        const a = ev.target && ev.target.closest && ev.target.closest('.jp-RenderedHTMLCommon a[href*="#"]');
        const href = a ? a.getAttribute('href') : '';
        if (/\.ipynb(\?[^#]*)?#./.test(href)) fragment = decodeURIComponent(href.split('#').pop());
      }, true);
      function scrollToFragment(w) {
        // Ordlistans text ritas en stund efter att sidan öppnats, och JupyterLab kan självt rulla sidan under
        // tiden: vänta på rubriken (högst sex sekunder), rulla dit, och rulla dit igen strax efteråt.
        const name = fragment;
        fragment = null;
        if (!name || !w || !w.node) return;
        const sel = `[id="${CSS.escape(name)}"], [data-jupyter-id="${CSS.escape(name)}"]`;
        const until = Date.now() + 6000;
        const look = () => {
          const el = w.node.querySelector(sel);
          if (!el) { if (Date.now() < until) setTimeout(look, 200); return; }
          for (const ms of [0, 300, 1000]) setTimeout(() => el.scrollIntoView({ block: 'start' }), ms);
        };
        setTimeout(look, 100);
      }
      app.restored.then(() => {
        app.shell.currentChanged.connect((_, change) => {
          if (fragment) scrollToFragment(change.newValue);
          void markGoals(app, change.newValue);        // tillbaka på startsidan: målen kan ha nåtts sedan sist
        });
        void markGoals(app, app.shell.currentWidget);
      });

      if (!pupilMode()) {
        app.restored.then(() => setTimeout(fillCache, 20000));   // läraren: när sidan har hunnit starta
        return;
      }
      // Bara en sida, inga flikar från förra besöket: JupyterLab läser sin sparade arbetsyta först när alla
      // tillägg har startat, och i elevläget får det läsa en tom. Vilken sida som öppnas säger adressen
      // (?path=..., JupyterLite tar bort den när sidan är öppnad); saknas den: sidan eleven senast var på i den
      // här fliken (en omladdning), annars startsidan.
      try {
        const ws = app.serviceManager && app.serviceManager.workspaces;
        if (ws && typeof ws.fetch === 'function') ws.fetch = async (id) => ({ data: {}, metadata: { id } });
      } catch (e) { console.warn('plump-teach-elev', e); }
      if (isLite()) {
        const here = new URL(window.location.href);
        if (!here.searchParams.get('path')) {
          let last = null;
          try { last = window.sessionStorage.getItem(PAGE); } catch (e) { /* lagringen avstängd */ }
          here.searchParams.set('path', last || START);
          window.history.replaceState(window.history.state, '', here.href);
        }
      }
      void startPythonEarly(app);
      const remember = (path) => { try { window.sessionStorage.setItem(PAGE, path); } catch (e) { /* avstängd */ } };
      // Fliken heter som sidan; JupyterLab skriver sitt eget namn ("06_spela_med… - JupyterLab") när sidan byts
      // och ibland senare, så namnet sätts tillbaka när titeln ändras
      let wanted = '';
      const setTitle = () => { if (wanted && document.title !== wanted) document.title = wanted; };
      const titleFor = async (w) => {
        if (!w || !w.context || !w.content) return;
        try { await w.context.ready; } catch (e) { return; }
        if (app.shell.currentWidget !== w) return;
        wanted = pageTitle(w);
        setTitle();
      };
      new MutationObserver(setTitle).observe(document.head, { childList: true, subtree: true, characterData: true });
      document.body.classList.add('plump-elev');
      const style = document.createElement('style');
      style.textContent = STYLE;
      document.head.appendChild(style);
      const banner = document.createElement('div');
      banner.className = 'plump-elev-banner';
      banner.setAttribute('role', 'status');
      banner.setAttribute('aria-live', 'polite');
      document.body.appendChild(banner);
      const say = (text) => { banner.textContent = text; banner.style.display = text ? 'block' : 'none'; };
      const seen = new WeakSet();

      async function run(cmd, args) {
        try { if (app.commands.hasCommand(cmd)) await app.commands.execute(cmd, args); } catch (e) { console.warn(cmd, e); }
      }
      // JupyterLab ställer in sitt läge och sina paneler medan det återställer sidan, också efter app.restored;
      // elevläget ställs därför in igen när läget eller den aktiva sidan ändras, och en stund efter start.
      let busy = false, again = false;
      async function hideChrome() {
        if (busy) { again = true; return; }
        busy = true;
        try {
          if (app.shell.mode !== 'single-document') await run('application:set-mode', { mode: 'single-document' });
          for (const area of ['menu', 'top']) for (const m of Array.from(app.shell.widgets(area))) if (m.isVisible) m.hide();
          // bara det som syns ändras, så att layoutModified inte sätter igång en ny runda i onödan
          if (app.shell.collapseLeft && !app.shell.leftCollapsed) app.shell.collapseLeft();
          if (app.shell.collapseRight && !app.shell.rightCollapsed) app.shell.collapseRight();
          for (const [cmd, args] of [['application:toggle-header', {}], ['statusbar:toggle', {}],
                                     ['application:toggle-side-tabbar', { side: 'left' }],
                                     ['application:toggle-side-tabbar', { side: 'right' }]]) {
            try { if (app.commands.hasCommand(cmd) && app.commands.isToggled(cmd, args)) await run(cmd, args); }
            catch (e) { console.warn(cmd, e); }
          }
        } finally {
          busy = false;
          if (again) { again = false; setTimeout(() => { void hideChrome(); }, 50); }
        }
      }

      async function lesson(w) {
        // en notebook: en panel med dokumentkontext och celler
        if (!w || !w.context || !w.content || !w.content.widgets || seen.has(w)) return;
        if (!/\.ipynb$/.test(w.context.path)) return;
        seen.add(w);
        if (w.toolbar) w.toolbar.hide();
        await w.context.ready;
        // rutor som bara gäller hela JupyterLab (hur man kör en lektion med menyerna) syns inte i elevläget;
        // webbplatsen utan installation har redan tagit bort dem (tools/lite.py)
        for (const c of w.content.widgets) {
          const meta = c.model.getMetadata ? c.model.getMetadata('plump_teach') : null;
          if (meta && meta.jupyterlab_only) c.hide();
        }
        if (app.shell.currentWidget === w) remember(w.context.path);
        const hasCode = (p) => p.content.widgets.some((c) => c.model.type === 'code');
        if (!hasCode(w)) {
          // startsidan och ordlistan: ingen kod, alltså ingen Python; lektionen eleven kom från får vara kvar
          // (tillbaka till den går fort)
          say('');
          setTimeout(fillCache, 30000);   // efter första lektionen, eller om en halv minut (då laddas ingen Python)
          try { await w.sessionContext.ready; await w.sessionContext.shutdown(); } catch (e) { /* ingen kärna */ }
          return;
        }
        for (const other of Array.from(app.shell.widgets('main'))) {   // en lektion med Python i taget
          if (other === w || !other.context || !other.content || !other.content.widgets || !hasCode(other)) continue;
          try { await other.context.sessionContext.shutdown(); } catch (e) { /* redan stängd */ }
          other.dispose();
        }
        say(MSG_LOADING);
        // Vakten: startar inte Python säger raden det, i stället för att vänta i all evighet. Efter 8 sekunder
        // utan Python: går det alls att ladda (sparat i webbläsaren eller servern nåbar)? Efter en minut: vänta
        // eller ladda om; efter två och en halv: det gick inte.
        let finished = false;
        const kernelUp = () => { const k = w.sessionContext.session && w.sessionContext.session.kernel;
                                 return !!k && (k.status === 'idle' || k.status === 'busy'); };
        const timers = [
          setTimeout(async () => { if (!finished && !kernelUp() && isLite() && !(await pythonReachable()) && !finished) say(MSG_NO_NET); }, 8000),
          setTimeout(() => { if (!finished && !kernelUp()) say(MSG_SLOW); }, 60000),
          setTimeout(() => { if (!finished && !kernelUp()) say(MSG_FAILED); }, 150000),
        ];
        const stop = () => { finished = true; timers.forEach(clearTimeout); };
        // När alla celler har körts rullar JupyterLab till den sista; eleven ska i stället stå kvar där hen
        // läser: överst, eller där hen själv har rullat under tiden.
        const scroller = w.content.outerNode || w.content.node.querySelector('.jp-WindowedPanel-outer') || w.content.node;
        let top = scroller.scrollTop, touched = 0;
        const mark = () => { touched = Date.now(); };
        const keep = () => { if (Date.now() - touched < 800) top = scroller.scrollTop; };
        for (const ev of ['wheel', 'touchstart', 'touchmove', 'keydown', 'pointerdown']) scroller.addEventListener(ev, mark, { passive: true });
        scroller.addEventListener('scroll', keep, { passive: true });
        try {
          await w.sessionContext.ready;
          if (!finished && banner.textContent === MSG_LOADING) say('Korten och knapparna ritas …');
          app.shell.activateById(w.id);
          await app.commands.execute('notebook:run-all-cells');
          w.context.model.dirty = false;    // inget sparas: lektionen är densamma nästa gång
          const failed = w.content.widgets.some((c) => c.model.type === 'code' && c.model.outputs &&
            Array.from({ length: c.model.outputs.length }, (_, i) => c.model.outputs.get(i)).some((o) => o.type === 'error'));
          w.content.activeCellIndex = 0;
          w.content.deselectAll && w.content.deselectAll();
          scroller.removeEventListener('scroll', keep);
          const before = top;                 // JupyterLab rullar en stund efter körningen; ställ tillbaka efteråt
          for (const ms of [50, 400, 1200]) setTimeout(() => { if (Date.now() - touched > 800) scroller.scrollTop = before; }, ms);
          stop();
          say(failed ? 'Något på sidan gick inte att visa. Ladda om sidan; hjälper det inte, säg till din lärare.' : '');
          fillCache();
        } catch (e) {
          console.error(e);
          stop();
          say('Något gick fel när sidan startade. Ladda om sidan och försök igen.');
        }
      }

      app.restored.then(async function () {
        await hideChrome();
        if (app.shell.modeChanged) app.shell.modeChanged.connect(() => { void hideChrome(); });
        if (app.shell.layoutModified) app.shell.layoutModified.connect(() => { void hideChrome(); });
        app.shell.currentChanged.connect((_, change) => { void hideChrome(); void titleFor(change.newValue); void lesson(change.newValue); });
        void titleFor(app.shell.currentWidget);
        for (const ms of [500, 1500, 4000, 8000]) setTimeout(() => { void hideChrome(); }, ms);
        await lesson(app.shell.currentWidget);
      });
    }
  };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB[NAME] = {
    init: async function () { /* inga delade moduler */ },
    get: async function (module) {
      if (module !== './extension') throw new Error(`${NAME}: ingen modul ${module}`);
      return () => ({ __esModule: true, default: [plugin] });
    }
  };
})();
