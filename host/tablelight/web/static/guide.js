// "How to play": the game's rules guide (the snapshot's "guide": sections with titles), in a panel
// that folds open on every page. Drawn once, from the first snapshot that carries it.
'use strict';
const TLGuide = (() => {
  let drawn = false;
  function show(state) {
    if (drawn || !state || !Array.isArray(state.guide) || state.guide.length === 0) return;
    drawn = true;
    const panel = TL.el('details', null, 'guide');
    panel.id = 'guide';
    panel.append(TL.el('summary', 'How to play'));
    state.guide.forEach(section => {
      const part = TL.el('div', null, 'guide-section');
      part.append(TL.el('h3', section.title));
      String(section.text).split('\n').forEach(line => part.append(TL.el('p', line)));
      panel.append(part);
    });
    // the seat page: under what to do now; the shared page: at the end of its side column
    const now = document.getElementById('now');
    const side = document.querySelector('.side');
    if (now) now.after(panel); else if (side) side.append(panel); else document.body.append(panel);
  }
  return { show };
})();
