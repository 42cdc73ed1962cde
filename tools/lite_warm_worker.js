// plump-warm: tools/lite.py lägger detta först i Pyodide-kärnans arbetare (comlink.worker.*.js) på webbplatsen.
//
// Python som startar medan sidan ritas. Vid ett återbesök i elevläget skapar lab/index.html (tools/lite_early.html)
// kärnans arbetare redan under sidans första tiondels sekund och skickar {plumpWarm: {...}} till den: arbetaren
// börjar då ladda Pyodide och kursens paket och importera kärnans egna moduler (piplite, pyodide_kernel med IPython)
// och sidans (de kursmoduler lektionens celler importerar; {imports: [...]}), på den andra kärnan, medan JupyterLab
// laddas och ritar lektionen på den första (det tar 3-5 s). När lektionens kärna sedan skapas tar den över den
// arbetaren (tools/lite.py ändrar kärnans initWorker), och kärnans initialize(options) tar det Pyodide som redan
// laddas i stället för att börja om, om inställningarna är desamma (pyodideUrl, indexUrl, loadPyodideOptions);
// annars laddas det som förut.
// Resten av starten (lektionens mapp genom servicearbetaren, pipliteinställningarna, kärnans objekt) gör initialize
// som förut; importerna den gör är då redan klara. Ordningen skiljer sig bara i att pyodide_kernel importeras innan
// lektionens mapp är monterad; kärnan byter ändå katalog till lektionens mapp efter importen, som förut.
(() => {
  let warm = null;        // {w: inställningarna, py: löftet om Pyodide}
  let sink = null;        // kärnans _logMessage, när den har tagit över
  const early = [];       // Pyodides utskrifter innan dess
  const log = (level, data) => {
    (level === 'info' ? console.log : console.error)(data);
    const m = { type: 'text', level, data };
    if (sink) sink(m); else early.push(m);
  };
  self.addEventListener('message', (ev) => {
    const w = ev.data && ev.data.plumpWarm;
    if (!w) return;
    ev.stopImmediatePropagation();     // inget för comlink
    if (warm) return;
    const py = import(w.pyodideUrl).then((m) => m.loadPyodide({
      indexURL: w.indexUrl, stdout: (l) => log('info', l), stderr: (l) => log('critical', l), ...w.loadPyodideOptions }));
    // Kärnans egna moduler (piplite, pyodide_kernel med IPython) och sedan sidans (kursens) importeras medan
    // JupyterLab ritar lektionen: annars gör kärnans initialize och lektionens första celler det efter att kärnan
    // tagit över (ett par sekunder). Går en import fel slutar förimporten där: kärnan eller cellen gör om den och
    // får felet själv. Pyodide lämnas över först när importerna är klara (ett Pyodide kör en sak i taget).
    const preimport = async (p) => {
      for (const m of w.imports || []) {
        try { await p.runPythonAsync(`import ${m}`); } catch (e) { console.warn('plump-teach: förimporten stannade vid', m, e); return p; }
      }
      console.info('plump-teach: kärnans och sidans moduler importerade i förväg');
      return p;
    };
    warm = { w, py: py.then(preimport) };
    warm.py.catch(() => { /* kärnan får felet när den tar löftet */ });
  });
  // kärnans initRuntime: det Pyodide som redan laddas, eller null (då laddar kärnan som förut)
  self.__plumpTake = (opts, kernel) => {
    if (!warm) return null;
    const same = opts.pyodideUrl === warm.w.pyodideUrl && opts.indexUrl === warm.w.indexUrl &&
      JSON.stringify(opts.loadPyodideOptions || {}) === JSON.stringify(warm.w.loadPyodideOptions || {});
    if (!same) {
      console.warn('plump-teach: förladdat Python används inte, andra inställningar', opts, warm.w);
      warm = null;
      return null;
    }
    sink = (m) => kernel._logMessage(m);
    early.splice(0).forEach(sink);
    const py = warm.py;
    py.then((p) => { self.__plumpPython = p; }, () => {});   // för webbläsartesterna: vad kärnans Python ser
    warm = null;
    console.info('plump-teach: förladdat Python används');
    return py;
  };
})();
