// A board's drive over Bluetooth: CircuitPython's BLE file transfer service (0xFEBB; the protocol
// of adafruit/Adafruit_CircuitPython_BLE_File_Transfer, version 4), the same methods as
// drive_usb.js, so setup.js sets a board up either way. Commands go out in 20-byte writes (the
// smallest ATT MTU); the board's answers arrive as notifications, read here as one byte stream.
// A file is written under a temporary name, the old one deleted and the new one moved into place
// (the protocol's move refuses an existing target); each answer not OK is an error naming the path.
import { TEMP_PREFIX } from "./drive_usb.js";

export const SERVICE = 0xfebb;
const VERSION_UUID = "adaf0100-4669-6c65-5472-616e73666572";
const TRANSFER_UUID = "adaf0200-4669-6c65-5472-616e73666572";
const PACKET = 20;
const READ_CHUNK = 490;  // what Adafruit's client asks for at a time
const OK = 0x01;
const CMD = { READ: 0x10, READ_DATA: 0x11, READ_PACING: 0x12, WRITE: 0x20, WRITE_PACING: 0x21, WRITE_DATA: 0x22,
  DELETE: 0x30, DELETE_STATUS: 0x31, MKDIR: 0x40, MKDIR_STATUS: 0x41, LISTDIR: 0x50, LISTDIR_ENTRY: 0x51,
  MOVE: 0x60, MOVE_STATUS: 0x61 };
const ANSWER_MS = 10_000;

class Lost extends Error {
  constructor(message) { super(message); this.name = "NotFoundError"; }  // setup.js: "the board went away"
}

