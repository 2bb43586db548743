// The shared board page: LEDs and public news; with the host's token also key presses and seat codes.
'use strict';
(() => {
  const params = new URLSearchParams(location.search);
  if (params.has('token')) {
    sessionStorage.setItem(TL.storageKey('host'), params.get('token'));
    history.replaceState(null, '', location.pathname);  // keep the token off the address bar
  }
  const hostToken = sessionStorage.getItem(TL.storageKey('host'));
  const status = document.getElementById('status');
  const hasSeats = document.body.dataset.seats === 'yes';
  function onState(state) {
    status.textContent = state.message || state.turn_line || '';
    if (state.title) {  // a new game played again at the same seats has its own number
      document.getElementById('title').textContent = state.title;
      document.title = 'tablelight: ' + state.title;
    }
    TLDrawing.show(state.drawing);
    if (!state.board) TL.away('The board is away: waiting for it to come back (the game is saved).');
    TLGuide.show(state);
    TLOver.show(state);
    if (hostToken && state.again) offerAgain();
    if (!hasSeats) return;
    const joinUrl = document.getElementById('join-url');  // none in a bots-only game
    if (joinUrl) joinUrl.textContent = state.join_url;
    TL.fill(document.getElementById('log'), state.log.slice(-12).reverse(), (state.log_numbers || []).slice(-12).reverse());
    TL.scores(document.getElementById('scores'), state);
    const seats = document.getElementById('seats');
    seats.replaceChildren(...state.seats.map(seat => TL.el('li',
      seat.kind === 'human' ? `${seat.label}: ${seat.joined ? 'joined' : 'not joined yet'}` : `${seat.label}: a bot (${seat.kind})`)));
    if (hostToken) loadHost();
  }
  // the host's own socket shows its token, so strangers' sockets never crowd it out
  const boardSocket = hostToken ? `/ws/board?token=${encodeURIComponent(hostToken)}` : '/ws/board';
  TL.live(boardSocket, data => { if (data.state) onState(data.state); });

  // At game over the host starts a new game of the same seats: every phone keeps its seat and moves to it.
  function offerAgain() {
    const box = document.getElementById('gameover');
    if (!box || box.querySelector('#again')) return;
    const button = TL.el('button', 'Play again (same seats)', 'choice again');
    button.id = 'again';
    const said = TL.el('p', 'A new game with the same seats, bots and options; the phones stay joined.', 'hint');
    button.addEventListener('click', async () => {
      button.disabled = true;
      button.textContent = 'starting a new game...';
      const answer = await fetch('/api/host/again', {method: 'POST',
        headers: {'X-Host-Token': hostToken, 'Content-Type': 'application/json'}, body: '{}'});
      if (answer.ok) return;  // the next picture shows the new game
      const data = await answer.json().catch(() => ({}));
      said.textContent = data.error || `the host refused (${answer.status})`;
      button.disabled = false;
      button.textContent = 'Play again (same seats)';
    });
    box.querySelector('.headline').after(button, said);  // under who won, above the scores
  }

  if (!hostToken) return;
  document.querySelectorAll('[data-key]').forEach(node => {
    node.classList.add('pressable');
    node.addEventListener('click', () => fetch('/api/press/' + node.dataset.key, {
      method: 'POST', headers: {'X-Host-Token': hostToken, 'Content-Type': 'application/json'}, body: '{}'}));
  });
  async function loadHost() {
    const answer = await fetch('/api/host', {headers: {'X-Host-Token': hostToken}});
    if (!answer.ok) return;
    const data = await answer.json();
    const box = document.getElementById('host-seats');
    document.getElementById('host').hidden = !data.seats.length;  // a bots-only game has no seat to join
    box.replaceChildren(...data.seats.map(seat => {
      const card = TL.el('div', null, 'host-seat');
      card.append(TL.el('strong', seat.label));
      if (seat.joined) {
        card.append(TL.el('span', ' has a device. '));
      } else {
        card.append(TL.el('span', ` code ${seat.code} `, 'code'));
        const qr = TL.el('div', null, 'qr');
        qr.innerHTML = seat.qr;  // segno's SVG, made by the server
        card.append(qr);
      }
      const drop = TL.el('button', seat.joined ? 'drop device, new code' : 'new code', 'small');
      drop.addEventListener('click', async () => {
        await fetch('/api/host/drop', {method: 'POST', headers: {'X-Host-Token': hostToken, 'Content-Type': 'application/json'},
          body: JSON.stringify({seat: seat.seat})});
        loadHost();
      });
      card.append(drop);
      return card;
    }));
  }
  if (hasSeats) loadHost();
})();
