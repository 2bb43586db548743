"""``tablelight bench phones``: phones joining a table that runs in a browser, over WebRTC data channels.

The app is built and served as for ``tablelight bench app``; headless Chromium (Debian's, through
Playwright) opens the table's page and starts Mainland for two people, then two phone pages
(``seat.html``, separate browser contexts) join by their seats' links. Figures:

* joining: from opening a seat's join link to the seat's first screen (its hand shown), the
  table taking the phone's answer code as soon as the phone shows it (a person scanning takes
  longer: that part is not the app's); also the page's own counts (to its answer code, to the
  first screen) from its script's start;
* a phone's action round trip over the data channel: ``send("act")`` to the table's answer, and
  to the seat's new snapshot pushed back, for every action of whole games played from the phones.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

from tablelight.app.build import build_app
from tablelight.bench.app import BROWSER_ARGS, CHROMIUM
from tablelight.bench.app_serving import bench_folder, served

#: Run in the acting phone's page: its first choice, timed to the answer and to the next snapshot.
ACT = """
async () => {
  const seat = window.tablelightSeat;
  const view = seat.view;
  const link = seat.link;
  const started = performance.now();
  const pushed = new Promise((resolve) => {
    const shown = link.onState;
    link.onState = (next) => { link.onState = shown; shown(next); resolve(performance.now()); };
  });
  const answer = await link.send("act", { action: view.choices[0].action, at: view.at });
  const answered = performance.now();
  const next = await pushed;
  return { applied: answer.applied === true, answer_ms: answered - started, state_ms: next - started };
}
"""


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    ordered = sorted(values)
    if not ordered:
        return {"count": 0, "p50_ms": None, "p99_ms": None}
    return {"count": len(ordered), "p50_ms": round(ordered[len(ordered) // 2], 1),
            "p99_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1),
            "max_ms": round(ordered[-1], 1)}


def run_phones_bench(chromium: str = CHROMIUM, games: int = 2, joins: int = 6) -> dict[str, Any]:
    """Build, serve, measure; returns the figures (see the module docstring)."""
    from playwright.sync_api import sync_playwright

    with bench_folder() as temp:
        built = build_app(temp / "site")
        with served(built.folder) as url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=BROWSER_ARGS)
            try:
                return _measure(browser, url, games, joins)
            finally:
                browser.close()


def _start(table: Any, seed: int) -> list[str]:
    """A new Mainland game for two people on the table's page; its two join links."""
    old = table.locator("#phone-list code.join-url").all_text_contents()
    if not table.eval_on_selector("#setup", "details => details.open"):  # it folds away while a game is on
        table.click("#setup summary")
    table.select_option("#game", "mainland")
    table.fill("#seats", "human,human")
    table.fill("#seed", str(seed))
    table.fill("#delay", "0")
    table.click("#start")
    table.wait_for_function("old => { const codes = [...document.querySelectorAll('#phone-list code.join-url')];"
                            " return codes.length === 2 && codes.every((c) => !old.includes(c.textContent)); }",
                            arg=old, timeout=30_000)
    return [str(code) for code in table.locator("#phone-list code.join-url").all_text_contents()]


def _join(browser: Any, table: Any, link: str) -> tuple[Any, float, dict[str, Any]]:
    """A phone opens ``link``; the table takes its answer at once. The phone's context, the seconds
    from opening the link to the seat's first screen, and the page's own counts."""
    context = browser.new_context()
    phone = context.new_page()
    started = time.perf_counter()
    phone.goto(link)
    phone.wait_for_selector("body[data-state=answer]", timeout=30_000)
    table.fill("#answer-code", phone.inner_text("#answer-text"))
    table.click("#take-answer")
    phone.wait_for_selector("body[data-state=joined] .secret", timeout=30_000)
    seconds = time.perf_counter() - started
    return context, seconds, phone.evaluate("window.tablelightSeat.timings")


