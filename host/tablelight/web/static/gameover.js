// Game over on every page: once a snapshot carries "result", a panel says who won (by colour) and
// each seat's score with its breakdown; the page keeps it (and the final board) after the host stops.
// The panel is brought into view once, when it appears: a phone stays scrolled where its player
// last tapped (the choices, the log), and would show the scores but not who won.
'use strict';
const TLOver = (() => {
  function panel() {
    let box = document.getElementById('gameover');
    if (box) return box;
    box = TL.el('section', null, 'gameover');
    box.id = 'gameover';
    box.setAttribute('role', 'status');
    const anchor = document.getElementById('away');
    const side = document.querySelector('.side');
    if (side) side.prepend(box); else if (anchor) anchor.after(box); else document.body.prepend(box);
    return box;
  }
  function show(state) {
    const result = state && state.result;
    TL.ended(Boolean(result));
    document.body.classList.toggle('over', Boolean(result));
    const old = document.getElementById('gameover');
    if (!result) { if (old) old.remove(); return; }
    const box = panel();
    // after the page has drawn the rest of this snapshot (the choices go): then the panel stays put
    if (!old) setTimeout(() => box.scrollIntoView({block: 'nearest'}), 0);
    const rows = result.seats.map(seat => {
      const row = TL.el('li', null, 'result-seat');
      if (result.winners.includes(seat.name)) row.classList.add('winner');
      row.append(TL.el('strong', `${seat.name}: ${seat.score} point${seat.score === 1 ? '' : 's'}`));
      if (seat.breakdown.length) {
        const parts = seat.breakdown.filter(p => p[1]).map(p => `${p[0]} ${p[1]}`);
        row.append(TL.el('span', parts.length ? ` (${parts.join(', ')})` : '', 'breakdown'));
      }
      return row;
    });
    const list = TL.el('ul', null, 'result');
    list.append(...rows);
    box.replaceChildren(TL.el('h2', 'Game over'), TL.el('p', result.headline, 'headline'), list,
      TL.el('p', 'The board shows the final position.', 'hint'));
  }
  return { show };
})();
