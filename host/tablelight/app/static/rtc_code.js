// The join and answer codes that carry a WebRTC data channel's set-up between the table's page and
// a phone, with no server: a code holds only what the other side needs of a session description
// (ICE user fragment and password, the DTLS certificate's SHA-256 fingerprint, the UDP candidates),
// and the other side rebuilds a full description from it (docs/phones.md gives the format).
//   join code   J1.<seat>.<secret>.<ufrag>.<pwd>.<fingerprint>.<candidates>   (in seat.html#...)
//   answer code A1.<table's ufrag>.<ufrag>.<pwd>.<fingerprint>.<candidates>
// fingerprint: the 32 bytes in base64url; candidates joined by "~", each <type><kind><address><port>:
// type h (host) or s (server reflexive); kind m (an mDNS name <uuid>.local, 16 bytes), 4 (IPv4,
// 4 bytes) or 6 (IPv6, 16 bytes), the address in base64url (fixed length per kind); port in decimal.

export const JOIN = "J1";
export const ANSWER = "A1";
const ICE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function b64url(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function unb64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new CodeError("it holds characters a code never has");
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

export class CodeError extends Error {}

// n random characters a session description accepts for ICE credentials (letters and digits).
export function randomIceText(n) {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => ICE_CHARS[b % ICE_CHARS.length]).join("");
}

// A seat's secret: 16 random bytes (base64url, 22 characters).
export function randomSecret() {
  return b64url(crypto.getRandomValues(new Uint8Array(16)));
}

// Two texts equal, compared in time that does not depend on where they first differ.
export function sameText(a, b) {
  const x = new TextEncoder().encode(String(a));
  const y = new TextEncoder().encode(String(b));
  let differ = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) differ |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return differ === 0;
}

// ------------------------------------------------ session descriptions <-> their few parts

// What the other side needs of a (complete, gathered) description.
export function partsOf(sdp) {
  const line = (name) => (sdp.match(new RegExp(`^a=${name}:(.*)$`, "m")) || [])[1];
  const fingerprint = line("fingerprint");
  if (!fingerprint || !/^sha-256 /i.test(fingerprint)) throw new CodeError("the browser gave no SHA-256 fingerprint");
  const candidates = [];
  for (const found of sdp.matchAll(/^a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ (host|srflx)/gim)) {
    candidates.push({ address: found[1], port: Number(found[2]), type: found[3] });
  }
  return {
    ufrag: line("ice-ufrag").trim(), pwd: line("ice-pwd").trim(),
    fingerprint: Uint8Array.from(fingerprint.slice(8).trim().split(":"), (h) => parseInt(h, 16)),
    candidates,
  };
}

// A full description from its parts: "offer" (the table's, DTLS role actpass) or "answer" (the phone's).
export function descriptionOf(parts, type) {
  const fingerprint = Array.from(parts.fingerprint, (b) => b.toString(16).toUpperCase().padStart(2, "0")).join(":");
  const lines = [
    "v=0", `o=- ${type === "offer" ? 1 : 2} 2 IN IP4 127.0.0.1`, "s=-", "t=0 0", "a=group:BUNDLE 0",
    "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    ...parts.candidates.map((c, i) => `a=candidate:${i + 1} 1 udp ${(c.type === "host" ? 2113937151 : 1677729535) - i} `
      + `${c.address} ${c.port} typ ${c.type}${c.type === "srflx" ? " raddr 0.0.0.0 rport 0" : ""}`),
    "a=end-of-candidates",
    `a=ice-ufrag:${parts.ufrag}`, `a=ice-pwd:${parts.pwd}`, `a=fingerprint:sha-256 ${fingerprint}`,
    `a=setup:${type === "offer" ? "actpass" : "active"}`, "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144",
  ];
  return lines.join("\r\n") + "\r\n";
}

// ------------------------------------------------ parts <-> code text

const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;

function hexBytes(hex) {
  return Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));
}

