// The board's link, owned by the page (Web Serial and Web Bluetooth are page APIs): the worker's
// BoardProtocol gets and sends bytes through it. attachBoard(worker) wires the buttons and answers
// the worker's board-write and board-state messages.
const body = document.body;
let worker = null;

export function attachBoard(tableWorker) {
  worker = tableWorker;
  document.getElementById("connect-usb").onclick = connectUsb;
  document.getElementById("connect-ble").onclick = connectBluetooth;
  return { boardWrite, boardState, tellMissingLinks };
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

async function connectUsb() {
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
}

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

async function connectBluetooth() {
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
}
