// The board's link, owned by the page (Web Serial and Web Bluetooth are page APIs): the worker's
// BoardProtocol gets and sends bytes through it. attachBoard(worker) wires the buttons and answers
// the worker's board-write and board-state messages. At ready (tellMissingLinks) the page reconnects
// the board of the last visit without asking again where the browser allows it (a USB port or a
// Bluetooth device it was granted before: navigator.serial.getPorts(), navigator.bluetooth.getDevices());
// a USB board plugged back in is opened again, a Bluetooth board that drops is called back a while.
const body = document.body;
let worker = null;

export function attachBoard(tableWorker) {
  worker = tableWorker;
  document.getElementById("connect-usb").onclick = connectUsb;
  document.getElementById("connect-ble").onclick = connectBluetooth;
  const forget = document.getElementById("forget-board");
  if (forget) forget.onclick = forgetBoard;
  return { boardWrite, boardState, tellMissingLinks, closeBoard };
}

// A browser without Web Bluetooth or Web Serial is told so when the page opens, with the ones that work.
const NO_BLUETOOTH = "this browser has no Web Bluetooth: pair the board from Chrome or Edge on a computer, " +
  "or Chrome on Android (iOS browsers and Firefox have none); on Linux turn on " +
  "chrome://flags/#enable-experimental-web-platform-features";
const NO_SERIAL = "this browser has no Web Serial: a board on USB needs Chrome or Edge on a computer";
const NO_RECONNECT = "this browser cannot reconnect a Bluetooth board by itself: tap connect (Bluetooth) and " +
  "choose the board again (its key is kept, no pairing)";

function tellMissingLinks() {
  const missing = [];
  if (!navigator.bluetooth) missing.push(NO_BLUETOOTH);
  if (!("serial" in navigator)) missing.push(NO_SERIAL);
  document.getElementById("connect-ble").hidden = !navigator.bluetooth;
  document.getElementById("connect-usb").hidden = !("serial" in navigator);
  if (missing.length) boardState("none", `${missing.join("; ")}. You can still play by tapping here.`);
  if ("serial" in navigator && navigator.serial.addEventListener) {
    navigator.serial.addEventListener("connect", (event) => { if (!usbPort) openPort(event.target, "plugged in again"); });
  }
  reconnect().catch((error) => console.warn("no reconnection:", error));
}

// ------------------------------------------------ the board's link: the page owns the port
// (Web Serial and Web Bluetooth are page APIs); the worker's BoardProtocol gets and sends bytes.
let boardWriter = null;
let closing = null;  // closes the open link (USB or Bluetooth), or null
const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const fromHex = (hex) => new Uint8Array(hex.match(/../g) || []).map((_, i) => parseInt(hex.substr(2 * i, 2), 16));

function boardWrite(hex) {
  if (boardWriter) boardWriter(fromHex(hex)).catch((error) => console.warn("board write failed:", error));
}

function boardState(state, words) {
  // a link the person closed, or the board refused or forgot: what was said stays (the worker's
  // "away" for the closed port would hide it)
  if (state === "away" && stayAway) return;
  body.dataset.board = state;
  if (state === "paired") {  // words: the new host key, kept in this browser only (never shown)
    if (bleDevice) saveKey(bleDevice.id, words).catch((error) => console.warn("key not kept:", error));
    words = "paired: this browser's key is kept for this board";
  }
  if (state === "forgotten" || state === "refused") stayAway = true;  // no calling back a board that said no
  if (state === "forgotten" || (state === "refused" && forgetAsked)) {  // the board's answer: now this browser
    if (state === "refused") words = `${words}; this browser forgot the board on its side`;
    forgetAsked = false;
    if (closing) closing();
    forgetHere().catch((error) => console.warn("not forgotten here:", error));
  }
  document.getElementById("board").textContent = `board: ${words}`;
}

/** The page closes its link to the board (another tab takes the table over). */
function closeBoard() {
  stayAway = true;
  if (closing) closing();
}

// ------------------------------------------------ USB (Web Serial)
let usbPort = null;

