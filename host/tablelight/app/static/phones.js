// The table's side of phones joining over WebRTC data channels, with no server (docs/phones.md).
// A peer connection is a page API (none in a Worker): this page owns one per human seat and relays
// phone <-> data channel <-> this page <-> worker. Each seat's join code (a QR code of a seat.html#
// URL) holds the seat's secret and the table's connection details; the phone answers with a code the
// table takes back (camera or pasted). The phone proves the seat's secret as its first message over
// the encrypted channel; it then gets that seat's snapshot only, on every change, and its requests
// go through the table's one door. A seat's connection keeps its certificate and ICE credentials,
// so a phone that lost it rejoins by the same join code: by itself where the network allows (the
// phone keeps its own certificate and ICE credentials too: "Rejoining" in docs/phones.md), else by
// showing the table a new answer code.
import qrcode from "./vendor/qrcode.mjs";
import { qrReader } from "./qr_reader.js";
import {
  CodeError, answerCode, descriptionOf, joinCode, partsOf, randomIceText, randomSecret, readAnswerCode, sameText,
} from "./rtc_code.js";

const $ = (id) => document.getElementById(id);
const NO_REACH = "This phone could not reach the table: the network keeps devices apart (or blocks them), so play "
  + "on this screen instead, passing it round (pass and play).";
const HELLO_MS = 5000;  // a channel that does not prove its seat by then is closed
const KNOCK_POLL_MS = 300;  // how often a lost connection is asked whether its phone knocks again
// A phone's messages, as the host-served pages' sockets are limited (web/limits.py): a player's taps
// come well under these, so more is someone else's program. Up to PHONE_BURST at once, then
// PHONE_MESSAGES_PER_S a second; past that the phone is told why and its link closed. Its requests
// go to the worker one at a time, at most PHONE_WAITING of them waiting (more are answered "busy"):
// one phone can never put more than one request ahead of another seat's.
const PHONE_BURST = 16;
const PHONE_MESSAGES_PER_S = 4;
const PHONE_WAITING = 8;
const FLOODED = `this phone sent more than ${PHONE_BURST} messages at once (or more than ${PHONE_MESSAGES_PER_S} `
  + "a second for long), which a player's taps never do: the table closed its link. Rejoin with the seat's code.";

function timeoutMs() {
  return (window.tablelight && window.tablelight.phoneTimeoutMs) || 20_000;
}

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const done = () => { if (pc.iceGatheringState === "complete") resolve(); };
    pc.addEventListener("icegatheringstatechange", done);
    setTimeout(resolve, 3000);  // what was gathered by then is enough on a local network
  });
}

// The remote ports a connection has seen so far.
async function knownPorts(pc) {
  const ports = new Set();
  try {
    (await pc.getStats()).forEach((found) => { if (found.type === "remote-candidate") ports.add(found.port); });
  } catch { /* closed */ }
  return ports;
}

class SeatLink {
  constructor(phones, seat, label) {
    this.phones = phones;
    this.seat = seat;
    this.label = label;
    this.secret = randomSecret();
    this.ufrag = randomIceText(8);
    this.pwd = randomIceText(24);
    this.usedAnswers = new Set();
    this.state = "waiting";  // waiting | connecting | connected | refused | failed
    this.waiting = [];  // the phone's requests not yet sent to the worker (one at a time)
    this.working = false;
    this.relayed = 0;  // requests handed to the worker (tests, the bench)
    this.words = "not joined";
    this.sent = "";
  }

  async open() {
    this.certificate = await RTCPeerConnection.generateCertificate({ name: "ECDSA", namedCurve: "P-256" });
    await this.listen();
    this.code = joinCode(this.seat, this.secret, partsOf(this.pc.localDescription.sdp));
  }