def _measure(browser: Any, url: str, games: int, joins: int) -> dict[str, Any]:
    table_context = browser.new_context()
    table = table_context.new_page()
    table.goto(url)
    table.wait_for_selector("body:not([data-state=loading])", timeout=120_000)
    if table.get_attribute("body", "data-state") != "ready":
        raise RuntimeError(f"the app did not start: {table.inner_text('#status')}")
    join_s: list[float] = []
    answer_ms: list[float] = []
    screen_ms: list[float] = []
    for number in range(joins):  # a phone joins, and leaves (its seat waits for the next)
        context, seconds, timings = _join(browser, table, _start(table, 100 + number)[number % 2])
        join_s.append(seconds * 1000)
        answer_ms.append(timings["answer_ms"])
        screen_ms.append(timings["first_screen_ms"])
        context.close()
    answered: list[float] = []
    pushed: list[float] = []
    for game in range(games):
        links = _start(table, game + 1)
        phones = [_join(browser, table, link)[0] for link in links]
        pages = [context.pages[0] for context in phones]
        try:
            for _ in range(1000):
                snapshot = table.evaluate("window.tablelight.call('snapshot')")
                if snapshot["public"]["over"]:
                    break
                seat = snapshot["public"]["turn"]
                pages[seat].wait_for_function("s => window.tablelightSeat.view && window.tablelightSeat.view.your_turn"
                                              " && window.tablelightSeat.view.seat === s", arg=seat, timeout=10_000)
                timed = pages[seat].evaluate(ACT)
                if not timed["applied"]:
                    raise RuntimeError("a phone's first choice was refused")
                answered.append(timed["answer_ms"])
                pushed.append(timed["state_ms"])
        finally:
            for context in phones:
                context.close()
    table_context.close()
    return {"joins": {**percentiles(join_s), "median_answer_shown_ms": round(statistics.median(answer_ms), 1),
                      "median_first_screen_page_ms": round(statistics.median(screen_ms), 1)},
            "act_answer": percentiles(answered), "act_to_new_snapshot": percentiles(pushed), "games": games}


def print_figures(figures: dict[str, Any]) -> None:
    joins, answer, pushed = figures["joins"], figures["act_answer"], figures["act_to_new_snapshot"]
    print("phones at a table in headless Chromium, over WebRTC data channels (one machine, no STUN server)")
    print(f"  join link opened to the seat's first screen: p50 {joins['p50_ms']} ms, max {joins['max_ms']} ms "
          f"({joins['count']} joins; the phone's own count: answer code shown {joins['median_answer_shown_ms']} ms, "
          f"first screen {joins['median_first_screen_page_ms']} ms, medians)")
    print(f"  a phone's action to the table's answer: p50 {answer['p50_ms']} ms, p99 {answer['p99_ms']} ms "
          f"({answer['count']} actions, {figures['games']} Mainland games)")
    print(f"  a phone's action to its new snapshot: p50 {pushed['p50_ms']} ms, p99 {pushed['p99_ms']} ms")


def add_parser(kinds: Any) -> None:
    """``bench phones`` among ``tablelight bench``'s kinds."""
    parser = kinds.add_parser("phones", help="phones joining a table in a browser over WebRTC: join link to the "
                                             "seat's first screen, action round trips over the data channel")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the Chromium to drive (default {CHROMIUM})")
    parser.add_argument("--games", type=int, default=2, help="Mainland games played from two phones (default 2)")
    parser.add_argument("--joins", type=int, default=6, help="phones joining, timed (default 6)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.set_defaults(func=run)


def run(args: Any) -> int:
    from tablelight.core.errors import SetupError

    if not Path(args.chromium).exists():
        raise SetupError(f"no Chromium at {args.chromium}: install Debian's chromium or give --chromium PATH")
    if args.games < 1 or args.joins < 1:
        raise SetupError("--games and --joins take a whole number from 1")
    try:
        import playwright  # noqa: F401
    except ImportError:
        raise SetupError("bench phones drives Chromium with Playwright: pip install 'tablelight[test]'") from None
    figures = run_phones_bench(args.chromium, args.games, args.joins)
    if args.json:
        print(json.dumps(figures))
    else:
        print_figures(figures)
    return 0