async function connectUsb() {
  if (!("serial" in navigator)) {
    boardState("none", NO_SERIAL);
    return;
  }
  let port;
  try {
    port = await navigator.serial.requestPort();
  } catch (error) {
    // the chooser closed with no port: the browser's own words ("Failed to execute 'requestPort' ...") say nothing to a player
    boardState("none", error && error.name === "NotFoundError"
      ? "no board chosen: tap connect a board (USB) again and choose the board's port"
      : `no port chosen (${error.message || error})`);
    return;
  }
  await openPort(port, "");
}

async function openPort(port, why) {
  if (usbPort || bleDevice) return;
  usbPort = port;
  stayAway = false;
  try {
    await port.open({ baudRate: 115200 });
  } catch (error) {
    usbPort = null;
    boardState("none", `no port opened (${error.message || error})`);
    return;
  }
  if (why) boardState("handshake", `the USB board ${why}: shaking hands`);
  const writer = port.writable.getWriter();
  const reader = port.readable.getReader();
  boardWriter = (bytes) => writer.write(bytes);
  closing = () => reader.cancel().catch(() => {});
  worker.postMessage({ op: "board_open" });
  let reason = "the USB port closed";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value && value.length) worker.postMessage({ op: "board_bytes", arg: toHex(value) });
    }
  } catch (error) {
    reason = `the USB board is gone (${error.message || error}): plug it back in, the game waits here`;
  }
  boardWriter = null;
  closing = null;
  usbPort = null;
  reader.releaseLock();
  writer.releaseLock();
  port.close().catch(() => {});
  worker.postMessage({ op: "board_closed", arg: reason });
}

// ------------------------------------------------ Bluetooth LE
// The Nordic UART Service (docs/protocol.md); the worker pairs or proves the key this browser keeps
// for the board (IndexedDB, by the browser's id for the device), then the protocol.
const NUS = "6e400001-b5a3-f393-e0a9-e50e24dcca9e";
const NUS_RX = "6e400002-b5a3-f393-e0a9-e50e24dcca9e";  // the page writes here
const NUS_TX = "6e400003-b5a3-f393-e0a9-e50e24dcca9e";  // the board notifies here
const CHUNK = 20;  // bytes per write at the default ATT MTU
const CALL_BACK_MS = [1000, 2000, 4000, 8000, 15000];  // a dropped Bluetooth board is called back after these
let bleDevice = null;
let stayAway = false;  // the board refused or forgot us, or the person closed the link: no calling back
let forgetAsked = false;  // the board was asked to forget this browser: its answer is awaited

function keyStore(mode) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("tablelight", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("board-keys");
    open.onsuccess = () => resolve(open.result.transaction("board-keys", mode).objectStore("board-keys"));
    open.onerror = () => reject(open.error);
  });
}

function request(made) {
  return new Promise((resolve, reject) => {
    made.onsuccess = () => resolve(made.result);
    made.onerror = () => reject(made.error);
  });
}

async function loadKey(id) {
  try {
    return (await request((await keyStore("readonly")).get(id))) || "";
  } catch (error) {
    return "";
  }
}

async function saveKey(id, hex) {
  await request((await keyStore("readwrite")).put(hex, id));
}

async function keptIds() {
  return request((await keyStore("readonly")).getAllKeys());
}

async function connectBluetooth() {
  if (!navigator.bluetooth) {
    boardState("none", NO_BLUETOOTH);
    return;
  }
  let device;
  try {
    device = await navigator.bluetooth.requestDevice({ filters: [{ services: [NUS] }] });
  } catch (error) {
    boardState("none", error && error.name === "NotFoundError"
      ? "no board chosen: switch the board on nearby, tap connect a board (Bluetooth) again and choose it"
      : `no board connected (${error.message || error})`);
    return;
  }
  stayAway = false;
  await openDevice(device);
}

