// The game's own drawing (GameFace.drawing, an SVG in the snapshot's "drawing"): the page's main
// picture; the LED view stays below it, folded on phones. On a seat's page a tap on a thing with
// data-pick (a JSON object of action fields) narrows the seat's choices by those fields
// (seat.js sets onPick; narrowed() finds the choices left and the steps they all agree on).
'use strict';
const TLDrawing = (() => {
  const box = document.getElementById('drawing');
  const leds = document.getElementById('leds');
  let shown = null;
  let picked = null;   // the data-pick text of the thing tapped last: highlighted, also after a redraw
  let folded = false;
  let onPick = null;
  function show(svg) {
    if (!box || svg === shown) return;
    shown = svg;
    box.hidden = !svg;
    box.innerHTML = svg || '';  // the host's own SVG, made by the server from the game's state
    if (svg && leds && !folded) {  // the drawing is the picture now: fold the LEDs on a phone
      folded = true;
      if (window.matchMedia('(max-width: 700px)').matches) leds.open = false;
    }
    mark();
  }
  function mark() {
    if (!box) return;
    box.querySelectorAll('.pick-ring').forEach(node => node.remove());
    box.querySelectorAll('[data-pick]').forEach(node => {
      node.classList.toggle('picked', node.dataset.pick === picked);
      if (node.dataset.pick !== picked) return;
      const ring = node.cloneNode(true);  // its outline, drawn over its neighbours (they may overlap it)
      ['data-pick', 'data-name', 'class'].forEach(name => ring.removeAttribute(name));
      ring.setAttribute('class', 'pick-ring');
      node.ownerSVGElement.appendChild(ring);
    });
  }
  function highlight(pick) { picked = pick; mark(); }
  if (box) {
    const tapped = event => {
      const node = event.target.closest('[data-pick]');
      if (node && onPick) onPick(JSON.parse(node.dataset.pick), node.dataset.pick, node.dataset.name || 'that');
    };
    box.addEventListener('click', tapped);
    box.addEventListener('keydown', event => {  // a focused thing is chosen with Enter or Space, as a button
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      tapped(event);
    });
  }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  // whether a choice ({fields, values, path}) has every field of `fields` with its value
  function agrees(choice, fields) {
    return Object.entries(fields).every(([name, value]) => {
      const i = choice.fields.indexOf(name);
      return i >= 0 && same(choice.values[i], value);
    });
  }
  // A tap's fields added to those tapped before (alone when it changes one of them, another card or
  // territory, or when no choice has both): the choices left, and the steps (labels of
  // choice.path) they all agree on; null when none is left.
  function narrowed(choices, before, pick) {
    const changes = Object.keys(pick).some(name => name in before && !same(before[name], pick[name]));
    let fields = changes ? {...pick} : {...before, ...pick};
    let left = choices.filter(c => agrees(c, fields));
    if (!left.length) {
      fields = {...pick};
      left = choices.filter(c => agrees(c, fields));
    }
    if (!left.length) return null;
    let depth = 0;
    while (depth < left[0].path.length && left.every(c => c.path[depth] === left[0].path[depth])) depth++;
    return {fields, left, path: left[0].path.slice(0, depth)};
  }
  return {
    show, highlight, agrees, narrowed,
    set onPick(handler) { onPick = handler; },
  };
})();
