// Kör en Python-fil i webbplatsens egen Pyodide, i Node (används av tools/lite.py vid bygget).
//
//   node tools/pyodide_run.mjs <pyodide-mapp> <värdmapp> <python-fil>
//
// Runs a Python file (top-level await allowed) in the site's own Pyodide under Node, with <host folder>
// mounted at /job. The build uses it to compile bytecode with exactly the Python that the students'
// browsers will run.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, hostDir, script] = process.argv.slice(2);
if (!script) {
  console.error("användning: node pyodide_run.mjs <pyodide-mapp> <värdmapp> <python-fil>");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({
  indexURL: resolve(pyodideDir) + "/",
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
pyodide.mountNodeFS("/job", resolve(hostDir));
try {
  await pyodide.runPythonAsync(readFileSync(script, "utf8"), { filename: script });
} catch (err) {
  console.error(String(err));
  process.exit(1);
}