  // A fresh connection with the seat's own certificate and ICE credentials: the join code stays valid.
  async listen() {
    this.drop();
    const pc = new RTCPeerConnection({ certificates: [this.certificate] });
    this.pc = pc;
    this.channel = pc.createDataChannel("seat", { negotiated: true, id: 0, ordered: true });
    const offer = await pc.createOffer();
    const sdp = offer.sdp.replace(/^a=ice-ufrag:.*$/m, `a=ice-ufrag:${this.ufrag}`).replace(/^a=ice-pwd:.*$/m, `a=ice-pwd:${this.pwd}`);
    await pc.setLocalDescription({ type: "offer", sdp });
    await gathered(pc);
    this.wire(pc, this.channel);
  }

  drop() {
    clearTimeout(this.timer);
    if (this.pc) {
      const pc = this.pc;
      this.pc = null;
      this.channel = null;
      pc.close();
    }
    this.proven = false;
    this.waiting = [];
    this.allowance = PHONE_BURST;
    this.allowanceAt = performance.now();
  }

  // The seat's link ends (a new game, a new code): its connection and its doorbell close.
  end() {
    this.drop();
    if (this.bell) { this.bell.close(); this.bell = null; }
  }

  // A message's share of the phone's allowance (PHONE_BURST, refilled at PHONE_MESSAGES_PER_S).
  counted() {
    const now = performance.now();
    this.allowance = Math.min(PHONE_BURST, this.allowance + ((now - this.allowanceAt) / 1000) * PHONE_MESSAGES_PER_S);
    this.allowanceAt = now;
    if (this.allowance < 1) return false;
    this.allowance -= 1;
    return true;
  }

