/// The browser panel: one page, its style and its script, served as it is (no build step, no
/// files beside the binary, nothing fetched from elsewhere).
///
/// It draws what a `layout` message describes — a section per chain slot with its bypass
/// switch, a knob per continuous or integer parameter (the 270° arc with track, progress and
/// pointer), a switch per toggle, a list per enumeration — and keeps it in step with `values`
/// messages; a processor's outputs (meters, gain reduction) are bars at the top, kept in step
/// with `outputs` messages; a preset is loaded or saved by name. A knob turns by vertical drag (Shift, Ctrl or Alt, or moving sideways, for fine
/// control, without a jump when that changes), by the wheel, by the arrow keys; a double
/// click or double tap resets it to the Default preset's value; a tap on the value types one
/// with its unit ("1.2k", "-6 dB"), read on the server by the same parser as typed commands.
/// Positions go to the server, which maps them through the parameter's taper.
enum PanelPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Detent</title>
<style>
:root { --bg:#15171a; --panel:#1f2226; --track:#3a3f46; --fg:#e8e6e3; --dim:#9aa0a6; --accent:#f0a830; --bad:#e5534b; }
* { box-sizing:border-box; }
body { margin:0; background:var(--bg); color:var(--fg); font:14px/1.3 system-ui, sans-serif; -webkit-user-select:none; user-select:none; }
header { position:sticky; top:0; z-index:2; display:flex; align-items:center; gap:.6em; padding:.6em .8em; background:var(--panel); border-bottom:1px solid #000; }
header h1 { font-size:1.05em; margin:0; flex:1; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
#status { font-size:.85em; color:var(--dim); }
#status.lost { color:var(--bad); }
main { padding:.5em; }
section { background:var(--panel); border-radius:8px; margin:0 0 .6em; padding:.5em; }
section h2 { display:flex; align-items:center; gap:.5em; margin:0 0 .4em; font-size:.95em; font-weight:600; }
section h2 small { color:var(--dim); font-weight:400; flex:1; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
section.bypassed .grid { opacity:.45; }
section.down .grid { opacity:.35; }
section h2 .fault { color:var(--bad); font-size:.85em; font-weight:400; }
section h2 button.restart { font:inherit; font-size:.85em; padding:.1em .6em; cursor:pointer; }
.grid { display:grid; grid-template-columns:repeat(auto-fill, minmax(100px, 1fr)); gap:.4em; }
.ctl { display:flex; flex-direction:column; align-items:center; padding:.3em .2em; border-radius:6px; min-width:0; }
.ctl:focus-within, .ctl.turning { background:#262a30; }
.name { font-size:.8em; color:var(--dim); max-width:100%; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
.value { font-variant-numeric:tabular-nums; font-size:.9em; min-height:1.3em; cursor:text; padding:0 .3em; border-radius:3px; max-width:100%; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
.value:hover { background:#2c3036; }
.value input { width:6.5em; font:inherit; color:var(--fg); background:#000; border:1px solid var(--accent); border-radius:3px; text-align:center; }
svg.knob { width:72px; height:72px; touch-action:none; cursor:ns-resize; outline:none; }
svg.knob:focus .ring { stroke:var(--accent); stroke-width:1; }
.track { stroke:var(--track); }
.progress { stroke:var(--accent); }
.pointer { stroke:var(--fg); }
.track, .progress, .pointer { fill:none; stroke-width:7; stroke-linecap:round; }
.pointer { stroke-width:4; }
.ring { fill:none; stroke:none; }
.switch { position:relative; width:46px; height:26px; margin:.9em 0 .55em; }
.switch input { opacity:0; width:0; height:0; }
.switch span { position:absolute; inset:0; border-radius:13px; background:var(--track); cursor:pointer; transition:background .15s; }
.switch span::before { content:""; position:absolute; left:3px; top:3px; width:20px; height:20px; border-radius:50%; background:var(--fg); transition:transform .15s; }
.switch input:checked + span { background:var(--accent); }
.switch input:checked + span::before { transform:translateX(20px); }
.switch input:focus-visible + span { outline:2px solid var(--fg); }
h2 .switch { margin:0; }
h2 .power { display:inline-flex; align-items:center; gap:.4em; margin-left:auto; font-size:.8em; font-weight:normal; }
h2 .power .caption { min-width:5.5em; }
select { margin:1.2em 0 .7em; max-width:100%; font:inherit; color:var(--fg); background:#000; border:1px solid var(--track); border-radius:4px; padding:.2em; }
.meter { display:grid; grid-template-columns:minmax(5em, 30%) 1fr 5.5em; align-items:center; gap:.5em; font-size:.85em; margin:.15em 0; }
.meter .bar { height:8px; background:var(--track); border-radius:4px; overflow:hidden; }
.meter .bar div { height:100%; width:0; background:var(--accent); }
.meter .reading { text-align:right; font-variant-numeric:tabular-nums; }
.meter.number .bar { visibility:hidden; }
#presets { display:flex; gap:.4em; padding:.5em .5em 0; }
#presets input { flex:1; min-width:0; font:inherit; color:var(--fg); background:#000; border:1px solid var(--track); border-radius:4px; padding:.25em .4em; }
#presets button { font:inherit; color:var(--fg); background:var(--panel); border:1px solid var(--track); border-radius:4px; padding:.25em .7em; }
#learn { margin-left:auto; font:inherit; color:var(--fg); background:var(--panel); border:1px solid var(--track); border-radius:4px; padding:.15em .6em; }
#learn.on { background:var(--accent); color:#000; }
body.learning .name { outline:1px dashed var(--accent); cursor:pointer; }
#toast.info { background:var(--accent); color:#000; }
#toast { position:fixed; left:50%; bottom:1em; transform:translateX(-50%); max-width:90vw; background:var(--bad); color:#fff; padding:.5em .8em; border-radius:6px; display:none; z-index:6; }
\#(rigStyle)
</style>
</head>
<body>
<header><h1 id="title">Detent</h1><span id="status">connecting…</span><button id="learn" type="button" title="MIDI learn: then tap a parameter's name and turn a controller">Learn</button></header>
<form id="presets" autocomplete="off"><input id="preset" list="preset-names" placeholder="Preset name" aria-label="Preset name">
<datalist id="preset-names"></datalist>
<button type="submit" value="load">Load</button><button type="submit" value="save">Save</button></form>
\#(rigMarkup)
<main id="main"></main>
<div id="toast" role="alert"></div>
<script>
"use strict";
const token = new URLSearchParams(location.search).get("token");
const controls = new Map();   // id -> control
const meters = new Map();     // output id -> meter
let socket = null, generation = -1, retry = 500;
let faults = {};               // isolated slot -> what happened to it
const $ = (tag, cls) => { const e = document.createElement(tag); if (cls) e.className = cls; return e; };
const NS = "http://www.w3.org/2000/svg";
const svg = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); return e; };

function send(message) {
  if (socket && socket.readyState === 1) socket.send(JSON.stringify(message));
}
function toast(text, info) {
  const t = document.getElementById("toast");
  t.textContent = text; t.style.display = "block"; t.className = info ? "info" : "";
  clearTimeout(toast.timer); toast.timer = setTimeout(() => t.style.display = "none", 3000);
}
function status(text, lost) {
  const s = document.getElementById("status");
  s.textContent = text; s.className = lost ? "lost" : "";
}

// The 270° arc: position 0 at -135° from 12 o'clock, 1 at +135°.
const angle = p => (-135 + 270 * p) * Math.PI / 180;
const point = (p, r) => [50 + r * Math.sin(angle(p)), 50 - r * Math.cos(angle(p))];
function arc(p0, p1, r) {
  if (p1 < p0) [p0, p1] = [p1, p0];
  if (p1 - p0 < 1e-4) return "";
  const [x0, y0] = point(p0, r), [x1, y1] = point(p1, r);
  return `M${x0.toFixed(2)} ${y0.toFixed(2)} A${r} ${r} 0 ${(p1 - p0) * 270 > 180 ? 1 : 0} 1 ${x1.toFixed(2)} ${y1.toFixed(2)}`;
}

function valueLabel(c) {
  const v = $("div", "value");
  v.title = "Tap to type a value";
  v.addEventListener("click", () => {
    if (v.querySelector("input")) return;
    const input = $("input");
    input.value = c.text; input.setAttribute("aria-label", c.p.name);
    v.textContent = ""; v.append(input); input.focus(); input.select();
    const done = commit => {
      if (commit && input.value.trim() !== "") send({ type: "text", id: c.p.id, text: input.value });
      v.textContent = c.text;
    };
    input.addEventListener("keydown", e => { if (e.key === "Enter") done(true); else if (e.key === "Escape") done(false); });
    input.addEventListener("blur", () => done(false));
  });
  return v;
}

function knob(p) {
  const c = { p, position: p.position, text: p.text, dragging: false };
  const el = $("div", "ctl");
  const name = $("div", "name"); name.textContent = p.name; name.title = p.id;
  const s = svg("svg", { class: "knob", viewBox: "0 0 100 100", tabindex: "0", role: "slider", "aria-label": p.name });
  s.append(svg("circle", { class: "ring", cx: 50, cy: 50, r: 47 }));
  const track = svg("path", { class: "track", d: arc(0, 1, 38) });
  const progress = svg("path", { class: "progress" });
  const pointer = svg("line", { class: "pointer" });
  s.append(track, progress, pointer);
  const value = valueLabel(c);
  el.append(name, s, value);
  c.el = el;
  c.draw = () => {
    const origin = p.bipolar ? (0 - p.min) / (p.max - p.min) : 0;
    progress.setAttribute("d", arc(p.bipolar ? Math.min(Math.max(origin, 0), 1) : 0, c.position, 38));
    const [x0, y0] = point(c.position, 14), [x1, y1] = point(c.position, 34);
    pointer.setAttribute("x1", x0); pointer.setAttribute("y1", y0); pointer.setAttribute("x2", x1); pointer.setAttribute("y2", y1);
    if (!value.querySelector("input")) value.textContent = c.text;
    s.setAttribute("aria-valuetext", c.text);
  };
  // The host answers each position sent with the value it set, and those answers may arrive
  // after the drag that sent them has ended: until the answer to the last one sent arrives (or
  // 400 ms pass), an older one is held back, so that the knob does not step back to where it
  // was a moment ago — nor does the next drag start from there.
  let sent = null, held = null, holding = 0;
  const release = () => { sent = null; const v = held; held = null; if (v) c.update(v); };
  c.update = v => {
    if (sent !== null) {
      if (Math.abs(v.position - sent) > 1e-6) { held = v; return; }
      sent = null; held = null; clearTimeout(holding);
    }
    if (!c.dragging) c.position = v.position;
    c.text = v.text; c.draw();
  };
  // Positions are sent at most once per frame; the latest one wins.
  let pending = null;
  const move = position => {
    c.position = Math.min(Math.max(position, 0), 1); c.draw();
    if (pending === null) requestAnimationFrame(() => {
      send({ type: "position", id: p.id, position: pending });
      sent = pending; pending = null; clearTimeout(holding); holding = setTimeout(release, 400);
    });
    pending = c.position;
  };
  const stepped = p.kind === "integer";
  const nudge = (fraction, steps) => {
    if (stepped) send({ type: "value", id: p.id, value: Math.min(Math.max(Math.round(c.value ?? p.default) + steps, p.min), p.max) });
    else move(c.position + fraction);
  };
  c.set = v => { c.value = v.value; };
  // Vertical drag: 200 px for the whole range; a modifier or moving sideways makes it finer.
  // Each move adds to where the knob is, so a change of speed never makes it jump.
  let lastY = 0, startX = 0, moved = 0, lastUp = 0;
  s.addEventListener("pointerdown", e => {
    s.setPointerCapture(e.pointerId); s.focus();
    c.dragging = true; el.classList.add("turning"); lastY = e.clientY; startX = e.clientX; moved = 0;
    e.preventDefault();
  });
  s.addEventListener("pointermove", e => {
    if (!c.dragging) return;
    const dy = lastY - e.clientY; lastY = e.clientY; moved += Math.abs(dy);
    const sideways = Math.max(0, Math.abs(e.clientX - startX) - 40);
    const scale = (e.shiftKey || e.ctrlKey || e.altKey ? 0.1 : 1) * Math.max(0.1, 1 - sideways / 200);
    if (dy !== 0) move(c.position + dy / 200 * scale);
  });
  const end = e => {
    if (!c.dragging) return;
    c.dragging = false; el.classList.remove("turning");
    const now = e.timeStamp;
    if (moved < 3 && now - lastUp < 300) { send({ type: "reset", id: p.id }); lastUp = 0; } else lastUp = moved < 3 ? now : 0;
  };
  s.addEventListener("pointerup", end);
  s.addEventListener("pointercancel", end);
  s.addEventListener("wheel", e => {
    e.preventDefault();
    const fine = e.shiftKey || e.ctrlKey || e.altKey;
    nudge((e.deltaY < 0 ? 1 : -1) * (fine ? 0.001 : 0.01), e.deltaY < 0 ? 1 : -1);
  }, { passive: false });
  s.addEventListener("keydown", e => {
    const fine = e.shiftKey || e.ctrlKey || e.altKey ? 0.1 : 1;
    const keys = { ArrowUp: [0.01 * fine, 1], ArrowRight: [0.01 * fine, 1], ArrowDown: [-0.01 * fine, -1], ArrowLeft: [-0.01 * fine, -1],
                   PageUp: [0.1, 10], PageDown: [-0.1, -10] };
    if (keys[e.key]) nudge(...keys[e.key]);
    else if (e.key === "Home") move(0);
    else if (e.key === "End") move(1);
    else if (e.key === "Enter") value.click();
    else if (e.key === "Delete" || e.key === "Backspace") send({ type: "reset", id: p.id });
    else return;
    e.preventDefault();
  });
  c.set(p); c.draw();
  return c;
}

// A switch; `power` makes it a slot's power switch over its bypass row: lit while the slot
// plays (bypass off), like the power switch of a pedal, and captioned.
function toggle(p, inHeading, power) {
  const c = { p, text: p.text };
  const label = $("label", "switch");
  const input = $("input"); input.type = "checkbox"; input.setAttribute("aria-label", p.name);
  const track = $("span");
  label.append(input, track);
  const lit = v => power ? !(v.value > p.min) : v.value > p.min;
  input.addEventListener("change", () => send({ type: "value", id: p.id, value: input.checked !== !!power ? p.max : p.min }));
  let el = label, value = null;
  if (!inHeading) {
    el = $("div", "ctl");
    const name = $("div", "name"); name.textContent = p.name; name.title = p.id;
    value = $("div", "value");
    el.append(name, label, value);
  }
  let caption = null;
  if (power) {
    el = $("span", "power");
    caption = $("span", "caption");
    el.append(label, caption);
  }
  c.el = el;
  c.update = v => {
    input.checked = lit(v); c.text = v.text;
    if (value) value.textContent = v.text;
    if (caption) caption.textContent = el.closest("section.down") ? "down" : lit(v) ? "on" : "bypassed";
    if (c.onchange) c.onchange(v);
  };
  c.update(p);
  return c;
}

function list(p) {
  const c = { p };
  const el = $("div", "ctl");
  const name = $("div", "name"); name.textContent = p.name; name.title = p.id;
  const select = $("select"); select.setAttribute("aria-label", p.name);
  for (const o of p.options) { const opt = $("option"); opt.value = o.value; opt.textContent = o.label; select.append(opt); }
  select.addEventListener("change", () => send({ type: "value", id: p.id, value: Number(select.value) }));
  el.append(name, select);
  c.el = el;
  c.update = v => { select.value = String(v.value); };
  c.update(p);
  return c;
}

function layout(m) {
  generation = m.generation;
  document.getElementById("title").textContent = m.title;
  document.title = m.title + " — Detent";
  const main = document.getElementById("main");
  main.textContent = ""; controls.clear(); meters.clear();
  if (m.outputs && m.outputs.length) {
    const el = $("section"), h = $("h2"); h.textContent = "Outputs"; el.append(h);
    for (const o of m.outputs) {
      const row = $("div", "meter"), name = $("span", "name"), bar = $("div", "bar"), fill = $("div"), reading = $("span", "reading");
      // In a chain, each meter says whose it is; a latency is a number of frames, not a level.
      const dot = o.id.lastIndexOf("."), slot = dot > 0 ? o.id.slice(0, dot) : "";
      name.textContent = slot ? slot + " · " + o.name : o.name; name.title = o.id;
      if (/^latency$/i.test(o.id.slice(dot + 1))) row.classList.add("number");
      bar.append(fill); row.append(name, bar, reading); row.dataset.id = o.id;
      meters.set(o.id, { o, fill, reading }); el.append(row);
    }
    main.append(el);
  }
  for (const section of m.sections) {
    const el = $("section"), grid = $("div", "grid");
    el.dataset.slot = section.name;
    const files = (m.files || []).filter(f => section.name === "" || f.id.startsWith(section.name + "."));
    if (section.name !== "" || section.bypass) {
      const h = $("h2"); h.textContent = section.name;
      const small = $("small"); small.textContent = section.plugin || ""; h.append(small);
      if (section.bypass) {
        const b = toggle(section.bypass, true, true);
        b.el.title = section.name + ": on, or bypassed (its input passes)"; b.el.dataset.id = section.bypass.id;
        b.onchange = v => el.classList.toggle("bypassed", v.value > section.bypass.min);
        b.onchange(section.bypass);
        controls.set(section.bypass.id, b); h.append(b.el);
      }
      el.append(h);
    }
    for (const f of files) el.append(fileRow(f));
    for (const p of section.parameters) {
      const c = p.kind === "toggle" ? toggle(p) : p.kind === "enumeration" ? list(p) : knob(p);
      c.el.dataset.id = p.id;
      controls.set(p.id, c); grid.append(c.el);
    }
    el.append(grid); main.append(el);
  }
  showFaults();
}

// An isolated slot that crashed or hung: its section says what happened, dimmed (its input
// passes), with a button that starts it again.
function showFaults() {
  for (const el of document.querySelectorAll("section[data-slot]")) {
    const name = el.dataset.slot, h = el.querySelector("h2"), why = faults[name];
    el.classList.toggle("down", why !== undefined);
    // The power switch says so too: a slot that is down is neither on nor bypassed.
    const caption = el.querySelector(".power .caption"), power = el.querySelector(".power input");
    if (caption && power) caption.textContent = why !== undefined ? "down" : power.checked ? "on" : "bypassed";
    if (!h) continue;
    for (const old of h.querySelectorAll(".fault, .restart")) old.remove();
    if (why === undefined) continue;
    const note = $("span", "fault"); note.textContent = why + " — its input passes";
    const button = $("button", "restart"); button.type = "button"; button.textContent = "Restart";
    button.title = "start " + name + " again";
    button.addEventListener("click", () => send({ type: "restart", slot: name }));
    h.append(note, button);
  }
}

function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + (token ? "?token=" + encodeURIComponent(token) : "");
  socket = new WebSocket(url);
  socket.onopen = () => { status("connected", false); retry = 500; };
  socket.onmessage = e => {
    const m = JSON.parse(e.data);
    if (m.type === "layout") { rig = m; layout(m); drawRig(); }
    else if (m.type === "values" && m.generation === generation) {
      for (const v of m.values) { const c = controls.get(v.id); if (c) { if (c.set) c.set(v); c.update(v); } }
      // A slot switched on or off: the rig shows it.
      if (rig && m.values.some(v => rig.sections.some(s => s.bypass && s.bypass.id === v.id))) drawRig();
    } else if (m.type === "access") { canEdit = m.edit; document.body.classList.toggle("editing", canEdit); drawRig(); }
    else if (m.type === "answer") toast(m.text, true);
    else if (m.type === "catalogue") { plugins = m.plugins; listPlugins(); }
    else if (m.type === "outputs") {
      const latencies = m.values.filter(v => /(^|\.)latency$/.test(v.id)).map(v => v.id + "=" + v.value).join();
      if (latencies !== lastLatencies) { lastLatencies = latencies; setTimeout(drawRig); }
      for (const v of m.values) {
        const meter = meters.get(v.id); if (!meter) continue;
        const { o, fill, reading } = meter;
        const lo = o.min ?? 0, hi = o.max ?? 1;
        const share = v.value === null ? 0 : Math.min(Math.max((v.value - lo) / (hi - lo || 1), 0), 1);
        fill.style.width = (share * 100).toFixed(1) + "%";
        reading.textContent = v.value === null ? "−∞" + (o.unit ? " " + o.unit : "")
          : Number(v.value.toPrecision(3)) + (o.unit ? " " + o.unit : "");
      }
    } else if (m.type === "learnt") {
      const label = document.querySelector('[data-id="' + CSS.escape(m.id) + '"] .name');
      learning(false);
      toast((label ? label.textContent : m.id) + ": MIDI CC " + m.controller, true);
    } else if (m.type === "presets") {
      const list = document.getElementById("preset-names");
      list.replaceChildren(...m.names.map(n => { const o = $("option"); o.value = n; return o; }));
    } else if (m.type === "faults") { faults = m.faults; showFaults(); drawRig(); }
    else if (m.type === "error") toast(m.message);
  };
  socket.onclose = () => {
    status("connection lost — reconnecting…", true);
    setTimeout(connect, retry); retry = Math.min(retry * 2, 4000);
  };
}
// MIDI learn: the Learn button, then a tap on a parameter's name; the next controller turned
// on the MIDI input turns it. The button again (or Escape) stops.
function learning(on) {
  document.body.classList.toggle("learning", on);
  document.getElementById("learn").classList.toggle("on", on);
}
document.getElementById("learn").addEventListener("click", () => {
  const on = !document.body.classList.contains("learning");
  learning(on);
  if (!on) send({ type: "learn" });
});
document.addEventListener("keydown", e => {
  if (e.key === "Escape" && document.body.classList.contains("learning")) { learning(false); send({ type: "learn" }); }
});
document.getElementById("main").addEventListener("click", e => {
  if (!document.body.classList.contains("learning")) return;
  const name = e.target.closest(".name"), control = e.target.closest("[data-id]");
  if (!name || !control) return;
  e.preventDefault(); e.stopPropagation();
  send({ type: "learn", id: control.dataset.id });
  toast("Turn a MIDI controller for " + name.textContent, true);
}, true);
document.getElementById("presets").addEventListener("submit", e => {
  e.preventDefault();
  const name = document.getElementById("preset").value.trim();
  if (name !== "") send({ type: "preset", action: e.submitter && e.submitter.value === "save" ? "save" : "load", name });
});
let lastLatencies = "";
\#(rigScript)
connect();
</script>
</body>
</html>
"""#
}