function ipv6Bytes(address) {
  const [head, tail] = address.split("::");
  const groups = (part) => (part ? part.split(":") : []);
  const missing = tail === undefined ? 0 : 8 - groups(head).length - groups(tail).length;
  const all = [...groups(head), ...Array(missing).fill("0"), ...groups(tail)];
  if (all.length !== 8) throw new CodeError(`the address ${address} is not IPv6`);
  return Uint8Array.from(all.flatMap((g) => { const v = parseInt(g, 16); return [v >> 8, v & 255]; }));
}

function candidateCode(c) {
  const type = c.type === "srflx" ? "s" : "h";
  const mdns = c.address.match(MDNS);
  if (mdns) return `${type}m${b64url(hexBytes(mdns.slice(1).join("")))}${c.port}`;
  if (/^\d+\.\d+\.\d+\.\d+$/.test(c.address)) return `${type}4${b64url(Uint8Array.from(c.address.split("."), Number))}${c.port}`;
  if (c.address.includes(":")) return `${type}6${b64url(ipv6Bytes(c.address))}${c.port}`;
  return null;  // another kind of name: left out
}

const ADDRESS_CHARS = { m: 22, 4: 6, 6: 22 };

function candidateOf(text) {
  const type = { h: "host", s: "srflx" }[text[0]];
  const size = ADDRESS_CHARS[text[1]];
  const port = Number(text.slice(2 + (size || 0)));
  if (!type || !size || !/^\d{1,5}$/.test(text.slice(2 + size)) || port < 1 || port > 65535) {
    throw new CodeError("a candidate in it is damaged");
  }
  const bytes = unb64url(text.slice(2, 2 + size));
  let address;
  if (text[1] === "4") address = Array.from(bytes).join(".");
  else {
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    address = text[1] === "m"
      ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}.local`
      : hex.match(/..../g).map((g) => g.replace(/^0+(?=.)/, "")).join(":");
  }
  return { address, port, type };
}

function sessionCode(parts) {
  const candidates = parts.candidates.map(candidateCode).filter(Boolean);
  return [parts.ufrag, parts.pwd, b64url(parts.fingerprint), candidates.join("~")].join(".");
}

function sessionOf(fields) {
  const [ufrag, pwd, fingerprint, candidates] = fields;
  if (!/^[A-Za-z0-9+/]{4,256}$/.test(ufrag || "") || !/^[A-Za-z0-9+/]{22,256}$/.test(pwd || "")) {
    throw new CodeError("its connection details are damaged");
  }
  const bytes = unb64url(fingerprint || "");
  if (bytes.length !== 32) throw new CodeError("its certificate fingerprint is damaged");
  const found = candidates ? candidates.split("~").map(candidateOf) : [];
  if (!found.length) throw new CodeError("it names no address to reach");
  return { ufrag, pwd, fingerprint: bytes, candidates: found };
}

export function joinCode(seat, secret, parts) {
  return `${JOIN}.${seat}.${secret}.${sessionCode(parts)}`;
}

// {seat, secret, parts} of a join code, or a CodeError saying what is wrong with it.
export function readJoinCode(text) {
  const fields = String(text).trim().split(".");
  if (fields[0] !== JOIN || fields.length !== 7) throw new CodeError("it is not a tablelight join code");
  if (!/^\d{1,2}$/.test(fields[1])) throw new CodeError("its seat number is damaged");
  if (unb64url(fields[2]).length !== 16) throw new CodeError("its seat secret is damaged");
  return { seat: Number(fields[1]), secret: fields[2], parts: sessionOf(fields.slice(3)) };
}

export function answerCode(tableUfrag, parts) {
  return `${ANSWER}.${tableUfrag}.${sessionCode(parts)}`;
}

// {table, parts} of an answer code (table: the table's ICE user fragment it answers), or a CodeError.
export function readAnswerCode(text) {
  const fields = String(text).replace(/\s+/g, "").split(".");
  if (fields[0] !== ANSWER || fields.length !== 6) throw new CodeError("it is not a tablelight answer code");
  return { table: fields[1], parts: sessionOf(fields.slice(2)) };
}
