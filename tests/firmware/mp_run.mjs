// Run a Python file under the real MicroPython interpreter (npm WebAssembly build).
// usage: node mp_run.mjs [--heap BYTES] [--lib DIR]... script.py [args ignored]
// Copies every .py file of each --lib DIR into /lib of MicroPython's in-memory filesystem
// (host files are invisible to it), puts /lib on sys.path, runs the script and exits 1 on any
// uncaught Python exception (the bundled command line would exit 0).
import fs from "fs";
import path from "path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript/micropython.mjs";

const args = process.argv.slice(2);
const libs = [];
let heap = 512 * 1024;
let script = null;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--lib") libs.push(args[++i]);
  else if (args[i] === "--heap") heap = parseInt(args[++i], 10);
  else script = args[i];
}
if (!script) {
  console.error("usage: node mp_run.mjs [--heap BYTES] [--lib DIR]... script.py");
  process.exit(2);
}
const mp = await loadMicroPython({ heapsize: heap, stdout: (t) => process.stdout.write(t + "\n"), stderr: (t) => process.stderr.write(t + "\n") });
mp.FS.mkdir("/lib");
for (const dir of libs) {
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith(".py")) mp.FS.writeFile("/lib/" + name, fs.readFileSync(path.join(dir, name)));
  }
}
try {
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\n");
  mp.runPython(fs.readFileSync(script, "utf8"));
} catch (error) {
  if (error.name === "PythonError" && error.type === "SystemExit") process.exit(0);
  console.error(error.name === "PythonError" ? error.message : String(error));
  process.exit(1);
}
process.exit(0);
