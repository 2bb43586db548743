// A seat's page served by a host: links the seat screen (seat.js) to the host, its snapshots over a
// WebSocket that reconnects, its requests over HTTP with the device's token (from joining).
'use strict';
(() => {
  const seat = Number(document.body.dataset.seat);
  const token = localStorage.getItem(TL.storageKey('seat:' + seat));
  if (!token) { location.replace('/join'); return; }
  TLSeat.start({
    async send(what, body) {
      try {
        const answer = await fetch(`/api/seat/${seat}/${what}`, {
          method: 'POST',
          headers: {'Content-Type': 'application/json', 'X-Seat-Token': token},
          body: JSON.stringify(body),
        });
        return await answer.json();
      } catch (error) {
        return {error: 'the host did not answer: ' + error};
      }
    },
    listen(onState) {
      TL.live(`/ws/seat/${seat}?token=${encodeURIComponent(token)}`, data => { if (data.state) onState(data.state); }, event => {
        if (event.code === 4401) {
          localStorage.removeItem(TL.storageKey('seat:' + seat));
          TL.away('This device no longer holds the seat: ask the host for a new code.');
          setTimeout(() => location.replace('/join'), 2500);
          return false;
        }
        return true;
      });
    },
  });
})();
