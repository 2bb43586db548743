// The table in a Web Worker: Pyodide (the pinned files next to this one, never a CDN), the slim
// tablelight wheel, and tablelight.app.engine.AppTable (the table core on Pyodide's asyncio).
// The page sends {id, op, arg}; the worker answers {id, result} or {id, error}, and pushes
// {type: "update", snapshot} whenever what the screens show changed.
import { loadPyodide } from "./pyodide/pyodide.mjs";

let table = null;
let engine = null;

async function load() {
  const started = performance.now();
  const about = await (await fetch("app.json")).json();
  const wheelLoad = fetch(about.wheel).then((response) => {  // meanwhile: Pyodide loads
    if (!response.ok) throw new Error(`the engines' wheel ${about.wheel} could not be loaded (${response.status})`);
    return response.arrayBuffer();
  });
  wheelLoad.catch(() => {});  // reported where it is awaited
  const py = await loadPyodide({ indexURL: new URL("./pyodide/", self.location).href, fullStdLib: false });
  const loadedPyodide = performance.now();
  const wheel = await wheelLoad;
  py.unpackArchive(wheel, "wheel");
  engine = py.pyimport("tablelight.app.engine");
  table = engine.AppTable(
    (text) => { const snapshot = JSON.parse(text); postMessage({ type: "update", snapshot }); keep(snapshot.actions); },
    (hex) => postMessage({ type: "board-write", hex }),
    (state, words) => postMessage({ type: "board-state", state, words }),
  );
  // the games are kept in IndexedDB: an SQLite file in Pyodide's IDBFS, synced after each change
  // (a browser without IndexedDB, a private window in some, still plays: its games last one visit)
  const storeStarted = performance.now();
  py.FS.mkdirTree(GAMES);
  let unkept = "";
  try {
    py.FS.mount(py.FS.filesystems.IDBFS, {}, GAMES);
    FS = py.FS;
    await sync(true);
  } catch (error) {
    FS = null;
    unkept = `games are not kept in this browser (no IndexedDB: ${error && error.message || error})`;
  }
  const saved = JSON.parse(table.open_store(`${GAMES}/games.db`));
  if (unkept) saved.error = unkept;
  const storeMs = performance.now() - storeStarted;
  const games = JSON.parse(table.games());
  const timings = { pyodide_ms: loadedPyodide - started, engines_ms: performance.now() - loadedPyodide, store_ms: storeMs };
  return { games: games.games, saved: saved.games || [], kept: saved.error || "", timings, version: about.version };
}

const GAMES = "/games";
let FS = null;
let syncing = Promise.resolve();

function sync(populate) {
  syncing = syncing.catch(() => {}).then(() => new Promise((resolve, reject) =>
    FS.syncfs(populate, (error) => (error ? reject(error) : resolve()))));
  return syncing;
}

// Each change is written to IndexedDB; the page learns how many actions are kept ("saved").
function keep(actions) {
  if (!FS) return;
  sync(false).then(() => postMessage({ type: "saved", actions }), (error) => console.warn("game not kept:", error));
}

const loading = load();
loading.then(
  (about) => postMessage({ type: "ready", ...about }),
  (error) => postMessage({ type: "error", message: String(error && error.message || error) }),
);

const OPS = {
  start: (arg) => JSON.parse(table.start(JSON.stringify(arg))),
  resume: (id) => JSON.parse(table.resume(id)),
  import: (text) => JSON.parse(table.import_record(text)),
  saved: () => JSON.parse(table.saved_games()).games,
  act: (arg) => JSON.parse(table.act(JSON.stringify(arg))),
  narrow: (arg) => JSON.parse(table.narrow(JSON.stringify(arg))),
  snapshot: () => JSON.parse(table.snapshot()),
  record: () => JSON.parse(table.record()),
  speed: (arg) => JSON.parse(engine.speed(arg.game, arg.players, arg.games, arg.seed)),
  // the board's port is the page's (Web Serial, Web Bluetooth): its bytes cross as hex text
  board_open: (arg) => table.board_open(Boolean(arg && arg.bluetooth), (arg && arg.key) || ""),
  board_bytes: (hex) => table.board_bytes(hex),
  board_closed: (reason) => table.board_closed(reason),
};

self.onmessage = async (event) => {
  const { id, op, arg } = event.data;
  try {
    await loading;
    if (!(op in OPS)) throw new Error(`unknown request ${op}`);
    const result = await OPS[op](arg);
    if (id !== undefined) postMessage({ id, result: result === undefined ? null : result });
  } catch (error) {
    postMessage({ id, error: String(error && error.message || error) });
  }
};

// ------------------------------------------------ phones: the page (phones.js) relays each phone's
// data channel; a phone gets its own seat's snapshot only, and its requests (act, narrow) go
// through the table's one door (AppTable.seat_view, AppTable.seat_request; docs/phones.md).
Object.assign(OPS, {
  seat_view: (seat) => JSON.parse(table.seat_view(seat)),
  seat_request: (arg) => JSON.parse(table.seat_request(JSON.stringify(arg))),
});