  wire(pc, channel) {
    const lost = () => this.lost(pc);
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === "failed" || pc.connectionState === "closed") lost();
      else if (this.pc === pc && this.state === "connected") {
        // "disconnected" may mend by itself (ICE keeps trying); "failed" ends it
        this.words = pc.connectionState === "disconnected" ? "connection unsteady: waiting for the phone" : "connected";
        this.phones.render();
      }
    };
    channel.onopen = () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refuse("the phone did not prove its seat in time"), HELLO_MS);
    };
    channel.onclose = lost;
    channel.onmessage = (event) => this.heard(event.data);
  }

  // The connection ``pc`` ended (or never came): say why, and listen again for the same join code.
  lost(pc) {
    if (this.pc !== pc) return;
    // a knock that did not come through is no sign of the network: the seat waits on
    const was = this.state === "connecting" && this.knocking === pc ? "knocked" : this.state;
    this.knocking = null;
    this.state = was === "connecting" ? "failed" : "waiting";
    this.words = { connecting: NO_REACH, connected: "connection lost: its phone comes back by itself, or shows a new code" }[was]
      || (was === "refused" ? this.words : "not joined");
    this.phones.render(was === "connecting");
    if (was === "knocked") this.words = "connection lost: its phone comes back by itself, or shows a new code";
    const bell = was === "connected" && this.pc === pc ? pc : null;
    if (bell) this.pc = null;  // kept open (listen() would close it): the doorbell
    // the ports it saw while the phone proved its seat are the old connection's: any later one is a knock
    const known = bell ? this.portsAtJoin : null;
    this.listen().then(async () => {
      this.phones.render();
      if (bell) this.listenForKnock(bell, (await known) || new Set());
    });
  }

  // The answer code of a phone that scanned this seat's join code.
  // The phone's connection was lost: its old connection stays open as a doorbell (the phone, back,
  // sends its connectivity checks there: the last address the table told it), with the phone's
  // kept credentials. A check from a new port there is the phone knocking: the fresh connection
  // takes the phone's kept answer at that port, the phone proves its secret again, and its seat is back.
  listenForKnock(bell, known) {
    if (!this.keptAnswer) return bell.close();
    if (this.bell && this.bell !== bell) this.bell.close();
    this.bell = bell;
    const look = async () => {
      if (this.bell !== bell) return;
      const knocked = [];  // a phone knocks from each of its addresses' ports
      try {
        (await bell.getStats()).forEach((found) => {
          if (found.type !== "remote-candidate" || known.has(found.port)) return;
          if (found.candidateType === "prflx") knocked.push(found.port);
          else known.add(found.port);
        });
      } catch {
        return;  // closed meanwhile
      }
      // a knock while the seat is busy (another knock or code being tried) is answered once it is free
      if (knocked.length && ["waiting", "failed"].includes(this.state) && this.pc && !this.pc.remoteDescription) {
        for (const port of knocked) known.add(port);
        this.rejoin(knocked).catch((error) => console.warn("the phone's knock was not taken:", error));
      }
      setTimeout(look, KNOCK_POLL_MS);
    };
    look();
    return undefined;
  }

  async rejoin(ports) {
    const pc = this.pc;
    const hosts = [...new Set(this.keptAnswer.candidates.map((c) => c.address))];
    const candidates = hosts.flatMap((address) => ports.map((port) => ({ address, port, type: "host" })));
    const parts = { ...this.keptAnswer, candidates };
    this.knocking = pc;
    this.state = "connecting";
    this.words = "its phone is coming back…";
    this.phones.render();
    this.timer = setTimeout(() => { if (this.pc === pc && this.state === "connecting") this.lost(pc); }, timeoutMs());
    await pc.setRemoteDescription({ type: "answer", sdp: descriptionOf(parts, "answer") });
    this.taken = parts;
  }

  async take(answer) {
    if (this.state === "connected") {
      throw new CodeError(`${this.label} already has a phone connected: a second phone with its code is refused`);
    }
    const seen = JSON.stringify([answer.parts.ufrag, answer.parts.candidates]);  // a phone keeps its ufrag: its ports differ
    if (this.usedAnswers.has(seen)) {
      throw new CodeError("that answer code was used already: the phone shows a new one when it joins again");
    }
    if (!this.pc || !this.pc.localDescription) {  // between two connections (listen() runs)
      throw new CodeError(`${this.label}'s connection is getting ready: take the code again in a moment`);
    }
    if (this.pc.remoteDescription) await this.listen();  // an earlier answer that never connected
    this.usedAnswers.add(seen);
    this.taken = answer.parts;
    // connecting from now: the channel may open (and the phone prove its seat) before the await returns
    this.state = "connecting";
    this.words = "connecting…";
    const pc = this.pc;
    this.timer = setTimeout(() => { if (this.pc === pc && this.state === "connecting") this.lost(pc); }, timeoutMs());
    try {
      await pc.setRemoteDescription({ type: "answer", sdp: descriptionOf(answer.parts, "answer") });
    } catch (error) {
      this.state = "waiting";
      this.words = "not joined";
      await this.listen();
      throw new CodeError(`this browser could not use it (${error.message || error})`);
    }
  }

  // Tell the phone why, then close its channel and listen again (the seat's code stays valid).
  refuse(words) {
    const pc = this.pc;
    this.send({ refused: words });
    this.state = "refused";
    this.words = `a phone was refused: ${words}`;
    setTimeout(() => this.lost(pc), 200);
  }

  async heard(text) {
    if (this.state === "refused") return undefined;  // its link is closing: nothing more is read
    if (!this.counted()) {
      this.phones.say(`${this.label}: its phone sent too many messages; its link was closed`);
      return this.refuse(FLOODED);
    }
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return this.refuse("the phone sent something that is not JSON");
    }
    if (!this.proven) {
      // the first message proves the seat: its secret, over the DTLS-encrypted channel
      clearTimeout(this.timer);
      if (!message || message.seat !== this.seat || !sameText(message.secret, this.secret)) {
        return this.refuse(`this code is not ${this.label}'s at this table any more: ask for the seat's new code`);
      }
      this.proven = true;
      this.state = "connected";
      this.words = "connected";
      this.sent = "";
      this.keptAnswer = this.taken;  // the phone's kept side: it may knock with it later
      this.portsAtJoin = knownPorts(this.pc);
      if (this.bell) { this.bell.close(); this.bell = null; }
      // where this connection listens: a phone that comes back knocks there
      const listening = partsOf(this.pc.localDescription.sdp).candidates;
      this.send({ welcome: this.seat, label: this.label, listening });
      this.phones.say(`${this.label}: its phone joined`);
      this.phones.render();
      this.push(await this.phones.call("seat_view", this.seat));
      return undefined;
    }
    if (!message || !Number.isInteger(message.id) || !["act", "narrow"].includes(message.what)
        || typeof message.body !== "object") {
      return this.send({ id: message && message.id, answer: { error: 'send {"id", "what": "act" or "narrow", "body"}' } });
    }
    if (this.waiting.length >= PHONE_WAITING) {
      return this.send({ id: message.id, answer: { error: "the table is still answering this phone's earlier "
        + "requests: wait for their answers" } });
    }
    this.waiting.push(message);
    return this.relay();
  }

  // The phone's requests to the worker, one at a time, each answered before the next goes.
  async relay() {
    if (this.working) return;
    this.working = true;
    try {
      while (this.waiting.length) {
        const message = this.waiting.shift();
        const pc = this.pc;
        this.relayed += 1;
        const answer = await this.phones.call("seat_request", { seat: this.seat, what: message.what, body: message.body });
        if (this.pc !== pc) break;  // the link closed meanwhile
        this.send({ id: message.id, answer });
        await this.phones.refresh();
      }
    } finally {
      this.working = false;
    }
  }

  send(message) {
    if (this.channel && this.channel.readyState === "open") this.channel.send(JSON.stringify(message));
  }

  // This seat's snapshot (and nothing else), when it changed.
  push(view) {
    if (this.state !== "connected" || !view) return;
    const text = JSON.stringify(view);
    if (text === this.sent) return;
    this.sent = text;
    this.send({ state: view });
  }

  url() {
    return new URL(`seat.html#${this.code}`, this.phones.base).href;
  }
}

