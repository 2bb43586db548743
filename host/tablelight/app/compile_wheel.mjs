// `tablelight app build` runs this under node: the slim wheel's modules compiled to bytecode by the
// pinned Pyodide's own Python (its version's magic number), so a page never compiles them again.
// usage: node compile_wheel.mjs PYODIDE_DIR WHEEL OUT_DIR
// Writes OUT_DIR/<path in the wheel> for each __pycache__/*.pyc (unchecked-hash: a page's unpacked
// files have no stable times, and the sources never change inside one build).
import fs from "fs";
import path from "path";
import { pathToFileURL } from "url";

const [pyodideDir, wheel, outDir] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: pyodideDir + path.sep });
py.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel");
// unpackArchive puts the wheel in the working folder (on sys.path), as the page's worker does
const site = py.runPython("import os, tablelight; os.path.dirname(os.path.dirname(tablelight.__file__))");
const names = py.runPython(`
import compileall, os, py_compile
root = os.path.join(${JSON.stringify(site)}, "tablelight")
compileall.compile_dir(root, quiet=2, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
found = []
for folder, _, files in os.walk(root):
    found += [os.path.relpath(os.path.join(folder, name), ${JSON.stringify(site)}) for name in files if name.endswith(".pyc")]
"\\n".join(sorted(found))
`);
for (const name of names.split("\n").filter(Boolean)) {
  const target = path.join(outDir, name);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, py.FS.readFile(`${site}/${name}`));
}
