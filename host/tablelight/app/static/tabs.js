// One table per browser: the worker holds a Web Lock while it keeps games (worker.js, "one table
// per browser"). A second tab hears "elsewhere" and says so in one sentence, with a button that
// takes the table over; the tab that gives it away hears "taken", closes its board link and stops.
// document.body.dataset.state is "elsewhere" in both cases.
const body = document.body;

export function tellTabs(message, worker, closeBoard) {
  const status = document.getElementById("status");
  body.dataset.state = "elsewhere";
  let button = document.getElementById("take-over");
  if (!button) {
    button = document.createElement("button");
    button.id = "take-over";
    button.type = "button";
    button.textContent = "take the table over here";
    status.after(button);
  }
  if (message.type === "elsewhere") {
    status.textContent = "the table is open in another tab of this browser: play there, or take it over here " +
      "(the other tab stops; its games are kept)";
    button.hidden = false;
    button.onclick = () => {
      button.hidden = true;
      body.dataset.state = "loading";
      status.textContent = "taking the table over from the other tab…";
      worker.postMessage({ op: "take_over" });
    };
    return;
  }
  // "taken": another tab has the table now; this one stops (its last change was written first)
  closeBoard();
  for (const id of ["new-game", "kept", "table", "board-bar", "seat-screen", "phones"]) {
    const part = document.getElementById(id);
    if (part) part.hidden = true;
  }
  status.textContent = "the table moved to another tab of this browser (its games are kept): reload this tab to take it back";
  button.hidden = true;
}
