// The page: it owns the screen (and, later, the board's link); the table runs in worker.js.
// document.body.dataset.state: "loading", then "ready" once the engines are loaded, or "error"
// (the message in #status). window.tablelight.call(op, arg) reaches the worker (tests, bench).
const body = document.body;
const status = document.getElementById("status");
const startedAt = performance.now();
let nextId = 1;
const waiting = new Map();
let latest = null;
let revealed = null;  // the seat whose player tapped "I am seat N" (pass and play)

function fail(message) {
  body.dataset.state = "error";
  status.textContent = `the app could not start: ${message}`;
}


const worker = new Worker("worker.js", { type: "module" });
worker.onerror = (event) => fail(event.message || "the worker failed to load");
worker.onmessage = (event) => {
  const message = event.data;
  if (message.type === "ready") return ready(message);
  if (message.type === "error") return fail(message.message);
  if (message.type === "update") return show(message.snapshot);
  if (message.type === "board-write") return boardWrite(message.hex);
  if (message.type === "board-state") return boardState(message.state, message.words);
  if (message.type === "saved") { body.dataset.saved = String(message.actions); return undefined; }
  const promise = waiting.get(message.id);
  if (!promise) return;
  waiting.delete(message.id);
  if ("error" in message) promise.reject(new Error(message.error));
  else promise.resolve(message.result);
};

function call(op, arg) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, op, arg });
  });
}

window.tablelight = { call, snapshot: () => latest, timings: {} };

const gamePicker = document.getElementById("game");
const kinds = document.getElementById("kinds");
let games = [];

function ready(message) {
  games = message.games;
  for (const game of games) gamePicker.append(new Option(game.name, game.name));
  gamePicker.onchange = describeGame;
  describeGame();
  window.tablelight.timings = { ...message.timings, ready_ms: performance.now() - startedAt };
  document.getElementById("new-game").hidden = false;
  document.getElementById("board-bar").hidden = false;
  document.getElementById("kept").hidden = false;
  listSaved(message.saved);
  if (message.kept) document.getElementById("saved").replaceChildren(text("li", message.kept));
  tellMissingLinks();
  status.textContent = `ready (${Math.round(window.tablelight.timings.ready_ms)} ms): choose a game`;
  body.dataset.state = "ready";
  // the offline copy is made once the engines are in: its downloads do not slow the first start
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch((error) => console.warn("no offline copy:", error));
  }
}

function describeGame() {
  const game = games.find((g) => g.name === gamePicker.value);
  if (game) kinds.textContent = `${game.min}-${game.max} seats: human or ${game.bots.join(", ")}`;
}

document.getElementById("new-game").onsubmit = async (event) => {
  event.preventDefault();
  const seats = document.getElementById("seats").value.split(",").map((s) => s.trim()).filter(Boolean);
  const seed = parseInt(document.getElementById("seed").value, 10) || 0;
  const delay = parseFloat(document.getElementById("delay").value);
  opened(await call("start", { game: gamePicker.value, seats, seed, bot_delay: delay >= 0 ? delay : 0.3 }));
};

// ------------------------------------------------ the games kept in this browser (worker.js keeps
// them in IndexedDB): resume one, download a record (`tablelight replay` reads it), open one.
async function opened(answer) {
  if (answer.error) {
    status.textContent = answer.error;
    return;
  }
  revealed = null;
  show(answer);
  listSaved(await call("saved"));
}

function listSaved(saved) {
  document.getElementById("saved").replaceChildren(...saved.map((game) => {
    const item = text("li", `game ${game.id}: ${game.game}, ${game.seats.join(", ")}, ${game.actions} actions, ${game.status}`);
    item.dataset.id = String(game.id);
    const button = text("button", game.status === "over" ? "look" : "resume");
    button.type = "button";
    button.onclick = async () => opened(await call("resume", game.id));
    item.append(button);
    return item;
  }));
}

