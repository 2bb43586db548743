// A phone's seat at a table that runs in another browser (docs/phones.md): no Pyodide, no server.
// The join code in this page's address (seat.html#J1..., never sent anywhere: a fragment) holds
// the seat, its secret and the table's connection details; this page answers with its own code
// (a QR code and text) that the table takes back; over the data channel it first proves the
// seat's secret, then shows that seat's snapshot as it comes and sends its choices (act, narrow).
// document.body.dataset.state: loading, answer (show the code), joined, refused, ended, error.
import qrcode from "./vendor/qrcode.mjs";
import { CodeError, answerCode, descriptionOf, partsOf, randomIceText, readJoinCode } from "./rtc_code.js";

const $ = (id) => document.getElementById(id);
const body = document.body;
const NO_REACH = "This phone could not reach the table: the network keeps devices apart (or blocks them), so play "
  + "on the table's screen instead, passing it round (pass and play).";
const openedAt = performance.now();

function state(name, words) {
  body.dataset.state = name;
  if (words !== undefined) $("join-status").textContent = words;
}

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    pc.addEventListener("icegatheringstatechange", () => { if (pc.iceGatheringState === "complete") resolve(); });
    setTimeout(resolve, 3000);
  });
}

// The phone's own side of this seat's link, kept across reloads (IndexedDB, this browser only): its
// DTLS certificate and ICE credentials, and where the table last listened. With them the table
// knows the returning phone's connectivity checks and lets it back in by itself (docs/phones.md,
// "Rejoining"); the answer code stays the fallback. Without IndexedDB each visit is new.
const KEPT = { db: "tablelight-phone", store: "seats" };

function keptStore(mode, use) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(KEPT.db, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(KEPT.store);
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const request = use(db.transaction(KEPT.store, mode).objectStore(KEPT.store));
      request.onsuccess = () => { db.close(); resolve(request.result); };
      request.onerror = () => { db.close(); reject(request.error); };
    };
  });
}

async function keptSide(key) {
  try {
    const kept = await keptStore("readonly", (store) => store.get(key));
    if (kept && kept.certificate && kept.certificate.expires > Date.now() + 3600_000) return kept;
  } catch { /* no IndexedDB: a new side each visit */ }
  const side = {
    certificate: await RTCPeerConnection.generateCertificate({ name: "ECDSA", namedCurve: "P-256" }),
    ufrag: randomIceText(8), pwd: randomIceText(24), table: null,
  };
  await keep(key, side);
  return side;
}

function keep(key, side) {
  return keptStore("readwrite", (store) => store.put(side, key)).catch(() => {});
}

// The link the seat screen (seat.js, TLSeat.start) talks through: send(what, body) -> Promise<answer>;
// listen(onState). Here it is the data channel to the table's page.
class ChannelLink {
  constructor(join) {
    this.join = join;
    this.waiting = new Map();
    this.nextId = 1;
    this.onState = () => {};
    this.joined = false;
    this.timings = {};
  }

  listen(onState) {
    this.onState = onState;
  }

