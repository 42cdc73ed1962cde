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
body.plump-elev .jp-Collapser,
body.plump-elev .jp-CodeCell .jp-Cell-inputWrapper,
body.plump-elev .jp-Notebook-footer,
body.plump-elev .jp-cell-toolbar,
body.plump-elev .jp-CodeCell.jp-mod-noOutputs { display: none !important; }
body.plump-elev .jp-Notebook { padding: 8px 8px 72px 8px; }
body.plump-elev .jp-Cell { padding: 2px 4px; }
body.plump-elev .jp-Notebook .jp-Cell,
body.plump-elev .jp-Notebook .jp-Cell .jp-Cell-inputWrapper,
body.plump-elev .jp-Notebook .jp-Cell .jp-InputArea-editor,
body.plump-elev .jp-Notebook .jp-Cell .jp-MarkdownOutput { background: transparent !important; border-color: transparent !important;
  box-shadow: none !important; }
body.plump-elev #jp-menu-panel, body.plump-elev #jp-top-panel { display: none !important; }
body.plump-elev .jp-MarkdownOutput, body.plump-elev .jp-RenderedHTMLCommon { font-size: 16px; }
.plump-elev-banner { position: fixed; left: 0; right: 0; bottom: 0; z-index: 10000; display: none;
  padding: 12px 16px; background: #1f5f99; color: #fff; font: 16px/1.4 system-ui, sans-serif; }
`;

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
        app.shell.currentChanged.connect((_, change) => { if (fragment) scrollToFragment(change.newValue); });
      });

      if (!pupilMode()) return;
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
        const hasCode = (p) => p.content.widgets.some((c) => c.model.type === 'code');
        if (!hasCode(w)) {
          // startsidan och ordlistan: ingen kod, alltså ingen Python; lektionen eleven kom från får vara kvar
          // (tillbaka till den går fort)
          say('');
          try { await w.sessionContext.ready; await w.sessionContext.shutdown(); } catch (e) { /* ingen kärna */ }
          return;
        }
        for (const other of Array.from(app.shell.widgets('main'))) {   // en lektion med Python i taget
          if (other === w || !other.context || !other.content || !other.content.widgets || !hasCode(other)) continue;
          try { await other.context.sessionContext.shutdown(); } catch (e) { /* redan stängd */ }
          other.dispose();
        }
        say('Sidan startar: Python laddas i webbläsaren. Första gången kan det ta en halv minut.');
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
          say('Korten och knapparna ritas …');
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
          say(failed ? 'Något på sidan gick inte att visa. Ladda om sidan; hjälper det inte, säg till din lärare.' : '');
        } catch (e) {
          console.error(e);
          say('Något gick fel när sidan startade. Ladda om sidan och försök igen.');
        }
      }

      app.restored.then(async function () {
        await hideChrome();
        if (app.shell.modeChanged) app.shell.modeChanged.connect(() => { void hideChrome(); });
        if (app.shell.layoutModified) app.shell.layoutModified.connect(() => { void hideChrome(); });
        app.shell.currentChanged.connect((_, change) => { void hideChrome(); void lesson(change.newValue); });
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
