// The join page: spend the link's token (or a typed code) for this device's seat token, then go to the seat.
'use strict';
(() => {
  const error = document.getElementById('join-error');
  async function join(body) {
    const answer = await fetch('/api/join', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const data = await answer.json();
    if (!answer.ok) {
      const mine = localStorage.getItem(TL.storageKey('mine'));
      if (body.token && mine !== null) { location.replace('/seat/' + mine); return; }
      error.textContent = data.error || 'refused';
      return;
    }
    localStorage.setItem(TL.storageKey('seat:' + data.seat), data.device);
    localStorage.setItem(TL.storageKey('mine'), String(data.seat));
    location.replace('/seat/' + data.seat);
  }
  const params = new URLSearchParams(location.search);
  if (params.has('token')) {
    const token = params.get('token');
    history.replaceState(null, '', location.pathname);
    join({token});
  }
  document.getElementById('join-form').addEventListener('submit', event => {
    event.preventDefault();
    error.textContent = '';
    join({code: document.getElementById('code').value});
  });
})();
