// Run a Python file under Pyodide (the pinned npm package) with the app's slim tablelight wheel.
// usage: node pyodide_run.mjs --wheel FILE.whl [--lib DIR]... script.py
// --lib copies each .py file of DIR into /lib (put first on sys.path). Prints the script's output;
// exits 1 on any uncaught Python exception. A script's global async main() is awaited after it runs.
import fs from "fs";
import path from "path";
import { loadPyodide } from "pyodide";

const args = process.argv.slice(2);
const libs = [];
let wheel = null;
let script = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--lib") libs.push(args[++i]);
  else if (args[i] === "--wheel") wheel = args[++i];
  else script = args[i];
}
if (!script || !wheel) {
  console.error("usage: node pyodide_run.mjs --wheel FILE.whl [--lib DIR]... script.py");
  process.exit(2);
}
const py = await loadPyodide({ stdout: (t) => process.stdout.write(t + "\n"), stderr: (t) => process.stderr.write(t + "\n") });
py.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel");
py.FS.mkdirTree("/lib");
for (const dir of libs) {
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".py")) py.FS.writeFile("/lib/" + name, fs.readFileSync(path.join(dir, name)));
  }
}
try {
  py.runPython("import sys\nsys.path.insert(0, '/lib')\n");
  await py.runPythonAsync(fs.readFileSync(script, "utf8"));
  // a script's async main() (CPython runs it with asyncio.run) runs on Pyodide's own loop
  if (py.globals.has("main")) await py.runPythonAsync("await main()");
} catch (error) {
  console.error(String(error && error.message || error));
  process.exit(1);
}
process.exit(0);
