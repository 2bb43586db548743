import { attachBoard } from "./board_link.js";
import { attachPhones } from "./phones.js";
import { tellTabs } from "./tabs.js";
// The page: it owns the screen (and, later, the board's link); the table runs in worker.js.
// document.body.dataset.state: "loading", then "ready" once the engines are loaded, or "error"
// (the message in #status), or "elsewhere" (another tab has the table: tabs.js). window.tablelight.call(op, arg) reaches the worker (tests, bench).
const body = document.body;
const status = document.getElementById("status");
const startedAt = performance.now();
let nextId = 1;
const waiting = new Map();
let latest = null;
let revealed = null;  // the seat whose player tapped "I am red" (pass and play)

function fail(message) {
  body.dataset.state = "error";
  status.textContent = `the app could not start: ${message}`;
}


const worker = new Worker("worker.js", { type: "module" });
const { boardWrite, boardState, tellMissingLinks, closeBoard } = attachBoard(worker);
worker.onerror = (event) => fail(event.message || "the worker failed to load");
worker.onmessage = (event) => {
  const message = event.data;
  if (message.type === "ready") return ready(message);
  if (message.type === "error") return fail(message.message);
  if (message.type === "elsewhere" || message.type === "taken") return tellTabs(message, worker, closeBoard);
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

window.tablelight = { call, snapshot: () => latest, timings: {}, redraw: () => latest && show(latest) };
const phonesSee = attachPhones(call);  // phones that joined get their seat's view of each snapshot

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
  const think = document.getElementById("think").value.trim();  // ms a search bot may think a move
  const seats = document.getElementById("seats").value.split(",").map((s) => s.trim()).filter(Boolean)
    .map((s) => (think && /^mcts(-deep)?$/i.test(s) ? `${s}:${think}ms` : s));  // the table checks the budget
  // an empty seed: the worker draws a secret one (a new deal every game); a typed one is sent as
  // typed, so the worker names what is wrong with it
  const typed = document.getElementById("seed").value.trim();
  const seed = typed === "" ? {} : { seed: /^\d+$/.test(typed) && Number.isSafeInteger(Number(typed)) ? Number(typed) : typed };
  const delay = parseFloat(document.getElementById("delay").value);
  opened(await call("start", { game: gamePicker.value, seats, ...seed, bot_delay: delay >= 0 ? delay : 0.3 }));
};

// ------------------------------------------------ the games kept in this browser (worker.js keeps
// them in IndexedDB): resume one, download a record (`tablelight replay` reads it), open one.
async function opened(answer) {
  if (answer.error) {
    status.textContent = answer.error;
    return;
  }
  revealed = null;
  document.getElementById("setup").open = false;  // the game takes the screen; the set-up folds away
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

// The seat screen (seat.js, the host-served pages' own) shows one seat at a time: the seat to act,
// or the first person's; with a cover between players when cards are hidden (pass and play).
let shownSeat = null;
let toScreen = () => {};
TLSeat.start({
  listen(onState) { toScreen = onState; },
  // parsed once, in the worker (AppTable.seat_request), as a phone's request and a host page's are
  send: (what, body) => call("seat_request", { seat: shownSeat, what, body }),
});
document.getElementById("seat-screen").hidden = true;

// What a screen with no person's seat shows: the public view, as a watcher sees it.
function watching(table) {
  return {
    seat: null, label: table.over ? "the table" : "watching", your_turn: false, prompt: table.message, feedback: "", secrets: [], choices: [],
    narrowed: false, at: table.version, scores: table.scores, seats: table.seats, over: table.over, board: table.board,
    guide: table.guide, drawing: table.drawing, log: table.log || [], log_numbers: table.log_numbers || [],
    ...(table.result ? { result: table.result } : {}),
  };
}

function show(snapshot) {
  if (snapshot !== latest) phonesSee(snapshot);
  latest = snapshot;
  const table = snapshot.public;
  if (!table) return;
  document.getElementById("table").hidden = false;
  body.dataset.over = String(table.over);
  body.dataset.version = String(table.version);
  status.textContent = snapshot.failure || `${table.game}${snapshot.id ? `, game ${snapshot.id}` : ""}`;  // the turn and what to do: below
  document.getElementById("turn").textContent = table.turn_line;
  const humans = Object.values(snapshot.seats).filter((s) => s && !window.tablelight.phoneSeats.has(s.seat));  // not on a phone
  const acting = humans.find((s) => s.your_turn);
  // Pass and play: with two people on one screen and a game that hides cards, a seat's cards show
  // only after its player taps (a game with nothing hidden needs no cover). At the end the cover
  // goes and two people see what everyone may (who won, the scores, the final board: what the game
  // reveals at the end is in its result), never one seat's hand.
  const hides = humans.some((s) => s.secrets && s.secrets.length);
  const covered = !table.over && humans.length > 1 && hides && !(acting && acting.seat === revealed);
  const seat = covered || (table.over && humans.length > 1) ? null : acting || humans[0] || null;
  document.getElementById("cover").hidden = !covered;
  body.dataset.covered = String(covered);
  if (covered) {
    const reveal = document.getElementById("reveal");
    reveal.hidden = !acting;
    document.getElementById("cover-words").textContent = acting
      ? `pass the phone to ${acting.label}; the others look away` : "the cards are hidden until a person is to act";
    if (acting) {
      reveal.textContent = `I am ${acting.label}`;
      reveal.onclick = () => { revealed = acting.seat; show(latest); };
    }
  }
  shownSeat = seat ? seat.seat : null;
  toScreen(covered ? null : seat || watching(table));
  if (table.again) offerAgain();
}

// At game over the game-over panel offers the next game of the same game, seats, bots and options,
// with a new secret seed (or the typed one counted on), as the host page's button does.
function offerAgain() {
  const box = document.getElementById("gameover");
  if (!box || box.querySelector("#again")) return;
  const button = text("button", "Play again (same seats)", "choice again");
  button.id = "again";
  button.type = "button";
  const said = text("p", "A new game with the same seats, bots and options; this one stays kept in this browser.", "hint");
  button.onclick = async () => {
    button.disabled = true;
    button.textContent = "starting a new game...";
    const answer = await call("again");
    if (!answer.error) return opened(answer);
    said.textContent = answer.error;
    button.disabled = false;
    button.textContent = "Play again (same seats)";
    return undefined;
  };
  box.querySelector(".headline").after(button, said);  // under who won, above the scores
}