class Phones {
  constructor(call) {
    this.call = call;
    this.seats = new Map();
    this.key = "";
    this.off = false;
    // Where phones open the app: this page's address, or the one `tablelight app serve --share`
    // names (this device opens the app on 127.0.0.1, which no phone reaches). Only the server this
    // page came from can name it (a file it serves, never a link's parameter).
    this.base = location.href;
    this.shared = fetch("phones-address.json", { cache: "no-store" })
      .then((answer) => (answer.ok ? answer.json() : {}))
      .then((about) => {
        const url = about && typeof about.url === "string" ? new URL(about.url) : null;
        if (url && (url.protocol === "http:" || url.protocol === "https:")) this.base = url.href;
      })
      .catch(() => {});  // a static host or offline: this page's own address
    window.tablelight.phoneSeats = new Set();
    $("phone-answer").onsubmit = (event) => {
      event.preventDefault();
      this.takeCode($("answer-code").value);
    };
    $("phone-scan").onclick = () => this.scan();
    $("pass-and-play").onclick = () => this.stop("phones are off: pass this screen round (pass and play)");
  }

  // Called with every snapshot the worker pushes: a new game gets new seats and codes.
  async update(snapshot) {
    const table = snapshot.public;
    if (!table) return;
    const humans = table.seats.map((s, i) => [i, s]).filter(([, s]) => s.kind === "human");
    const key = JSON.stringify([snapshot.id, table.game, table.seats.map((s) => s.kind)]);
    const seating = JSON.stringify([table.game, table.seats.map((s) => s.kind)]);
    // "play again" at game over: the same game and seats follow the one shown, so the phones keep theirs
    const again = key !== this.key && !this.off && snapshot.again_of != null && snapshot.again_of === this.gameId
      && seating === this.seating;
    this.gameId = snapshot.id;
    this.seating = seating;
    this.ended = Boolean(table.over);
    if (again) {
      this.key = key;
      await this.playAgain(humans);
      if (this.key !== key) return undefined;
    } else if (key !== this.key) {  // a new game: phones may join it (even after pass and play was chosen)
      this.key = key;
      this.off = false;
      this.over = false;
      this.close();
      $("phone-answer").hidden = false;
      $("phones-failed").hidden = true;
      this.say("");
      if (this.ended) return this.gameOver();  // a finished game (looked at, opened from a record): no codes
      if (!("RTCPeerConnection" in window)) {
        $("phones").hidden = false;
        return this.say("this browser cannot link phones (no WebRTC): pass this screen round (pass and play)");
      }
      const opening = humans.map(([seat, s]) => {
        const link = new SeatLink(this, seat, s.label);
        this.seats.set(seat, link);
        return link.open();
      });
      $("phones").hidden = humans.length === 0;
      // a phone opens the join link at this page's address: this device's own name reaches no phone
      await this.shared;
      $("phones-local").hidden = !["127.0.0.1", "localhost", "[::1]"].includes(new URL(this.base).hostname);
      this.opening = true;
      try {
        await Promise.all(opening);
      } finally {
        this.opening = false;
      }
      if (this.key !== key) return undefined;
      this.render();
    }
    if (this.off) return undefined;
    for (const [seat, link] of this.seats) link.push(snapshot.seats[String(seat)]);
    if (this.ended && !this.opening) this.gameOver();  // a game that ended while its codes were made: once they are
    return undefined;
  }

