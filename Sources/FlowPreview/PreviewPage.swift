/// The page every browser gets at `/`: plain HTML and JavaScript, no build step. It lists
/// the live stores and shows the one changed last, or the one picked (`?view=N`, or the
/// list); nodes glide to their new places when a change moves them; it pans (drag the
/// background) and zooms (wheel) by itself, keeping that viewport across changes, and
/// sends clicks, node drags, double-clicks on the background (a new node) and the Delete
/// key (the selection) to the store; it lists who is connected (docs/preview.md).
enum PreviewPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>flowrepl preview</title>
<style>
  html, body { margin: 0; height: 100%; overflow: hidden; font: 13px system-ui, sans-serif; background: #f4f4f5; }
  #canvas { position: absolute; inset: 0; cursor: grab; touch-action: none; }
  #canvas.panning { cursor: grabbing; }
  #picture { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
  #picture svg { display: block; }
  #picture g.node { cursor: move; }
  #picture path[id^="edge-"] { cursor: pointer; pointer-events: visibleStroke; }
  #bar { position: absolute; left: 8px; bottom: 8px; display: flex; gap: 8px; align-items: center; }
  #status { padding: 3px 8px; border-radius: 4px; background: #e4e4e7; color: #3f3f46; }
  #status.off { background: #fde68a; }
  #notice { position: absolute; left: 8px; right: 8px; top: 8px; padding: 6px 10px; border-radius: 4px;
            background: #fee2e2; color: #7f1d1d; white-space: pre-wrap; font-family: monospace; display: none; }
  button, select { font: inherit; }
  #people { position: absolute; right: 8px; bottom: 8px; padding: 4px 8px; border-radius: 4px; background: #e4e4e7;
            color: #3f3f46; max-width: 40%; }
  #people ul { margin: 2px 0 0; padding: 0 0 0 16px; }
  #people li.you { font-weight: 600; }
</style>
</head>
<body>
<div id="canvas"><div id="picture"></div></div>
<div id="notice"></div>
<div id="people" title="who is connected, and the store each shows"><span id="peopleCount">connecting</span><ul id="peopleList"></ul></div>
<div id="bar"><span id="status" class="off">connecting</span><button id="fit" title="fit the picture in the window">fit</button><select id="stores" title="the store shown"><option value="">last changed</option></select></div>
<script>
"use strict";
const picture = document.getElementById("picture");
const canvas = document.getElementById("canvas");
const statusBox = document.getElementById("status");
const notice = document.getElementById("notice");
const storeList = document.getElementById("stores");
const query = new URLSearchParams(location.search);
// the view picked (a store's number), or null: the store changed last
let picked = query.get("view");
// the server's token (an address beyond loopback has one): the WebSocket needs it too
const token = query.get("token");
// the name the others see (the server makes it safe; without one: "viewer N")
const myName = query.get("name");
// What tests and curious users read: frames seen, change-to-page latencies (ms), replies,
// the view shown, the stores listed, animations started and finished.
window.preview = { frames: 0, revision: 0, latencies: [], errors: [], replies: 0, open: false,
                   view: null, stores: [], latest: null, animations: 0, animated: 0, animating: false,
                   presence: [], you: null };
let pan = { x: 0, y: 0, zoom: 1 }, socket = null;
const pans = new Map();  // view -> the pan and zoom the user left it at

function applyPan() { picture.style.transform = `translate(${pan.x}px, ${pan.y}px) scale(${pan.zoom})`; }

function fit() {
  const svg = picture.querySelector("svg");
  if (!svg) return;
  const w = svg.width.baseVal.value, h = svg.height.baseVal.value;
  const z = Math.min(1, (canvas.clientWidth - 40) / w, (canvas.clientHeight - 60) / h);
  pan = { zoom: z > 0 ? z : 1, x: 0, y: 0 };
  pan.x = (canvas.clientWidth - w * pan.zoom) / 2;
  pan.y = Math.max(20, (canvas.clientHeight - h * pan.zoom) / 2);
  applyPan();
}
document.getElementById("fit").onclick = fit;

function show(text) { notice.textContent = text; notice.style.display = text ? "block" : "none"; }

function connect() {
  const params = [];
  if (picked) params.push(`view=${encodeURIComponent(picked)}`);
  if (token) params.push(`token=${encodeURIComponent(token)}`);
  if (myName) params.push(`name=${encodeURIComponent(myName)}`);
  const ws = new WebSocket(`ws://${location.host}/ws` + (params.length ? "?" + params.join("&") : ""));
  socket = ws;
  ws.onopen = () => { statusBox.textContent = "live"; statusBox.className = ""; window.preview.open = true; };
  ws.onclose = () => {
    window.preview.open = false;
    statusBox.textContent = "disconnected, retrying"; statusBox.className = "off";
    setTimeout(connect, 1000);
  };
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "frame") {
      showFrame(m);
    } else if (m.type === "stores") {
      listStores(m);
    } else if (m.type === "presence") {
      listPeople(m);
    } else if (m.type === "notice") {
      show(m.message);
    } else if (m.type === "error") {
      window.preview.errors.push(m.message);
      statusBox.textContent = m.message;
    } else if (m.type === "ok") {
      window.preview.replies += 1;
    }
  };
}

