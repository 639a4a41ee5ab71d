/// The page every browser gets at `/`: plain HTML and JavaScript, no build step. It shows
/// the latest frame of its view (`?view=N`), pans (drag the background) and zooms (wheel)
/// by itself, and sends clicks and node drags to the store (docs/preview.md).
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
  button { font: inherit; }
</style>
</head>
<body>
<div id="canvas"><div id="picture"></div></div>
<div id="notice"></div>
<div id="bar"><span id="status" class="off">connecting</span><button id="fit" title="fit the picture in the window">fit</button></div>
<script>
"use strict";
const picture = document.getElementById("picture");
const canvas = document.getElementById("canvas");
const statusBox = document.getElementById("status");
const notice = document.getElementById("notice");
const query = new URLSearchParams(location.search);
const view = query.get("view") || "1";
// the server's token (an address beyond loopback has one): the WebSocket needs it too
const token = query.get("token");
// What tests and curious users read: frames seen, change-to-page latencies (ms), replies.
window.preview = { frames: 0, revision: 0, latencies: [], errors: [], replies: 0, open: false };
let pan = { x: 0, y: 0, zoom: 1 }, fitted = false, socket = null;

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
  const ws = new WebSocket(`ws://${location.host}/ws?view=${encodeURIComponent(view)}` +
                           (token ? `&token=${encodeURIComponent(token)}` : ""));
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
      picture.innerHTML = m.svg;
      window.preview.frames += 1;
      window.preview.revision = m.revision;
      window.preview.latencies.push(Date.now() - m.changedAt);
      if (!fitted) { fitted = true; fit(); }
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

function send(message) { if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); }

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