export async function bleDrive() {
  const device = await navigator.bluetooth.requestDevice({ filters: [{ services: [SERVICE] }] });
  const server = await device.gatt.connect();
  const service = await server.getPrimaryService(SERVICE);
  const version = new DataView((await (await service.getCharacteristic(VERSION_UUID)).readValue()).buffer).getUint32(0, true);
  if (version < 4) throw new Error(`the board's file transfer service is version ${version}; CircuitPython 9 or 10 has version 4`);
  const transfer = await service.getCharacteristic(TRANSFER_UUID);
  let incoming = new Uint8Array(0);
  let wake = null;
  transfer.addEventListener("characteristicvaluechanged", (event) => {
    const bytes = new Uint8Array(event.target.value.buffer);
    if (!bytes.length) return;
    const joined = new Uint8Array(incoming.length + bytes.length);
    joined.set(incoming);
    joined.set(bytes, incoming.length);
    incoming = joined;
    if (wake) wake();
  });
  await transfer.startNotifications();
  let gone = false;
  let dropped = null;
  const lost = new Promise((_, reject) => { dropped = reject; });
  lost.catch(() => {});
  device.addEventListener("gattserverdisconnected", () => {
    gone = true;
    dropped(new Lost("the board disconnected"));
    if (wake) wake();
  });
  // a GATT operation, or the link dropping, or a board that stopped answering: whichever comes first
  function guard(operation) {
    let timer = null;
    const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Lost("the board stopped answering")), ANSWER_MS); });
    return Promise.race([operation, lost, late]).finally(() => clearTimeout(timer));
  }

  async function send(bytes) {
    for (let start = 0; start < bytes.length; start += PACKET) {
      if (gone) throw new Lost("the board disconnected");
      await guard(transfer.writeValueWithoutResponse(bytes.subarray(start, start + PACKET)));
    }
  }

  // the next `size` bytes the board notifies
  async function take(size) {
    const deadline = performance.now() + ANSWER_MS;
    while (incoming.length < size) {
      if (gone) throw new Lost("the board disconnected");
      if (performance.now() > deadline) throw new Lost("the board stopped answering");
      // tests only: Chromium's emulation cannot push a notification; a read fires the same event
      if (window.tablelightReadNotifications) await guard(transfer.readValue());
      else await new Promise((resolve) => { wake = resolve; setTimeout(resolve, 200); });
    }
    const taken = incoming.slice(0, size);
    incoming = incoming.slice(size);
    return new DataView(taken.buffer);
  }

  const encoder = new TextEncoder();
  const abs = (path) => `/${path}`;
  function command(header, ...paths) {
    const encoded = paths.map((p) => encoder.encode(p));
    const out = new Uint8Array(header.length + encoded.reduce((n, p) => n + p.length, 0) + (paths.length > 1 ? 1 : 0));
    out.set(header);
    let at = header.length;
    encoded.forEach((p, index) => {
      if (index) out[at++] = 0x20;  // MOVE: a space between the two paths
      out.set(p, at);
      at += p.length;
    });
    return out;
  }
  function header(size, fill) {
    const bytes = new Uint8Array(size);
    fill(new DataView(bytes.buffer));
    return bytes;
  }

  async function listdir(path) {
    const encoded = encoder.encode(path);
    await send(command(header(4, (v) => { v.setUint8(0, CMD.LISTDIR); v.setUint16(2, encoded.length, true); }), path));
    const entries = [];
    for (;;) {
      const v = await take(28);
      const nameLength = v.getUint16(2, true);
      const [status, index, total, flags, size] = [v.getUint8(1), v.getUint32(4, true), v.getUint32(8, true), v.getUint32(12, true), v.getUint32(24, true)];
      if (status !== OK) return null;
      if (index >= total) return entries;
      const name = new TextDecoder().decode(new Uint8Array((await take(nameLength)).buffer));
      entries.push({ name, folder: Boolean(flags & 1), size });
    }
  }

  async function simple(code, answer, path, what) {
    const encoded = encoder.encode(path);
    await send(command(header(4, (v) => { v.setUint8(0, code); v.setUint16(2, encoded.length, true); }), path));
    const v = await take(2);
    if (v.getUint8(0) !== answer || v.getUint8(1) !== OK) throw new Error(`the board refused to ${what} ${path}`);
  }

  async function read(path) {
    const encoded = encoder.encode(abs(path));
    await send(command(header(12, (v) => {
      v.setUint8(0, CMD.READ); v.setUint16(2, encoded.length, true); v.setUint32(4, 0, true); v.setUint32(8, READ_CHUNK, true);
    }), abs(path)));
    let data = null;
    let offset = 0;
    for (;;) {
      const v = await take(16);
      if (v.getUint8(1) !== OK) return null;  // no such file (or a folder)
      const total = v.getUint32(8, true);
      const size = v.getUint32(12, true);
      if (!data) data = new Uint8Array(total);
      data.set(new Uint8Array((await take(size)).buffer), offset);
      offset += size;
      if (offset >= total) return data;
      await send(header(12, (p) => {
        p.setUint8(0, CMD.READ_PACING); p.setUint8(1, OK); p.setUint32(4, offset, true); p.setUint32(8, Math.min(READ_CHUNK, total - offset), true);
      }));
    }
  }

  async function writeWhole(path, bytes, progress) {
    const encoded = encoder.encode(path);
    const now = BigInt(Date.now()) * 1000000n;
    await send(command(header(20, (v) => {
      v.setUint8(0, CMD.WRITE); v.setUint16(2, encoded.length, true); v.setUint32(4, 0, true);
      v.setBigUint64(8, now, true); v.setUint32(16, bytes.length, true);
    }), path));
    for (;;) {
      const v = await take(20);
      if (v.getUint8(0) !== CMD.WRITE_PACING || v.getUint8(1) !== OK) throw new Error(`the board refused to write ${path}`);
      const offset = v.getUint32(4, true);
      const free = v.getUint32(16, true);
      if (offset >= bytes.length && !free) return;
      await send(header(12, (p) => {
        p.setUint8(0, CMD.WRITE_DATA); p.setUint8(1, OK); p.setUint32(4, offset, true); p.setUint32(8, free, true);
      }));
      await send(bytes.subarray(offset, offset + free));
      progress(Math.min(free, bytes.length - offset));
    }
  }

  const folders = new Set();
  async function mkdirFor(path) {
    const parts = path.split("/").slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const folder = `/${parts.slice(0, depth).join("/")}/`;
      if (folders.has(folder)) continue;
      const encoded = encoder.encode(folder);
      await send(command(header(16, (v) => { v.setUint8(0, CMD.MKDIR); v.setUint16(2, encoded.length, true); v.setBigUint64(8, BigInt(Date.now()) * 1000000n, true); }), folder));
      const v = await take(16);
      if (v.getUint8(1) !== OK) throw new Error(`the board refused to make the folder ${folder}`);
      folders.add(folder);
    }
  }

  return {
    name: device.name || "CIRCUITPY",
    bluetooth: true,
    async top() {
      const entries = (await listdir("/")) || [];
      return { files: entries.filter((e) => !e.folder).map((e) => e.name).sort(), folders: entries.filter((e) => e.folder).map((e) => e.name).sort() };
    },
    read,
    async write(path, bytes, progress = () => {}) {
      await mkdirFor(path);
      const slash = path.lastIndexOf("/");
      const temp = `/${path.slice(0, slash + 1)}${TEMP_PREFIX}${path.slice(slash + 1)}`;
      await writeWhole(temp, bytes, progress);
      const entries = (await listdir(`/${path.slice(0, slash + 1)}`)) || [];
      if (entries.some((e) => e.name === path.slice(slash + 1))) await simple(CMD.DELETE, CMD.DELETE_STATUS, abs(path), "replace");
      const both = [temp, abs(path)].map((p) => encoder.encode(p));
      await send(command(header(6, (v) => {
        v.setUint8(0, CMD.MOVE); v.setUint16(2, both[0].length, true); v.setUint16(4, both[1].length, true);
      }), temp, abs(path)));
      const v = await take(2);
      if (v.getUint8(1) !== OK) throw new Error(`the board refused to move ${temp} into place`);
    },
    async removeLeftovers() {
      for (const folder of ["/", "/lib/"]) {
        for (const entry of (await listdir(folder)) || []) {
          if (entry.name.startsWith(TEMP_PREFIX)) await simple(CMD.DELETE, CMD.DELETE_STATUS, folder + entry.name, "delete");
        }
      }
    },
    // let the board go: CircuitPython restarts into what was written once the transfer is over
    async close() {
      if (!device.gatt.connected) return;
      await guard(transfer.stopNotifications()).catch(() => {});
      device.gatt.disconnect();
    },
  };
}
