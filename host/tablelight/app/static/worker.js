// The table in a Web Worker: Pyodide (the pinned files next to this one, never a CDN), the slim
// tablelight wheel, and tablelight.app.engine.AppTable (the table core on Pyodide's asyncio).
// The page sends {id, op, arg}; the worker answers {id, result} or {id, error}, and pushes
// {type: "update", snapshot} whenever what the screens show changed.
import { loadPyodide } from "./pyodide/pyodide.mjs";

let table = null;
let engine = null;
let python = null;  // Pyodide, for the modules the worker imports on demand (setting a board up)

// Each phase of the start is timed (ms from the worker's start; the page adds its own count):
// `tablelight bench app` prints them, to see where a later visit's time goes.
const marks = {};
const mark = (name) => { marks[name] = Math.round(performance.now()); };

async function load() {
  mark("worker_started");
  const claimed = claimTable();  // meanwhile (a reloaded tab's old worker may hold it a while)
  const about = await (await fetch("app.json")).json();
  mark("app_json");
  const wheelLoad = fetch(about.wheel).then((response) => {  // meanwhile: Pyodide loads
    if (!response.ok) throw new Error(`the engines' wheel ${about.wheel} could not be loaded (${response.status})`);
    return response.arrayBuffer();
  });
  wheelLoad.catch(() => {});  // reported where it is awaited
  const { py, snapshot } = await startPython(about.version);
  mark(snapshot ? "pyodide" : "pyodide_from_snapshot");
  const wheel = await wheelLoad;
  mark("wheel_fetched");
  py.unpackArchive(wheel, "wheel");
  python = py;
  mark("wheel_unpacked");
  engine = py.pyimport("tablelight.app.engine");
  mark("engines_imported");
  table = engine.AppTable(
    (text) => { if (gaveAway) return; const snapshot = JSON.parse(text); postMessage({ type: "update", snapshot }); keep(snapshot.actions); },
    (hex) => postMessage({ type: "board-write", hex }),
    (state, words) => postMessage({ type: "board-state", state, words }),
  );
  mark("table_made");
  // one table per browser on the kept games: another tab holding it, this one waits to be asked
  if (!(await claimed.decided())) {
    postMessage({ type: "elsewhere" });
    await takenOver;
    mark("taken_over");
  }
  // the games are kept in IndexedDB: an SQLite file in Pyodide's IDBFS, synced after each change
  // (a browser without IndexedDB, a private window in some, still plays: its games last one visit)
  py.FS.mkdirTree(GAMES);
  let unkept = "";
  try {
    py.FS.mount(py.FS.filesystems.IDBFS, {}, GAMES);
    FS = py.FS;
    await sync(true);
    mark("store_synced");
  } catch (error) {
    FS = null;
    unkept = `games are not kept in this browser (no IndexedDB: ${error && error.message || error})`;
  }
  const saved = JSON.parse(table.open_store(`${GAMES}/games.db`));
  if (unkept) saved.error = unkept;
  mark("store_opened");
  const games = JSON.parse(table.games());
  mark("games_listed");
  const timings = { ...marks, worker_origin: performance.timeOrigin };
  if (snapshot) keepSnapshot(about.version, snapshot);  // for the next visits (written after this one is ready)
  return { games: games.games, saved: saved.games || [], kept: saved.error || "", timings, version: about.version };
}

// ------------------------------------------------ Pyodide's start from a memory snapshot
// Python's own start in WebAssembly (its runtime, the stdlib's first imports, Pyodide's bootstrap)
// takes most of a later visit (about 1.2 s of 1.5 s here); Pyodide can restore the heap it had right
// after that start instead (about 0.1 s). The first visit of a build makes the snapshot before
// anything else runs (no wheel, no JS objects held) and keeps it in Cache Storage under a name the
// service worker keeps with the build's files; later visits load from it. Pyodide checks the
// snapshot's build id; a snapshot that does not load is dropped and Pyodide starts as usual.
// (`_makeSnapshot`, `_loadSnapshot`, `makeMemorySnapshot` are Pyodide's experimental API: the
// pinned version's; tests/app checks the second visit starts from the snapshot.)
const SNAPSHOT = "python-after-start";
const snapshotCache = (version) => `tablelight-${version}-pyodide`;

async function startPython(version) {
  const options = { indexURL: new URL("./pyodide/", self.location).href, fullStdLib: false };
  const kept = await keptSnapshot(version);
  if (kept) {
    try {
      return { py: await loadPyodide({ ...options, _loadSnapshot: kept }), snapshot: null };
    } catch (error) {
      console.warn("Pyodide's kept snapshot did not load: starting it afresh", error);
      self.caches.delete(snapshotCache(version)).catch(() => {});
    }
  }
  const py = await loadPyodide({ ...options, _makeSnapshot: true });
  let snapshot = null;
  try {
    snapshot = py.makeMemorySnapshot();
  } catch (error) {
    console.warn("no snapshot of Pyodide's start:", error);
  }
  return { py, snapshot };
}

async function keptSnapshot(version) {
  try {
    const cache = self.caches && await self.caches.open(snapshotCache(version));
    const found = cache && await cache.match(SNAPSHOT);
    return found ? new Uint8Array(await found.arrayBuffer()) : null;
  } catch {
    return null;  // no Cache Storage (some private windows): every visit starts Pyodide afresh
  }
}