document.getElementById("export").onclick = async () => {
  const record = await call("record");
  if (!record) return;
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
  link.download = `${record.game}-${latest && latest.id ? latest.id : "game"}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
};

document.getElementById("import").onchange = async (event) => {
  const file = event.target.files[0];
  event.target.value = "";
  if (file) opened(await call("import", await file.text()));
};

function text(tag, content, className) {
  const node = document.createElement(tag);
  node.textContent = content;
  if (className) node.className = className;
  return node;
}

function show(snapshot) {
  latest = snapshot;
  const table = snapshot.public;
  if (!table) return;
  document.getElementById("table").hidden = false;
  body.dataset.over = String(table.over);
  body.dataset.version = String(table.version);
  status.textContent = snapshot.failure || `${table.game}: ${table.message}`;
  document.getElementById("turn").textContent = table.turn_line;
  const humans = Object.values(snapshot.seats).filter(Boolean);
  const acting = humans.find((s) => s.your_turn);
  // Pass and play: with two people on one screen and a game that hides cards, a seat's cards show
  // only after its player taps (a game with nothing hidden needs no cover).
  const hides = humans.some((s) => s.secrets && s.secrets.length);
  const covered = humans.length > 1 && hides && !(acting && acting.seat === revealed);
  const seat = covered ? null : acting || humans[0];
  document.getElementById("cover").hidden = !covered;
  body.dataset.covered = String(covered);
  if (covered) {
    const reveal = document.getElementById("reveal");
    reveal.hidden = !acting;
    document.getElementById("cover-words").textContent = acting
      ? `pass the phone to ${acting.label}; the others look away` : "the cards are hidden until a person is to act";
    if (acting) {
      reveal.textContent = `I am seat ${acting.seat}`;
      reveal.onclick = () => { revealed = acting.seat; show(latest); };
    }
  }
  const feedback = document.getElementById("feedback");
  const secrets = document.getElementById("secrets");
  const choices = document.getElementById("choices");
  feedback.textContent = seat ? seat.feedback || (seat.your_turn ? `${seat.label}: ${seat.prompt}` : "") : "";
  secrets.replaceChildren(...(seat ? seat.secrets : []).map((s) =>
    Object.assign(text("div", `${s.title}: ${s.items ? s.items.join(", ") : s.text}`, "secret"), { title: `seat ${seat.seat}` })));
  choices.replaceChildren(...(seat && seat.your_turn ? seat.choices : []).map((choice) => {
    const button = text("button", choice.text);
    button.type = "button";
    button.onclick = () => choose(seat.seat, choice.action, seat.at);
    return button;
  }));
  const lines = seat ? seat.log : table.log;
  document.getElementById("log").replaceChildren(...lines.map((line) => text("li", line)));
}

async function choose(seat, action, at) {
  const answer = await call("act", { seat, action, at });
  if (!answer.done) document.getElementById("feedback").textContent = answer.words;
  show(await call("snapshot"));
}

// A browser without Web Bluetooth or Web Serial is told so when the page opens, with the ones that work.
const NO_BLUETOOTH = "this browser has no Web Bluetooth: pair the board from Chrome or Edge on a computer, " +
  "or Chrome on Android (iOS browsers and Firefox have none); on Linux turn on " +
  "chrome://flags/#enable-experimental-web-platform-features";
const NO_SERIAL = "this browser has no Web Serial: a board on USB needs Chrome or Edge on a computer";

function tellMissingLinks() {
  const missing = [];
  if (!navigator.bluetooth) missing.push(NO_BLUETOOTH);
  if (!("serial" in navigator)) missing.push(NO_SERIAL);
  document.getElementById("connect-ble").hidden = !navigator.bluetooth;
  document.getElementById("connect-usb").hidden = !("serial" in navigator);
  if (missing.length) boardState("none", `${missing.join("; ")}. You can still play by tapping here.`);
}

// ------------------------------------------------ the board's link: the page owns the port
// (Web Serial and Web Bluetooth are page APIs); the worker's BoardProtocol gets and sends bytes.
let boardWriter = null;
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex) => new Uint8Array(hex.match(/../g) || []).map((_, i) => parseInt(hex.substr(2 * i, 2), 16));

function boardWrite(hex) {
  if (boardWriter) boardWriter(fromHex(hex)).catch((error) => console.warn("board write failed:", error));
}

function boardState(state, words) {
  body.dataset.board = state;
  if (state === "paired") {  // words: the new host key, kept in this browser only (never shown)
    if (bleDevice) saveKey(bleDevice.id, words).catch((error) => console.warn("key not kept:", error));
    words = "paired: this browser's key is kept for this board";
  }
  document.getElementById("board").textContent = `board: ${words}`;
}

document.getElementById("connect-usb").onclick = async () => {
  if (!("serial" in navigator)) {
    boardState("none", NO_SERIAL);
    return;
  }
  let port;
  try {
    port = await navigator.serial.requestPort();
    await port.open({ baudRate: 115200 });
  } catch (error) {
    boardState("none", `no port opened (${error.message || error})`);
    return;
  }
  const writer = port.writable.getWriter();
  boardWriter = (bytes) => writer.write(bytes);
  worker.postMessage({ op: "board_open" });
  const reader = port.readable.getReader();
  let reason = "the USB port closed";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value && value.length) worker.postMessage({ op: "board_bytes", arg: toHex(value) });
    }
  } catch (error) {
    reason = `the USB port failed: ${error.message || error}`;
  }
  boardWriter = null;
  worker.postMessage({ op: "board_closed", arg: reason });
};

// Bluetooth LE: the Nordic UART Service (docs/protocol.md); the worker pairs or proves the key this
// browser keeps for the board (IndexedDB, by the browser's id for the device), then the protocol.
const NUS = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
const NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";  // the page writes here
const NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";  // the board notifies here
const CHUNK = 20;  // bytes per write at the default ATT MTU
let bleDevice = null;

function keyStore(mode) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("tablelight", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("board-keys");
    open.onsuccess = () => resolve(open.result.transaction("board-keys", mode).objectStore("board-keys"));
    open.onerror = () => reject(open.error);
  });
}

async function loadKey(id) {
  const store = await keyStore("readonly");
  return new Promise((resolve) => {
    const request = store.get(id);
    request.onsuccess = () => resolve(request.result || "");
    request.onerror = () => resolve("");
  });
}

async function saveKey(id, hex) {
  const store = await keyStore("readwrite");
  return new Promise((resolve, reject) => {
    const request = store.put(hex, id);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

document.getElementById("connect-ble").onclick = async () => {
  if (!navigator.bluetooth) {
    boardState("none", NO_BLUETOOTH);
    return;
  }
  let device, rx, tx;
  try {
    device = await navigator.bluetooth.requestDevice({ filters: [{ services: [NUS] }] });
    const server = await device.gatt.connect();
    const service = await server.getPrimaryService(NUS);
    rx = await service.getCharacteristic(NUS_RX);
    tx = await service.getCharacteristic(NUS_TX);
    tx.addEventListener("characteristicvaluechanged", (event) => {
      const value = event.target.value;
      const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
      if (bytes.length) worker.postMessage({ op: "board_bytes", arg: toHex(bytes) });
    });
    await tx.startNotifications();
  } catch (error) {
    boardState("none", `no board connected (${error.message || error})`);
    return;
  }
  bleDevice = device;
  let writes = Promise.resolve();
  boardWriter = (bytes) => (writes = writes.then(async () => {
    for (let i = 0; i < bytes.length; i += CHUNK) await rx.writeValueWithoutResponse(bytes.slice(i, i + CHUNK));
  }));
  device.addEventListener("gattserverdisconnected", () => {
    boardWriter = null;
    worker.postMessage({ op: "board_closed", arg: "the Bluetooth link dropped" });
  });
  worker.postMessage({ op: "board_open", arg: { bluetooth: true, key: await loadKey(device.id) } });
  // Tests only: Chromium's Bluetooth emulation cannot push a notification, so the page reads the
  // board's characteristic instead (an answered read fires the same characteristicvaluechanged).
  if (window.tablelightReadNotifications) {
    while (boardWriter) {
      try { await tx.readValue(); } catch (error) { break; }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
};