  // The next game of the same seats ("play again"): a joined phone keeps its seat, its link and its
  // code, and is sent the new game's view of its seat; a seat whose code went at game over gets a new one.
  async playAgain(humans) {
    this.over = false;
    $("phone-answer").hidden = false;
    $("phones-failed").hidden = true;
    const opening = humans.filter(([seat]) => !this.seats.has(seat)).map(([seat, s]) => {
      const link = new SeatLink(this, seat, s.label);
      this.seats.set(seat, link);
      return link.open();
    });
    $("phones").hidden = humans.length === 0;
    const kept = [...this.seats.values()].filter((link) => link.state === "connected").map((link) => link.label);
    this.say(kept.length ? `A new game: ${kept.join(" and ")} kept ${kept.length > 1 ? "their phones" : "its phone"}.`
      : "");
    this.opening = true;
    try {
      await Promise.all(opening);
    } finally {
      this.opening = false;
    }
    this.render();
  }

  // The game is over: no phone joins it any more. A joined phone keeps its channel (it was sent the
  // result); the other seats' codes go, and the panel too when no phone had joined.
  gameOver() {
    if (this.over) return undefined;
    this.over = true;
    for (const [seat, link] of this.seats) {
      if (link.state === "connected") continue;
      link.drop();
      this.seats.delete(seat);
    }
    $("phone-answer").hidden = true;
    $("phones-failed").hidden = true;
    $("phones").hidden = this.seats.size === 0;
    this.say("The game is over: no phone joins it now. Play again keeps the joined phones; a new game has new codes.");
    this.render();
    return undefined;
  }

  // After a phone's request: its seat's view at once (the worker's push comes a little later).
  async refresh() {
    for (const link of this.seats.values()) {
      if (link.state === "connected") link.push(await this.call("seat_view", link.seat));
    }
  }

  // Every seat's connection ends (a new game, pass and play): a joined phone is told why first.
  close() {
    for (const link of this.seats.values()) {
      if (link.state !== "connected") {
        link.end();
        continue;
      }
      link.send({ ended: "The table started another game (or turned phones off): scan your seat's new code on its screen." });
      setTimeout(() => link.end(), 300);  // the words go before the channel closes
    }
    this.seats.clear();
  }

  stop(words) {
    this.off = true;
    this.close();
    this.render();
    $("phone-list").replaceChildren();
    $("phone-answer").hidden = true;
    $("phones-failed").hidden = true;
    this.say(words);
  }

  say(words) {
    $("phones-status").textContent = words;
  }