function keepSnapshot(version, snapshot) {
  if (!self.caches) return;
  self.caches.open(snapshotCache(version))
    .then((cache) => cache.put(SNAPSHOT, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } })))
    .catch((error) => console.warn("Pyodide's snapshot not kept:", error));
}

const GAMES = "/games";
let FS = null;
let syncing = Promise.resolve();

function sync(populate) {
  const fs = FS;
  syncing = syncing.catch(() => {}).then(() => new Promise((resolve, reject) =>
    fs.syncfs(populate, (error) => (error ? reject(error) : resolve()))));
  return syncing;
}

// Each change is written to IndexedDB; the page learns how many actions are kept ("saved").
function keep(actions) {
  if (!FS) return;
  sync(false).then(() => postMessage({ type: "saved", actions }), (error) => console.warn("game not kept:", error));
}

// ------------------------------------------------ one table per browser
// Two tabs on the same kept games would overwrite each other's (each writes its whole SQLite file).
// The worker that keeps games holds the Web Lock "tablelight-table"; a second tab's worker says
// "elsewhere" and waits; "take_over" asks the holder (BroadcastChannel) to stop and let go once its
// last change is written, then this tab reads the games and starts. A holder that does not answer
// (its tab frozen) loses the lock after TAKE_OVER_MS.
const TABLE_LOCK = "tablelight-table";
// A reloaded tab's old worker may hold the lock until its teardown is done: seconds on a loaded phone.
// The claim waits for it while Python starts, then CLAIM_MS more; only then is the holder another tab.
const CLAIM_MS = 1500;
const TAKE_OVER_MS = 5000;
const tabs = typeof BroadcastChannel === "function" ? new BroadcastChannel("tablelight-tabs") : null;
let gaveAway = false;  // this tab gave the table to another: it shows nothing more
let letGo = null;  // resolves the held lock's promise: the lock is released
let tookOver = null;
const takenOver = new Promise((resolve) => { tookOver = resolve; });

function hold(lock, granted) {
  if (!lock) return granted(false);
  granted(true);
  return new Promise((release) => { letGo = release; });
}

// The table's lock, asked for at once; decided() waits CLAIM_MS more for it at the most.
function claimTable() {
  if (!self.navigator || !navigator.locks) return { decided: () => Promise.resolve(true) };  // no Web Locks: nothing to guard
  const waited = new AbortController();
  const decision = new Promise((granted) => {
    navigator.locks.request(TABLE_LOCK, { signal: waited.signal }, (lock) => hold(lock, granted))
      .catch((error) => (letGo && error.name === "AbortError" ? stopHere() : granted(false)));  // stolen, or waited long enough
  });
  return { decided: () => { setTimeout(() => waited.abort(), CLAIM_MS); return decision; } };
}

function takeOver() {
  if (tabs) tabs.postMessage("give-up");
  const stolen = setTimeout(() => {
    navigator.locks.request(TABLE_LOCK, { steal: true }, (lock) => hold(lock, tookOver)).catch(() => {});
  }, TAKE_OVER_MS);
  navigator.locks.request(TABLE_LOCK, (lock) => { clearTimeout(stolen); return hold(lock, tookOver); })
    .catch((error) => (letGo && error.name === "AbortError" ? stopHere() : undefined));
}

// This tab gives the table away: its game stops, its last change is written, then the lock goes.
async function stopHere() {
  const release = letGo;
  letGo = null;
  gaveAway = true;
  if (table) table.stop();
  const written = FS ? sync(false).catch(() => {}) : Promise.resolve();
  FS = null;  // no more writes from this tab
  postMessage({ type: "taken" });  // the page lets the board go
  await written;
  if (release) release();
}

if (tabs) tabs.onmessage = (event) => { if (event.data === "give-up" && letGo) stopHere(); };

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
  again: () => JSON.parse(table.again()),  // at game over: the next game of the same seats
  act: (arg) => JSON.parse(table.act(JSON.stringify(arg))),
  narrow: (arg) => JSON.parse(table.narrow(JSON.stringify(arg))),
  snapshot: () => JSON.parse(table.snapshot()),
  record: () => JSON.parse(table.record()),
  speed: (arg) => JSON.parse(engine.speed(arg.game, arg.players, arg.games, arg.seed)),
  // the board's port is the page's (Web Serial, Web Bluetooth): its bytes cross as hex text
  board_open: (arg) => table.board_open(Boolean(arg && arg.bluetooth), (arg && arg.key) || ""),
  board_bytes: (hex) => table.board_bytes(hex),
  board_closed: (reason) => table.board_closed(reason),
  board_forget: () => table.board_forget(),
};

self.onmessage = async (event) => {
  const { id, op, arg } = event.data;
  if (op === "take_over") return takeOver();
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

// ------------------------------------------------ setting a board up (setup.js): the plan
// `tablelight flash` makes, by the same Python (tablelight.app.setup_board); JSON text both ways.
const SETUP_STEPS = new Set(["wants", "plan", "verify", "bootloader", "check_uf2"]);
OPS.setup = ({ step, request }) => {
  if (!SETUP_STEPS.has(step)) throw new Error(`unknown setup step ${step}`);
  return JSON.parse(python.pyimport("tablelight.app.setup_board")[step](request));
};
