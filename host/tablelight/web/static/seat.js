// A seat's screen: its secrets, what to do now and its choices (narrowed step by step), its log,
// live. The choices are the board's candidates: what the board's keys chose narrows them, and a step
// tapped here is sent to the board (narrow), whose LEDs then show it; a whole choice is applied.
// The screen does not know where the table runs: TLSeat.start(link) takes a link to it --
//   link.listen(onState)        calls onState(snapshot) on each change (Desk.seat's snapshot), or
//                               onState(null) to hide the screen (a pass-and-play cover);
//   link.send(what, body)       what: "act" ({action, at}) or "narrow" ({chosen, at}); resolves to
//                               {applied | narrowed, message?, error?}.
// seat_host.js links it to a host (WebSocket and HTTP); the browser app links it to its worker.
'use strict';
const TLSeat = (() => {
  function start(link) {
    const MAX_SHOWN = 8;  // more choices than this are narrowed first: by type, then field by field
    let state = null;
    let picked = [];      // the steps chosen so far (labels of choice.path)
    let drawn = {};       // the fields tapped on the drawing (drawing.js): the choices listed agree with them
    let busy = false;
    const $ = id => document.getElementById(id);

    function matching() {
      return state.choices.filter(c => TLDrawing.agrees(c, drawn) && picked.every((label, i) => c.path[i] === label));
    }
    function renderChoices() {
      const box = $('choices');
      const crumbs = $('crumbs');
      if (!state.your_turn || state.choices.length === 0) { box.replaceChildren(); crumbs.replaceChildren(); return; }
      let left = matching();
      if (left.length === 0) { picked = []; drawn = {}; left = state.choices; }
      let depth = picked.length;
      // skip steps every choice left agrees on
      while (left.length > MAX_SHOWN && depth < left[0].path.length && new Set(left.map(c => c.path[depth])).size === 1) depth++;
      const buttons = [];
      if (left.length > MAX_SHOWN && depth < left[0].path.length) {
        const groups = new Map();
        left.forEach(c => groups.set(c.path[depth], (groups.get(c.path[depth]) || 0) + 1));
        groups.forEach((count, label) => {
          const button = TL.el('button', null, 'choice step');
          button.append(TL.el('span', label));
          if (count > 1) button.append(TL.el('small', `${count} choices`));
          button.addEventListener('click', () => {
            picked = left[0].path.slice(0, depth).concat([label]);
            renderChoices();
            const first = matching()[0];
            if (first) narrow(chosenUpTo(first, depth));
          });
          buttons.push(button);
        });
      } else {
        left.forEach(c => {
          const button = TL.el('button', c.text, 'choice');
          button.addEventListener('click', () => act(c.action, button));
          buttons.push(button);
        });
      }
      box.classList.toggle('steps', buttons.length > 0 && buttons[0].classList.contains('step'));
      box.replaceChildren(...buttons);
      crumbs.replaceChildren();
      if (picked.length) {
        const back = TL.el('button', '\u2190 back', 'small');
        back.addEventListener('click', () => {
          picked = picked.slice(0, -1);
          drawn = {};
          TLDrawing.highlight(null);
          renderChoices();
          const first = matching()[0];
          narrow(picked.length && first ? chosenUpTo(first, picked.length - 1) : {});
        });
        crumbs.append(back, TL.el('span', ' ' + picked.join(' \u203a ')));
      } else if (state.narrowed) {  // chosen on the board's keys
        const over = TL.el('button', '\u2190 start over', 'small');
        over.addEventListener('click', () => narrow({}));
        crumbs.append(over, TL.el('span', ' narrowed on the board'));
      }
    }
    function chosenUpTo(choice, depth) {  // the fields of a choice's first depth + 1 steps (a step may be the face's own, a corner's hex)
      const chosen = {};
      choice.fields.slice(0, depth + 1).forEach((name, i) => { chosen[name] = choice.values[i]; });
      return chosen;
    }
    function post(what, body) {  // one of this seat's requests, at the position it was chosen in
      return link.send(what, {...body, at: state.at});
    }
    async function narrow(chosen) {  // show a partial choice on the board, as its keys would
      try {
        const data = await post('narrow', {chosen});
        $('feedback').textContent = data.narrowed ? (data.message || '') : (data.message || data.error || 'refused');
        return data.narrowed;
      } catch (error) {
        $('feedback').textContent = 'the table did not answer: ' + error;
      }
    }
    async function act(action, button) {
      if (busy) return;
      busy = true;
      button.classList.add('sending');
      try {
        const data = await post('act', {action});
        $('feedback').textContent = data.applied ? '' : (data.message || data.error || 'refused');
        if (data.applied) picked = [];
      } catch (error) {
        $('feedback').textContent = 'the table did not answer: ' + error;
      } finally {
        busy = false;
        button.classList.remove('sending');
      }
    }
    TLDrawing.onPick = (pick, key, name) => {  // a tap on the drawing narrows as the step buttons do
      if (!state || !state.your_turn) { $('feedback').textContent = `${name}: wait for your turn`; return; }
      const found = TLDrawing.narrowed(state.choices, drawn, pick);
      // a list narrowed on the board holds one card's or target's moves: another is asked of the board
      if (!found && !state.narrowed) { $('feedback').textContent = `${name}: nothing to choose there now`; return; }
      drawn = found ? found.fields : {};
      picked = found ? found.path : [];
      TLDrawing.highlight(key);
      if (found) renderChoices();  // else the board's new list comes with the next snapshot
      if (found && found.left.length <= 4) $('now').scrollIntoView({behavior: 'smooth', block: 'nearest'});  // the moves to make
      narrow(found ? found.fields : pick).then(taken => { if (!taken) TLDrawing.highlight(null); });
    };
    let shownChoices = '';
    function hide() {  // nothing of the last seat stays on the page (pass and play: the next player looks)
      state = null;
      shownChoices = '';
      picked = []; drawn = {};
      TLDrawing.highlight(null);
      TLDrawing.show(null);
      ['secrets', 'choices', 'crumbs', 'log', 'scores'].forEach(id => $(id).replaceChildren());
      ['prompt', 'feedback'].forEach(id => { $(id).textContent = ''; });
      $('seat-screen').hidden = true;
    }
    function render(next) {
      if (!next) { hide(); return; }
      $('seat-screen').hidden = false;
      const newTurn = !state || state.at !== next.at || state.seat !== next.seat;
      state = next;
      const choices = JSON.stringify([state.at, state.your_turn, state.narrowed, state.choices]);
      if (newTurn) { picked = []; drawn = {}; TLDrawing.highlight(null); }
      TLDrawing.show(state.drawing);
      $('label').textContent = state.label;
      $('turn-badge').hidden = !state.your_turn;
      document.body.classList.toggle('acting', state.your_turn);
      $('prompt').textContent = state.prompt;
      if (newTurn || state.feedback) $('feedback').textContent = state.feedback || '';
      const secrets = $('secrets');
      secrets.replaceChildren(...state.secrets.map(s => {
        const part = TL.el('div', null, 'secret');
        part.append(TL.el('h2', s.title));
        if (s.items) {
          const list = TL.el('ul');
          TL.fill(list, s.items);
          part.append(list);
        } else {
          part.append(TL.el('p', s.text));
        }
        return part;
      }));
      TL.scores($('scores'), state);
      TL.fill($('log'), state.log.slice().reverse(), (state.log_numbers || []).slice().reverse());
      TLGuide.show(state);
      TLOver.show(state);
      if (!state.board) TL.away('The board is away: waiting for it to come back (the game is saved).');
      if (choices !== shownChoices) {  // redraw the buttons only when they change: a tap must not miss
        shownChoices = choices;
        renderChoices();
      }
    }
    link.listen(render);
  }
  return { start };
})();
