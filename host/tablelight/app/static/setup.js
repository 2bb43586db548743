// Setting a board up from the page: "set up a board" puts tablelight on a CircuitPython board, the
// plan `tablelight flash` makes (the worker computes it: tablelight.app.setup_board), written to
// the board's drive (drive_usb.js: the File System Access API; drive_ble.js: CircuitPython's
// Bluetooth file transfer service, for phones), each file read back and compared
// by hash, then the verification `tablelight flash --verify` prints. A UF2 bootloader drive gets
// CircuitPython's .uf2 instead. Every failure is one sentence saying what to do.
// The section's data-step says where it is (tests, bench): idle, planned, writing, done, failed,
// choosing, bootloader, checking, uf2-copied.
import { bleDrive } from "./drive_ble.js";
import { FOLDER, usbDrive } from "./drive_usb.js";

const section = document.getElementById("board-setup");
const words = document.getElementById("setup-status");
const bar = document.getElementById("setup-progress");
const install = document.getElementById("setup-install");
const verifyLines = document.getElementById("setup-verify");
const uf2Form = document.getElementById("setup-uf2");
const uf2Input = document.getElementById("setup-uf2-file");
const layoutPicker = document.getElementById("setup-layout");
const blePicker = document.getElementById("setup-ble");

const call = (step, request) => window.tablelight.call("setup", { step, request: JSON.stringify(request) });
const say = (text, step) => {
  words.textContent = text;
  if (step) section.dataset.step = step;
};
const kb = (bytes) => `${Math.ceil(bytes / 1024)} KB`;

let drive = null;
let planned = null;
let bootInfo = null;

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function base64(bytes) {
  let text = "";
  for (let start = 0; start < bytes.length; start += 0x8000) text += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(text);
}

