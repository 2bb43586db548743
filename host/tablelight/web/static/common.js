// Shared by the pages: LED colours, a live socket that reconnects, small DOM helpers.
'use strict';
const TL = (() => {
  const body = document.body;
  const gamma = Number(body.dataset.gamma || 1);
  const leds = new Map();
  document.querySelectorAll('.led').forEach(el => leds.set(Number(el.dataset.led), el));
  const lift = v => Math.round(255 * Math.pow(Math.max(0, Math.min(255, v)) / 255, gamma));
  function paint(pixels) {
    pixels.forEach((p, i) => {
      const el = leds.get(i);
      if (el) el.style.fill = `rgb(${lift(p[0])}, ${lift(p[1])}, ${lift(p[2])})`;
    });
    body.dataset.frames = String(Number(body.dataset.frames || 0) + 1);
  }
  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function fill(list, items, numbers) {  // numbers: each item's number (a log's entry numbers), or none
    list.replaceChildren(...items.map((item, i) => {
      const li = el('li', item);
      if (numbers && Number.isInteger(numbers[i])) li.value = numbers[i];
      return li;
    }));
  }
  let over = false;  // the last snapshot said the game is over: a closed socket then means the host stopped
  function ended(flag) { over = flag; }
  function away(text, quiet) {  // quiet: a word under the result, not a warning over it
    const banner = document.getElementById('away');
    if (!banner) return;
    banner.hidden = !text;
    banner.textContent = text || '';
    banner.classList.toggle('quiet', Boolean(quiet));
  }
  // Opens path as a WebSocket; onMessage gets each JSON message. Reconnects unless onClose says stop.
  function live(path, onMessage, onClose) {
    let retry = 500;
    function open() {
      const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`);
      socket.onopen = () => { retry = 500; away(''); };
      socket.onmessage = event => {
        const data = JSON.parse(event.data);
        if (data.pixels) paint(data.pixels);
        if (data.board === false) away('The board is away: waiting for it to come back (the game is saved).');
        onMessage(data);
      };
      socket.onclose = event => {
        if (onClose && onClose(event) === false) return;
        if (event.code === 1013) {  // refused for want of room: the server says why in words
          away(`Too many watchers: ${event.reason.replace(/^too many watchers: /, '')}. ` +
               "The host's page and the seats' pages always have room.");
          retry = Math.max(retry, 2000);
        } else if (over) {
          away('The game is over; the host has stopped. This page keeps the final result.', true);
        } else {
          away('The host is away: reconnecting...');
        }
        setTimeout(open, retry);
        retry = Math.min(retry * 2, 5000);
      };
    }
    open();
  }
  function scores(list, state) {
    list.replaceChildren(...state.seats.map((seat, i) => {
      const item = el('li', `${seat.label}: ${state.scores[i]}`);
      if (state.turn === i || (state.your_turn && state.seat === i)) item.className = 'acting';
      return item;
    }));
  }
  function storageKey(name) { return `tablelight:${body.dataset.table}:${name}`; }
  return { paint, el, fill, away, live, scores, storageKey, ended };
})();