  async takeCode(text) {
    try {
      const answer = readAnswerCode(text);
      const link = [...this.seats.values()].find((l) => l.ufrag === answer.table);
      if (!link) throw new CodeError("that answer is for another table or an earlier game");
      await link.take(answer);
      $("answer-code").value = "";
      // the phone may have proved its seat while the answer was being taken: "joined" stays said
      if (link.state !== "connected") this.say(`${link.label}: connecting…`);
    } catch (error) {
      const why = error instanceof CodeError ? error.message : `it could not be used (${error.message || error})`;
      this.say(`That answer code is refused: ${why}.`.replace(/\.\.$/, "."));
    }
    this.render();
  }

  render(failed) {
    const held = new Set([...this.seats.values()].filter((l) => l.state === "connected").map((l) => l.seat));
    const changed = [...held].join(",") !== [...window.tablelight.phoneSeats].join(",");
    window.tablelight.phoneSeats = held;
    document.body.dataset.phones = [...held].join(",");
    if (failed) {
      $("phones-failed").hidden = false;
      $("phones-failed-words").textContent = NO_REACH;
    }
    $("phone-list").replaceChildren(...[...this.seats.values()].map((link) => this.seatItem(link)));
    // the table's own screen shows no seat a phone holds: redrawn only when that changes (a redraw
    // under a player's finger would make the tap miss)
    if (changed && window.tablelight.redraw) window.tablelight.redraw();
  }

  seatItem(link) {
    const item = document.createElement("li");
    item.dataset.seat = String(link.seat);
    item.dataset.state = link.state;
    const title = document.createElement("strong");
    title.textContent = `${link.label}: `;
    const state = document.createElement("span");
    state.className = "phone-state";
    state.textContent = link.words;
    item.append(title, state);
    if (link.code && link.state !== "connected") {
      const qr = qrcode(0, "L");
      qr.addData(link.url());
      qr.make();
      const picture = document.createElement("img");
      picture.src = qr.createDataURL(3, 4);
      picture.alt = `join code of ${link.label}`;
      picture.className = "qr";
      const words = document.createElement("details");
      const summary = document.createElement("summary");
      summary.textContent = "the link as text";
      const code = document.createElement("code");
      code.className = "join-url";
      code.textContent = link.url();
      words.append(summary, code);
      item.append(document.createElement("br"), picture, words);
    }
    const fresh = document.createElement("button");
    fresh.type = "button";
    fresh.className = "new-code";
    fresh.textContent = "new code";
    fresh.title = "a new secret and code for this seat: its phone and any copy of the old code are refused";
    fresh.onclick = async () => {
      link.end();
      const again = new SeatLink(this, link.seat, link.label);
      this.seats.set(link.seat, again);
      await again.open();
      this.render();
    };
    if (!this.over) item.append(fresh);  // a finished game takes no new phone
    return item;
  }

  // The camera reads a phone's answer QR code: BarcodeDetector where the browser has it, else jsQR.
  async scan() {
    const video = $("phone-camera");
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
    } catch (error) {
      return this.say(`the camera could not be opened (${error.message || error}): paste the phone's code instead`);
    }
    video.srcObject = stream;
    video.hidden = false;
    await video.play();
    const read = await qrReader();
    const stopAt = Date.now() + 60_000;
    const look = async () => {
      const found = await read(video).catch(() => null);
      if (found || Date.now() > stopAt) {
        stream.getTracks().forEach((track) => track.stop());
        video.hidden = true;
        if (found) return this.takeCode(found);
        return this.say("no answer code was seen: try again, or paste the phone's code");
      }
      setTimeout(look, 250);
      return undefined;
    };
    look();
    return undefined;
  }
}

// app.js hands over each snapshot; tests and the bench reach the links through window.tablelight.phones.
export function attachPhones(call) {
  const phones = new Phones(call);
  window.tablelight.phones = phones;
  return (snapshot) => phones.update(snapshot).catch((error) => phones.say(`phones cannot join: ${error.message || error}`));
}

export { answerCode };