// Who is connected: one line each, the name and the store shown (names are text, never
// markup: textContent).
function listPeople(m) {
  window.preview.presence = m.pages;
  window.preview.you = m.you;
  document.getElementById("peopleCount").textContent = `${m.pages.length} connected`;
  const storeName = (view) => { const s = window.preview.stores.find((x) => x.view === view); return s ? s.name : ""; };
  document.getElementById("peopleList").replaceChildren(...m.pages.map((p) => {
    const li = document.createElement("li");
    const where = storeName(p.view);
    li.textContent = p.name + (p.page === m.you ? " (you)" : "") + (where ? ` · ${where}` : "");
    if (p.page === m.you) li.className = "you";
    return li;
  }));
}

function send(message) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); }

// The list of stores: "last changed" (following) first, then each store by its name.
function listStores(m) {
  window.preview.stores = m.stores;
  window.preview.latest = m.latest;
  if (picked && !m.stores.some((s) => String(s.view) === String(picked))) picked = null;  // gone
  const latest = m.stores.find((s) => s.view === m.latest);
  const texts = [[latest ? `last changed (${latest.name})` : "last changed", ""]];
  for (const s of m.stores) texts.push([`${s.name}: ${s.nodes} nodes, ${s.edges} edges`, String(s.view)]);
  // the same stores: new texts in place (an open list stays open)
  if (storeList.options.length === texts.length && texts.every(([, v], i) => storeList.options[i].value === v)) {
    texts.forEach(([t], i) => { if (storeList.options[i].text !== t) storeList.options[i].text = t; });
  } else {
    storeList.replaceChildren(...texts.map(([t, v]) => new Option(t, v)));
  }
  storeList.value = picked ? String(picked) : "";
  if (window.preview.you !== null) listPeople({ pages: window.preview.presence, you: window.preview.you });
}
storeList.onchange = () => {
  picked = storeList.value || null;
  send({ type: "view", view: picked ? Number(picked) : null });
};

// A new picture. Of another store: shown as it is, with the viewport the user left that
// store at (fitted the first time). Of the same store: nodes that moved glide from where
// they are drawn now (mid-glide too) to their new places, edges with them; the viewport
// stays where the user put it even when the picture's bounds change.
function showFrame(m) {
  const p = window.preview;
  const old = picture.querySelector("svg");
  const same = old && p.view === m.view;
  const from = same ? drawnNow() : null;
  const oldBox = same ? old.viewBox.baseVal : null;
  const oldX = oldBox ? oldBox.x : 0, oldY = oldBox ? oldBox.y : 0;
  if (p.view !== null && !same) pans.set(p.view, { ...pan });
  picture.innerHTML = m.svg;
  // the latency to the new picture in the page (the glide's set-up below lays it out,
  // which the browser does for painting anyway)
  p.latencies.push(Date.now() - m.changedAt);
  p.frames += 1;
  p.revision = m.revision;
  const svg = picture.querySelector("svg");
  if (same && svg) {
    const box = svg.viewBox.baseVal, k = box.width > 0 ? svg.width.baseVal.value / box.width : 1;
    pan.x += (box.x - oldX) * k * pan.zoom;
    pan.y += (box.y - oldY) * k * pan.zoom;
    applyPan();
    // a node the user drags here follows the pointer, no glide
    if (gesture && gesture.kind === "node") stopGlide(); else glide(from);
  } else {
    p.view = m.view;
    stopGlide();
    if (pans.has(m.view)) { pan = { ...pans.get(m.view) }; applyPan(); } else fit();
  }
}