  send(what, request) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.channel || this.channel.readyState !== "open") return reject(new Error("the table is not connected"));
      this.waiting.set(id, { resolve, reject });
      this.channel.send(JSON.stringify({ id, what, body: request }));
      return undefined;
    });
  }

  // A new connection to the table (the same join code each time) and the answer code to show.
  async connect() {
    if (this.pc) this.pc.close();
    this.key = `${this.join.parts.ufrag}.${this.join.seat}`;
    this.side = this.side || await keptSide(this.key);
    const pc = new RTCPeerConnection({ certificates: [this.side.certificate] });
    this.pc = pc;
    const channel = pc.createDataChannel("seat", { negotiated: true, id: 0, ordered: true });
    this.channel = channel;
    // where the table listened last (it told this phone on joining), else its join code's addresses
    const table = this.side.table ? { ...this.join.parts, candidates: this.side.table } : this.join.parts;
    await pc.setRemoteDescription({ type: "offer", sdp: descriptionOf(table, "offer") });
    const answer = await pc.createAnswer();
    const sdp = answer.sdp.replace(/^a=ice-ufrag:.*$/m, `a=ice-ufrag:${this.side.ufrag}`)
      .replace(/^a=ice-pwd:.*$/m, `a=ice-pwd:${this.side.pwd}`);
    await pc.setLocalDescription({ type: "answer", sdp });
    await gathered(pc);
    const code = answerCode(this.join.parts.ufrag, partsOf(pc.localDescription.sdp));
    channel.onopen = () => channel.send(JSON.stringify({ seat: this.join.seat, secret: this.join.secret }));
    channel.onmessage = (event) => this.heard(JSON.parse(event.data));
    channel.onclose = () => this.ended(pc);
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "failed") this.ended(pc, true);
    };
    return code;
  }

  heard(message) {
    if ("welcome" in message) {
      this.joined = true;
      if (Array.isArray(message.listening) && message.listening.length) {  // where to knock next time
        this.side.table = message.listening;
        keep(this.key, this.side);
      }
      this.timings.welcome_ms = performance.now() - openedAt;
      return joined();
    }
    if ("refused" in message) {
      this.refused = true;
      $("joining").hidden = false;  // the words show where the seat's screen was (a flood closes a joined link)
      $("answer").hidden = true;
      return state("refused", `The table refused this phone: ${message.refused}`);
    }
    if ("ended" in message) {  // a new game at the table: this code is spent
      this.refused = true;
      $("joining").hidden = false;
      $("answer").hidden = true;
      return state("ended", message.ended);
    }
    if ("state" in message) {
      window.tablelightSeat.view = message.state;  // the latest (tests and the bench read it)
      body.dataset.version = String(message.state.version);
      body.dataset.over = String(message.state.over);
      const shown = this.onState(message.state);
      if (!this.timings.first_screen_ms) this.timings.first_screen_ms = performance.now() - openedAt;
      return shown;
    }
    const promise = this.waiting.get(message.id);
    if (promise) {
      this.waiting.delete(message.id);
      promise.resolve(message.answer);
    }
    return undefined;
  }

  ended(pc, failed) {
    if (this.pc !== pc) return;
    this.pc = null;
    for (const promise of this.waiting.values()) promise.reject(new Error("the connection to the table was lost"));
    this.waiting.clear();
    if (this.refused) return;
    const was = this.joined;
    this.joined = false;
    if (was) TL.away("The connection to the table was lost.");
    if (!was && failed) {
      state("error", NO_REACH);
      return;
    }
    offer(this, "The connection to the table was lost: show the table this phone's new code to rejoin (if the "
      + "table's page was reloaded, scan your seat's new code on its screen instead).");
  }
}

async function offer(link, words) {
  const code = await link.connect();
  const qr = qrcode(0, "L");
  qr.addData(code);
  qr.make();
  $("answer-qr").src = qr.createDataURL(4, 4);
  $("answer-text").textContent = code;
  $("answer").hidden = false;
  $("joining").hidden = false;
  window.tablelightSeat.answer = code;
  state("answer", words);
}

function joined() {
  $("joining").hidden = true;
  TL.away("");
  state("joined");
}

async function start() {
  let join;
  try {
    join = readJoinCode(decodeURIComponent(location.hash.slice(1)));
  } catch (error) {
    const why = error instanceof CodeError ? error.message : String(error);
    return state("error", `This link is not a seat's join code (${why}): scan the seat's code on the table's screen again.`);
  }
  if (!("RTCPeerConnection" in window)) {
    return state("error", "This browser cannot join a table (no WebRTC): play on the table's screen instead (pass and play).");
  }
  $("join-title").textContent = `joining the table as seat ${join.seat}`;
  const link = new ChannelLink(join);
  window.tablelightSeat = { link, timings: link.timings };
  TLSeat.start(link);  // the seat screen of the host-served pages, over this link
  $("seat-screen").hidden = true;  // until the table welcomes this phone
  $("copy-answer").onclick = () => navigator.clipboard.writeText($("answer-text").textContent)
    .then(() => { $("copy-answer").textContent = "copied"; }, () => { $("copy-answer").textContent = "select the code and copy it"; });
  // leaving the page closes the connection at once (the table shows the seat free, not after ICE gives up)
  addEventListener("pagehide", () => { if (link.pc) link.pc.close(); });
  await offer(link, "Show this phone's code to the table.");
  link.timings.answer_ms = performance.now() - openedAt;
  return undefined;
}

start().catch((error) => state("error", `This phone could not join: ${error.message || error}`));