async function openDevice(device) {
  if (usbPort || bleDevice) return false;
  bleDevice = device;
  let rx, tx;
  try {
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
    bleDevice = null;
    boardState("none", error && error.name === "NotFoundError"
      ? "no board chosen: switch the board on nearby, tap connect a board (Bluetooth) again and choose it"
      : `no board connected (${error.message || error})`);
    return false;
  }
  let writes = Promise.resolve();
  boardWriter = (bytes) => (writes = writes.then(async () => {
    for (let i = 0; i < bytes.length; i += CHUNK) await rx.writeValueWithoutResponse(bytes.slice(i, i + CHUNK));
  }));
  closing = () => device.gatt.disconnect();
  device.addEventListener("gattserverdisconnected", () => dropped(device), { once: true });
  worker.postMessage({ op: "board_open", arg: { bluetooth: true, key: await loadKey(device.id) } });
  // Tests only: Chromium's Bluetooth emulation cannot push a notification, so the page reads the
  // board's characteristic instead (an answered read fires the same characteristicvaluechanged).
  if (window.tablelightReadNotifications) {
    (async () => {
      while (boardWriter && bleDevice === device) {
        try { await tx.readValue(); } catch (error) { break; }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
  }
  return true;
}

// The link dropped (the board switched off, out of range): the game goes on here; the board is
// called back a few times, then the person is told what to do.
async function dropped(device) {
  boardWriter = null;
  closing = null;
  bleDevice = null;
  worker.postMessage({ op: "board_closed", arg: "the Bluetooth link dropped" });
  for (const wait of CALL_BACK_MS) {
    await new Promise((resolve) => setTimeout(resolve, wait));
    if (stayAway || bleDevice || usbPort) return;
    if (await openDevice(device)) return;
  }
  if (!stayAway && !bleDevice && !usbPort) {
    boardState("away", "the Bluetooth board is out of reach: switch it on nearby and tap connect (Bluetooth); the game waits here");
  }
}

// ------------------------------------------------ after a reload: the board of the last visit
async function reconnect() {
  if ("serial" in navigator && navigator.serial.getPorts) {
    const ports = await navigator.serial.getPorts();
    if (ports.length === 1) {  // several: the person chooses (connect)
      await openPort(ports[0], "of the last visit is back");
      return;
    }
  }
  if (!navigator.bluetooth) return;
  const kept = await keptIds().catch(() => []);
  if (!kept.length) return;
  if (!navigator.bluetooth.getDevices) {
    boardState("none", NO_RECONNECT);
    return;
  }
  for (const device of await navigator.bluetooth.getDevices()) {
    if (kept.includes(device.id)) {
      boardState("handshake", "reconnecting the Bluetooth board of the last visit");
      if (await openDevice(device)) return;
    }
  }
}

// ------------------------------------------------ forget this board
// Over Bluetooth with the board connected: the board is asked to forget this browser's key (FORGET,
// docs/protocol.md); its answer ("forgotten") then clears this browser's side. Otherwise this browser
// forgets alone: the kept keys, the devices and ports it was granted.
async function forgetBoard() {
  forgetAsked = Boolean(bleDevice && body.dataset.board === "connected" && await askWorker("board_forget"));
  if (forgetAsked) return;  // the board's answer comes as the state "forgotten" (or "refused"), then this browser forgets
  closeBoard();
  await forgetHere();
  boardState("none", "forgotten in this browser (connect asks again); a Bluetooth board keeps its copy of the " +
    "key until newer hosts push it out: connect, then forget, to have the board forget too");
}

function askWorker(op) {
  return new Promise((resolve) => {
    const id = `board-${op}`;
    const listener = (event) => {
      if (!event.data || event.data.id !== id) return;
      worker.removeEventListener("message", listener);
      resolve(event.data.result);
    };
    worker.addEventListener("message", listener);
    worker.postMessage({ id, op });
  });
}

/** This browser's side: the kept keys, device.forget() and port.forget() where the browser has them. */
async function forgetHere() {
  const store = await keyStore("readwrite");
  await request(store.clear());  // one key a board; forgetting is for every board this browser knew
  if (navigator.bluetooth && navigator.bluetooth.getDevices) {
    for (const device of await navigator.bluetooth.getDevices()) {
      if (device.forget) await device.forget().catch(() => {});
    }
  }
  if ("serial" in navigator && navigator.serial.getPorts) {
    for (const port of await navigator.serial.getPorts()) {
      if (port.forget) await port.forget().catch(() => {});
    }
  }
}