function unbase64(text) {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

// What the worker needs to see of the drive: the files it names, and every planned path when verifying.
async function snapshot(paths) {
  const { files: top, folders } = await drive.top();
  const wanted = await call("wants", top);
  if (wanted.error) throw new Error(wanted.error);
  const files = {};
  const folderPaths = [...folders];
  for (const path of new Set([...wanted.read, ...paths])) {
    const bytes = await drive.read(path);
    if (bytes === FOLDER) folderPaths.push(path);
    else if (bytes !== null) files[path] = base64(bytes);
  }
  return { drive: drive.name, files, top, folders: folderPaths, layouts: wanted.layouts };
}

function failed(text) {
  say(text, "failed");
  install.hidden = true;
}

// One sentence for what a drive or browser error means, naming what was and was not written.
function writingFailed(error, path, done) {
  const left = done.length ? `the ${done.length} files before it are new, ${path} and every later file are as they were`
    : "nothing on the drive changed";
  if (error.name === "QuotaExceededError") {
    return `The board's drive is full while writing ${path}: ${left}. Delete files you do not need from the drive (old lib/ folders, pictures) and set it up again.`;
  }
  if (drive && drive.bluetooth && ["NotFoundError", "NetworkError", "InvalidStateError"].includes(error.name)) {
    return `The board's Bluetooth link dropped while writing ${path} (out of range, or switched off?): ${left}. Bring it closer, choose it again and set it up again.`;
  }
  if (error.name === "NotFoundError" || error.name === "NotReadableError") {
    return `The board's drive went away while writing ${path} (unplugged?): ${left}. Plug it back in, choose its drive and set it up again.`;
  }
  if (error.name === "NotAllowedError" || error.name === "SecurityError") {
    return `This browser was not allowed to write to the drive (${path}): ${left}. Choose the drive again and allow editing.`;
  }
  return `Writing ${path} failed (${error.name}: ${error.message}): ${left}. Plug the board in again and set it up again.`;
}

async function choose(chosen) {
  drive = chosen;
  planned = null;
  bootInfo = null;
  verifyLines.hidden = true;
  uf2Form.hidden = true;
  bar.hidden = true;
  say(`reading ${drive.name}…`, "reading");
  const info = await drive.read("INFO_UF2.TXT");
  if (info instanceof Uint8Array) return bootloaderDrive(new TextDecoder().decode(info));
  const seen = await snapshot([]);
  // set up over Bluetooth, a board keeps Bluetooth on unless told otherwise: the phone has no other way to it
  const ble = blePicker.value ? blePicker.value === "on" : (drive.bluetooth ? true : null);
  const answer = await call("plan", { ...seen, layout: layoutPicker.value || null, ble });
  if (answer.error) return failed(answer.error);
  planned = answer;
  let writes = 0;
  let bytes = 0;
  planned.changes = [];
  for (const file of planned.files) {
    const old = await drive.read(file.path);
    const same = old instanceof Uint8Array && await sha256(old) === file.sha256;
    if (old === FOLDER) return failed(`${drive.name}/${file.path} is a folder where tablelight puts a file: move it away, then choose the drive again.`);
    if (!same) { writes += 1; bytes += file.size; planned.changes.push(file); }
  }
  const kept = Object.entries(planned.kept).map(([name, copy]) => ` Your own ${name} will be kept as ${copy}.`).join("");
  const warned = planned.warnings.map((w) => ` Note: ${w}.`).join("");
  if (!writes) {
    say(`${planned.board}, CircuitPython ${planned.circuitpython}: tablelight is already on it (${planned.files.length} files match).${warned}`, "planned");
  } else {
    say(`${planned.board}, CircuitPython ${planned.circuitpython}: ${writes} of ${planned.files.length} files to write (${kb(bytes)}).${kept}${warned}`, "planned");
  }
  install.textContent = writes ? "install tablelight on it" : "check it again";
  install.hidden = false;
  return undefined;
}

async function write() {
  install.hidden = true;
  const changes = planned.changes;
  const total = changes.reduce((sum, file) => sum + file.size, 0);
  let sent = 0;
  bar.max = Math.max(total, 1);
  bar.value = 0;
  bar.hidden = false;
  section.dataset.step = "writing";
  const done = [];
  try {
    await drive.removeLeftovers();
  } catch (error) {
    return failed(writingFailed(error, "the drive", done));
  }
  for (const [index, file] of changes.entries()) {
    words.textContent = `writing ${file.path} (file ${index + 1} of ${changes.length}, ${kb(sent)} of ${kb(total)})`;
    try {
      await drive.write(file.path, unbase64(file.data), (n) => { sent += n; bar.value = sent; });
    } catch (error) {
      return failed(writingFailed(error, file.path, done));
    }
    done.push(file.path);
  }
  words.textContent = `reading back ${changes.length} files…`;
  const differing = [];
  for (const file of changes) {
    const back = await drive.read(file.path).catch(() => null);
    if (!(back instanceof Uint8Array) || await sha256(back) !== file.sha256) differing.push(file.path);
  }
  if (differing.length) {
    return failed(`Read back from ${drive.name}, these files differ from what was written: ${differing.join(", ")}. The drive may be failing: run CircuitPython's storage.erase_filesystem() and set it up again.`);
  }
  const report = await call("verify", await snapshot(planned.files.map((f) => f.path)));
  if (report.error) return failed(report.error);
  verifyLines.textContent = report.lines.map((line) => line.text).join("\n");
  verifyLines.hidden = false;
  const kept = Object.entries(planned.kept).map(([name, copy]) => ` Your own ${name} is kept as ${copy} (rename it back to ${name} to run yours again).`).join("");
  const reset = done.includes("boot.py") ? " boot.py changed: press the board's reset button once." : "";
  const filesDiffer = report.lines.some((line) => /^(missing|differs): /.test(line.text));
  if (filesDiffer) return failed(`Wrote ${done.length} files, but the drive does not match tablelight's firmware (below): set it up again.`);
  const layout = report.matches ? "" : " Its settings.toml does not match the layout it names (below): choose a layout and set it up again.";
  // over Bluetooth, the board restarts into tablelight once the page lets it go (its drive changed)
  const restarts = typeof drive.close === "function"
    ? " The board restarts into tablelight now: hold key 0 while it starts (or press reset with key 0 held) so that it lets this page pair."
    : "";
  if (restarts) await drive.close();
  say(`Done: wrote ${done.length} files, ${planned.files.length - done.length} already identical; every file read back and checked.${kept}${reset}${layout}${restarts} Connect the board above to play.`, "done");
  return undefined;
}

// ------------------------------------------------ the UF2 bootloader: CircuitPython itself
async function bootloaderDrive(info) {
  const answer = await call("bootloader", { info, drive: drive.name });
  if (answer.error) return failed(answer.error);
  bootInfo = info;
  say(`This is the bootloader drive of an ${answer.board}: CircuitPython is not on it yet. Download CircuitPython's .uf2 for it from ${answer.download}, then choose that file here.`, "bootloader");
  uf2Input.value = "";
  uf2Form.hidden = false;
  return undefined;
}

async function copyUf2(file) {
  const data = new Uint8Array(await file.arrayBuffer());
  const answer = await call("check_uf2", { info: bootInfo, drive: drive.name, name: file.name, data: base64(data) });
  if (answer.error) return failed(answer.error);
  let sent = 0;
  bar.max = data.length;
  bar.value = 0;
  bar.hidden = false;
  section.dataset.step = "writing";
  words.textContent = `copying ${file.name} (${kb(data.length)}) to the ${answer.board}…`;
  try {
    await drive.copyWhole(file.name, data, (n) => { sent += n; bar.value = sent; });
  } catch (error) {
    // the bootloader restarts once it has the last block: the drive vanishing after that is success
    if (sent < data.length) return failed(writingFailed(error, file.name, []));
  }
  uf2Form.hidden = true;
  say(`CircuitPython is copied: the board restarts and shows a drive named CIRCUITPY. Choose that drive to install tablelight.`, "uf2-copied");
  return undefined;
}

// ------------------------------------------------ the section's buttons
const pick = document.getElementById("setup-usb");
if (typeof window.showDirectoryPicker !== "function") {
  pick.disabled = true;
  document.getElementById("setup-no-usb").hidden = false;
}
pick.onclick = async () => {
  section.dataset.step = "choosing";  // at once: what follows waits for the person
  let root;
  try {
    root = await window.showDirectoryPicker({ id: "circuitpy", mode: "readwrite" });
  } catch (error) {
    if (error.name === "AbortError") return say("No drive chosen.", "idle");
    return failed(`This browser cannot open the drive (${error.message}): use Chrome or Edge on a computer.`);
  }
  try {
    await choose(usbDrive(root));
  } catch (error) {
    failed(`Reading the drive failed (${error.name}: ${error.message}): plug the board in again and choose its drive.`);
  }
};
const pickBle = document.getElementById("setup-ble-board");
if (!navigator.bluetooth) {
  pickBle.disabled = true;
  pickBle.title = "this browser has no Web Bluetooth";
}
pickBle.onclick = async () => {
  section.dataset.step = "choosing";
  let chosen;
  try {
    chosen = await bleDrive();
  } catch (error) {
    if (error.name === "NotFoundError" && /cancel/i.test(error.message)) return say("No board chosen.", "idle");
    return failed(`The board's file transfer service did not answer (${error.message}): start the board in CircuitPython's Bluetooth workflow (press reset while its light blinks blue) and try again.`);
  }
  try {
    await choose(chosen);
  } catch (error) {
    failed(`Reading the board over Bluetooth failed (${error.name}: ${error.message}): bring it closer and try again.`);
  }
};
install.onclick = () => (section.dataset.step = "writing") && write().catch((error) => failed(`Setting the board up stopped (${error.message}): choose its drive again.`));
uf2Input.onchange = () => uf2Input.files[0] && (section.dataset.step = "checking") && copyUf2(uf2Input.files[0]).catch((error) => failed(`Copying the .uf2 failed (${error.message}): choose the drive again.`));
section.dataset.step = "idle";

window.tablelight.call("setup", { step: "wants", request: "[]" }).then((answer) => {
  for (const name of answer.layouts || []) layoutPicker.append(new Option(name, name));
}, () => {});