// Gliding: each moved node is drawn offset from its new place by an offset that shrinks
// to nothing in GLIDE ms; each edge whose path has the same commands is drawn between its
// old and new path. A new picture mid-glide starts from what is drawn at that moment.
const GLIDE = 300;
let glideState = null;  // { start, nodes: Map(id -> [dx, dy]), edges: Map(id -> [from, to, words]) }

function ease(t) { return t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t); }
function nodeCenter(g) { const b = g.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; }
function pathWords(d) { return d.trim().split(/[\s,]+|(?=[A-Za-z])|(?<=[A-Za-z])/).filter((w) => w !== ""); }

// What is drawn now: node centers and edge paths (numbers), offsets of a glide included.
function drawnNow() {
  const nodes = new Map(), edges = new Map();
  const t = glideState ? ease(Math.min(1, (performance.now() - glideState.start) / GLIDE)) : 1;
  for (const g of picture.querySelectorAll('g[id^="node-"]')) {
    const [x, y] = nodeCenter(g), o = glideState && glideState.nodes.get(g.id);
    nodes.set(g.id, o ? [x + o[0] * (1 - t), y + o[1] * (1 - t)] : [x, y]);
  }
  for (const e of picture.querySelectorAll('path[id^="edge-"]')) {
    const o = glideState && glideState.edges.get(e.id);
    edges.set(e.id, o ? mix(o, t) : pathWords(e.getAttribute("d") || ""));
  }
  return { nodes, edges };
}

function mix([from, to], t) {
  return to.map((w, i) => (isNaN(w) ? w : String(+from[i] + (+w - +from[i]) * t)));
}

function glide(from) {
  const nodes = new Map(), edges = new Map();
  for (const g of picture.querySelectorAll('g[id^="node-"]')) {
    const before = from.nodes.get(g.id);
    if (!before) continue;
    const [x, y] = nodeCenter(g), dx = before[0] - x, dy = before[1] - y;
    if (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5) nodes.set(g.id, [dx, dy]);
  }
  if (nodes.size === 0) { stopGlide(); return; }
  for (const e of picture.querySelectorAll('path[id^="edge-"]')) {
    const before = from.edges.get(e.id), after = pathWords(e.getAttribute("d") || "");
    if (before && before.length === after.length && before.every((w, i) => isNaN(w) === isNaN(after[i]) && (!isNaN(w) || w === after[i])))
      edges.set(e.id, [before, after]);
  }
  const first = !glideState;
  glideState = { start: performance.now(), nodes, edges };
  window.preview.animations += 1;
  window.preview.animating = true;
  step();
  if (first) requestAnimationFrame(tick);
}

function step() {
  const t = ease(Math.min(1, (performance.now() - glideState.start) / GLIDE));
  for (const [id, [dx, dy]] of glideState.nodes) {
    const g = document.getElementById(id);
    if (g) g.style.transform = t >= 1 ? "" : `translate(${dx * (1 - t)}px, ${dy * (1 - t)}px)`;
  }
  for (const [id, words] of glideState.edges) {
    const e = document.getElementById(id);
    if (e) e.setAttribute("d", (t >= 1 ? words[1] : mix(words, t)).join(" "));
  }
  for (const l of picture.querySelectorAll("g.labels")) l.style.opacity = t >= 1 ? "" : String(t);
  return t >= 1;
}

function tick() {
  if (!glideState) return;
  if (step()) { glideState = null; window.preview.animating = false; window.preview.animated += 1; return; }
  requestAnimationFrame(tick);
}

