// The game's own drawing (GameFace.drawing, an SVG in the snapshot's "drawing"): the page's main
// picture; the LED view stays below it, folded on phones. On a seat's page a tap on a thing with
// data-pick (a JSON object of action fields) narrows the seat's choices by those fields
// (seat.js sets onPick; narrowed() finds the choices left and the steps they all agree on).
// A finger needs FINGER CSS px: when a tappable thing is smaller on the screen (a Landover corner,
// a Mainland spot; its data-tap says the side of the square a tap reaches it in, in drawing units),
// a tap on the drawing zooms it in around the finger instead of choosing, so that every tappable
// thing is FINGER px; the zoomed drawing pans in its own box, a tap there chooses, and the button
// above it shows the whole drawing again.
'use strict';
const TLDrawing = (() => {
  const FINGER = 44;   // CSS px a tap target gets at least (the tests ask 40)
  const MOST_ZOOM = 8;
  const box = document.getElementById('drawing');
  const leds = document.getElementById('leds');
  let shown = null;
  let picked = null;   // the data-pick text of the thing tapped last: highlighted, also after a redraw
  let folded = false;
  let onPick = null;
  let zoom = 1;        // the drawing's magnification (1: the whole drawing, the page's width)
  let wholeWidth = 0;  // the drawing's width in CSS px when not zoomed
  let whole = null;    // the button that shows the whole drawing again
  if (box) {
    whole = document.createElement('button');
    whole.type = 'button';
    whole.className = 'drawing-whole';
    whole.textContent = 'Show the whole drawing';
    whole.hidden = true;
    whole.addEventListener('click', () => unzoom(true));
    box.parentNode.insertBefore(whole, box);
  }
  function show(svg) {
    if (!box || svg === shown) return;
    shown = svg;
    const left = box.scrollLeft, top = box.scrollTop;
    box.hidden = !svg;
    box.innerHTML = svg || '';  // the host's own SVG, made by the server from the game's state
    const drawn = svgOf();
    // a drawing too wide for a phone keeps its words legible and scrolls sideways (set here, not as
    // a style attribute: a strict Content-Security-Policy refuses those)
    if (drawn && drawn.dataset.leastWidth) drawn.style.minWidth = `${drawn.dataset.leastWidth}px`;
    if (svg && leds && !folded) {  // the drawing is the picture now: fold the LEDs on a phone
      folded = true;
      if (window.matchMedia('(max-width: 700px)').matches) leds.open = false;
    }
    if (zoom > 1 && !box.querySelector('[data-pick]')) unzoom(false);  // nothing left to choose on it
    else if (zoom > 1) { fit(); box.scrollLeft = left; box.scrollTop = top; }
    mark();
  }
  function svgOf() { return box && box.querySelector('svg'); }
  // CSS px a drawing unit takes on the screen now
  function scale() {
    const svg = svgOf();
    const width = svg && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
    return width ? svg.getBoundingClientRect().width / width : 1;
  }
  // the side of the square a tap reaches `node` in, in CSS px now
  function tapSize(node) {
    if (node.dataset.tap) return parseFloat(node.dataset.tap) * scale();
    const rect = node.getBoundingClientRect();
    return Math.min(rect.width, rect.height);
  }
  function smallestTap() {
    const sizes = [...box.querySelectorAll('[data-pick]')].map(tapSize);
    return sizes.length ? Math.min(...sizes) : Infinity;
  }
  function fit() {
    const svg = svgOf();
    if (!svg) return;
    box.classList.toggle('zoomed', zoom > 1);
    svg.style.width = zoom > 1 ? `${wholeWidth * zoom}px` : '';
    svg.style.maxWidth = zoom > 1 ? 'none' : '';
    if (whole) whole.hidden = zoom === 1;
  }
  // zoom in so that the smallest tap target is FINGER px, the point tapped in the middle of the box
  function zoomIn(event) {
    const svg = svgOf();
    const rect = svg.getBoundingClientRect();
    const x = (event.clientX - rect.left) / rect.width, y = (event.clientY - rect.top) / rect.height;
    wholeWidth = rect.width;
    zoom = Math.min(MOST_ZOOM, FINGER / smallestTap());
    fit();
    const zoomed = svg.getBoundingClientRect();
    box.scrollLeft = x * zoomed.width - box.clientWidth / 2;
    box.scrollTop = y * zoomed.height - box.clientHeight / 2;
    whole.scrollIntoView({block: 'start'});
  }
  function unzoom(scroll) {
    zoom = 1;
    fit();
    if (scroll) box.scrollIntoView({block: 'start'});
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
    box.addEventListener('click', event => {
      // too small for a finger here: the tap zooms in on the place instead (a click from the keyboard
      // has no place: it chooses)
      const node = event.target.closest('[data-pick]');
      if (zoom === 1 && event.detail > 0 && smallestTap() < FINGER && (!node || tapSize(node) < FINGER)) zoomIn(event);
      else tapped(event);
    });
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
    get zoom() { return zoom; },
    set onPick(handler) { onPick = handler; },
  };
})();