function stopGlide() {
  if (!glideState) return;
  glideState = null;
  window.preview.animating = false;
}

// A client point in canvas coordinates (the SVG's view box is the canvas).
function canvasPoint(e) {
  const svg = picture.querySelector("svg");
  const r = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  return { x: vb.x + (e.clientX - r.left) / r.width * vb.width, y: vb.y + (e.clientY - r.top) / r.height * vb.height };
}

// One gesture at a time: a node (pointer input, sent to the store), an edge (a click
// selects it) or the background (pans here; a click clears the selection).
let gesture = null, pendingMove = null;
canvas.addEventListener("pointerdown", (e) => {
  if (e.button !== 0 || gesture) return;
  const node = e.target.closest && e.target.closest('g[id^="node-"]');
  const edge = e.target.closest && e.target.closest('[id^="edge-"]');
  gesture = { kind: node ? "node" : edge ? "edge" : "pan", x: e.clientX, y: e.clientY, moved: false,
              panX: pan.x, panY: pan.y, edge: edge ? edge.id.slice(5) : null, add: e.shiftKey || e.ctrlKey || e.metaKey };
  if (node) { const p = canvasPoint(e); send({ type: "pointer", phase: "down", x: p.x, y: p.y }); }
  if (gesture.kind === "pan") canvas.classList.add("panning");
  e.preventDefault();
});
window.addEventListener("pointermove", (e) => {
  if (!gesture) return;
  if (Math.abs(e.clientX - gesture.x) + Math.abs(e.clientY - gesture.y) > 2) gesture.moved = true;
  if (gesture.kind === "pan") {
    pan.x = gesture.panX + e.clientX - gesture.x; pan.y = gesture.panY + e.clientY - gesture.y; applyPan();
  } else if (gesture.kind === "node") {
    // at most one move per animation frame: the store sees the latest point
    const first = pendingMove === null;
    pendingMove = canvasPoint(e);
    if (first) requestAnimationFrame(() => {
      if (pendingMove) send({ type: "pointer", phase: "move", x: pendingMove.x, y: pendingMove.y });
      pendingMove = null;
    });
  }
});
window.addEventListener("pointerup", (e) => {
  if (!gesture) return;
  const g = gesture; gesture = null;
  canvas.classList.remove("panning");
  if (g.kind === "node") {
    if (pendingMove) { send({ type: "pointer", phase: "move", x: pendingMove.x, y: pendingMove.y }); pendingMove = null; }
    const p = canvasPoint(e);
    send({ type: "pointer", phase: "up", x: p.x, y: p.y });
  } else if (!g.moved && g.kind === "edge") {
    send({ type: "select", edge: g.edge, add: g.add });
  } else if (!g.moved) {
    send({ type: "clearSelection" });
  }
});
window.addEventListener("pointercancel", () => {
  if (gesture && gesture.kind === "node") send({ type: "pointer", phase: "cancel" });
  gesture = null; pendingMove = null;
});
// A double click on the background adds a node there; Delete (or Backspace) deletes the
// selection. Both are one change of the store, as at the prompt.
canvas.addEventListener("dblclick", (e) => {
  if (!picture.querySelector("svg") || (e.target.closest && e.target.closest('g[id^="node-"], [id^="edge-"]'))) return;
  const p = canvasPoint(e);
  send({ type: "add", x: p.x, y: p.y });
});
window.addEventListener("keydown", (e) => {
  if ((e.key === "Delete" || e.key === "Backspace") && e.target === document.body) { e.preventDefault(); send({ type: "delete" }); }
});
canvas.addEventListener("wheel", (e) => {
  e.preventDefault();
  const z = Math.min(8, Math.max(0.05, pan.zoom * Math.exp(-e.deltaY * 0.0015)));
  const r = canvas.getBoundingClientRect(), cx = e.clientX - r.left, cy = e.clientY - r.top;
  pan.x = cx - (cx - pan.x) * z / pan.zoom; pan.y = cy - (cy - pan.y) * z / pan.zoom; pan.zoom = z;
  applyPan();
}, { passive: false });
connect();
</script>
</body>
</html>
"""#
}
