/// The page's rig: the chain or graph drawn (a row of slots; a graph's slots in columns by how
/// far from the input they are, with its connections; on a narrow screen a list of "FROM →
/// TO"), each slot's state on it, and — on a page that may change the rig (`access`) — the
/// catalogue to add from, and a slot's rename, move and removal, a graph's connect and
/// disconnect, a file parameter's path. Every edit is the typed `chain` command's, answered
/// with its line; every open page redraws from the `layout` the edit makes.
extension PanelPage {
    static let rigStyle = #"""
#rig { background:var(--panel); border-radius:8px; margin:.5em .5em 0; padding:.5em; }
#rig h2 { display:flex; align-items:center; gap:.5em; margin:0 0 .4em; font-size:.95em; }
#rig h2 span { flex:1; }
#rig button, .overlay button, .file button { font:inherit; color:var(--fg); background:#2a2e34; border:1px solid var(--track); border-radius:4px; padding:.15em .6em; cursor:pointer; }
#rig button.danger { color:var(--bad); }
.line { display:flex; flex-wrap:wrap; align-items:center; gap:.3em; }
.end { color:var(--dim); font-size:.85em; }
.arrow { color:var(--dim); }
.slot { display:inline-flex; flex-direction:column; border:1px solid var(--track); border-radius:6px; padding:.25em .5em; min-width:6em; background:#262a30; }
.slot .label { font-weight:600; cursor:pointer; }
.slot small { color:var(--dim); max-width:12em; overflow:hidden; text-overflow:ellipsis; white-space:nowrap; }
.slot .state { font-size:.75em; color:var(--dim); }
.slot.bypassed { opacity:.6; }
.slot.down { border-color:var(--bad); }
.slot.down .state { color:var(--bad); }
.slot .tools { display:flex; gap:.2em; margin-top:.2em; }
.slot .tools button { padding:0 .4em; font-size:.8em; }
svg.graph { display:block; max-width:100%; height:auto; }
svg.graph rect { fill:#262a30; stroke:var(--track); }
svg.graph g.down rect { stroke:var(--bad); }
svg.graph g.bypassed { opacity:.6; }
svg.graph g.node { cursor:pointer; }
svg.graph text { fill:var(--fg); font:12px system-ui, sans-serif; }
svg.graph text.sub { fill:var(--dim); font-size:10px; }
svg.graph path { fill:none; stroke:var(--dim); stroke-width:1.5; }
svg.graph path.side { stroke-dasharray:4 3; stroke:var(--accent); }
ul.wires { list-style:none; margin:.4em 0 0; padding:0; font-size:.9em; }
ul.wires li { display:flex; align-items:center; gap:.5em; padding:.1em 0; }
ul.wires li span { flex:1; }
@media (max-width:560px) { svg.graph { display:none; } }
@media (min-width:561px) { ul.wires.drawn { display:none; } body.editing ul.wires.drawn { display:block; } }
.wireform { display:flex; flex-wrap:wrap; align-items:center; gap:.3em; margin-top:.4em; }
.wireform select, .overlay select { margin:0; }
.wireform input, .wireform select, .overlay input, .overlay select, .file input { font:inherit; color:var(--fg); background:#000; border:1px solid var(--track); border-radius:4px; padding:.2em .4em; min-width:0; }
.overlay { position:fixed; inset:0; z-index:5; background:rgba(0,0,0,.6); display:none; }
.overlay.open { display:block; }
.overlay .box { position:absolute; left:50%; top:5vh; transform:translateX(-50%); width:min(720px, 96vw); max-height:90vh; display:flex; flex-direction:column; background:var(--panel); border-radius:8px; padding:.6em; gap:.4em; }
.overlay .bar { display:flex; gap:.4em; align-items:center; }
.overlay .bar input { flex:1; }
.overlay ul { list-style:none; margin:0; padding:0; overflow-y:auto; flex:1; }
.overlay li { padding:.35em .3em; border-bottom:1px solid #000; cursor:pointer; }
.overlay li:hover, .overlay li.chosen { background:#2c3036; }
.overlay li b { font-weight:600; }
.overlay li small { color:var(--dim); display:block; }
.overlay .place { display:flex; flex-wrap:wrap; gap:.4em; align-items:center; }
@media (max-width:560px) { .overlay .box { top:0; left:0; transform:none; width:100vw; height:100vh; max-height:none; border-radius:0; } }
.file { display:flex; flex-wrap:wrap; align-items:center; gap:.4em; margin:.3em 0 .1em; font-size:.85em; }
.file .path { color:var(--dim); overflow:hidden; text-overflow:ellipsis; white-space:nowrap; max-width:60%; }
.file input { flex:1; min-width:8em; }
"""#

    static let rigScript = #"""
// The rig: drawn from the last layout, with each slot's state; edits where access allows.
let rig = null, canEdit = false, plugins = null, chosen = null;
const nodeOf = end => end.split(":")[0];
function slotState(name) {
  if (faults[name] !== undefined) return "down";
  const s = rig && rig.sections.find(x => x.name === name);
  const power = s && s.bypass && document.querySelector('[data-id="' + CSS.escape(s.bypass.id) + '"] input');
  return power && !power.checked ? "bypassed" : "playing";
}
// A slot's latency meter's reading ("" for the whole rig's).
function latencyOf(name) {
  const m = meters.get(name ? name + ".latency" : "latency");
  return m && m.reading.textContent ? m.reading.textContent : "";
}
function edit(message) { send(Object.assign({ type: "chain" }, message)); }
function openSlot(name) {
  const el = document.querySelector('section[data-slot="' + CSS.escape(name) + '"]');
  if (el) { el.scrollIntoView({ behavior: "smooth", block: "start" }); const k = el.querySelector("svg.knob, input, select"); if (k) k.focus({ preventScroll: true }); }
}
function renameSlot(name) {
  const to = prompt("New name for " + name + " (letters, digits, _ and -)", name);
  if (to && to.trim() && to.trim() !== name) edit({ action: "rename", slot: name, name: to.trim() });
}
function slotChip(section, index, count, graph) {
  const chip = $("div", "slot " + slotState(section.name));
  chip.dataset.slot = section.name;
  const label = $("span", "label"); label.textContent = section.name; label.title = "show " + section.name + "'s knobs";
  label.addEventListener("click", () => openSlot(section.name));
  const plugin = $("small"); plugin.textContent = section.plugin; plugin.title = section.plugin;
  const state = $("span", "state"); const l = latencyOf(section.name);
  state.textContent = slotState(section.name) + (l && l !== "0 frames" && l !== "0" ? " · " + l : "");
  chip.append(label, plugin, state);
  if (canEdit) {
    const tools = $("div", "tools");
    const tool = (text, title, action, cls) => { const b = $("button", cls); b.type = "button"; b.textContent = text; b.title = title; b.addEventListener("click", action); tools.append(b); };
    if (!graph && index > 0) tool("◀", "move " + section.name + " earlier", () => edit({ action: "move", slot: section.name, position: index }));
    if (!graph && index < count - 1) tool("▶", "move " + section.name + " later", () => edit({ action: "move", slot: section.name, position: index + 2 }));
    tool("✎", "rename " + section.name, () => renameSlot(section.name));
    if (count > 1) tool("✕", "remove " + section.name, () => { if (confirm("Remove " + section.name + "?")) edit({ action: "remove", slot: section.name }); }, "danger");
    chip.append(tools);
  }
  return chip;
}
// A graph's nodes in columns: each a step further than its furthest source.
function graphColumns(m) {
  const slots = m.sections.map(s => s.name), wires = m.connections.map(w => { const i = w.indexOf(">"); return { from: w.slice(0, i), to: w.slice(i + 1) }; });
  const inputs = [...new Set(wires.map(w => w.from).filter(f => !slots.includes(f)))];
  const column = new Map(inputs.map(i => [i, 0]));
  for (const s of slots) column.set(s, 1 + Math.max(0, ...wires.filter(w => nodeOf(w.to) === s && column.has(w.from)).map(w => column.get(w.from))));
  column.set("output", 1 + Math.max(0, ...slots.map(s => column.get(s))));
  return { slots, wires, inputs, column };
}
// The drawing: columns of nodes, a connection that skips columns passing through a place of
// its own in each (so no line crosses a box), each column ordered by where its sources are.
function drawGraph(m, box) {
  const { slots, wires, inputs, column } = graphColumns(m);
  const nodes = [...inputs, ...slots, "output"], cols = Math.max(...nodes.map(n => column.get(n))) + 1;
  const entries = Array.from({ length: cols }, () => []), entryOf = new Map(), before = new Map();
  for (const n of nodes) { const e = { node: n }; entries[column.get(n)].push(e); entryOf.set(n, e); before.set(e, []); }
  const routes = wires.map(w => {
    const path = [entryOf.get(w.from)];
    for (let c = column.get(w.from) + 1; c < column.get(nodeOf(w.to)); c++) { const e = { via: w }; entries[c].push(e); before.set(e, []); path.push(e); }
    path.push(entryOf.get(nodeOf(w.to)));
    for (let i = 1; i < path.length; i++) before.get(path[i]).push(path[i - 1]);
    return { w, path };
  });
  const row = new Map();
  entries[0].forEach((e, r) => row.set(e, r));
  for (let c = 1; c < cols; c++) {
    const centre = (e, i) => { const p = before.get(e); return p.length ? p.reduce((a, x) => a + row.get(x), 0) / p.length : i; };
    entries[c] = entries[c].map((e, i) => [e, centre(e, i), i]).sort((a, b) => a[1] - b[1] || a[2] - b[2]).map(x => x[0]);
    entries[c].forEach((e, r) => row.set(e, r));
  }
  const W = 140, H = 52, bw = 108, bh = 36, height = Math.max(...entries.map(c => c.length)) * H + 8;
  const s = svg("svg", { class: "graph", viewBox: `0 0 ${cols * W} ${height}`, width: cols * W, height, role: "img", "aria-label": "the graph's slots and connections" });
  const x = e => 8 + column.get(e.node) * W, y = e => 6 + row.get(e) * H;
  for (const { w, path } of routes) {
    const side = w.to.endsWith(":sidechain");
    // Points: out of the source's right side, across each column passed, into the target.
    const points = [[x(path[0]) + bw, y(path[0]) + bh / 2]];
    path.slice(1, -1).forEach((e, i) => { const left = 8 + (column.get(w.from) + 1 + i) * W; points.push([left, y(e) + bh / 2], [left + bw, y(e) + bh / 2]); });
    const last = path[path.length - 1];
    points.push([x(last), y(last) + (side ? bh - 7 : bh / 2)]);
    let d = `M${points[0][0]} ${points[0][1]}`;
    for (let i = 1; i < points.length; i++) {
      const [x0, y0] = points[i - 1], [x1, y1] = points[i], mid = (x0 + x1) / 2;
      d += i % 2 ? ` C${mid} ${y0} ${mid} ${y1} ${x1} ${y1}` : ` L${x1} ${y1}`;
    }
    const p = svg("path", { d, class: side ? "side" : "" });
    const t = svg("title", {}); t.textContent = w.from + " → " + w.to; p.append(t); s.append(p);
  }
  for (const n of nodes) {
    const e = entryOf.get(n), isSlot = slots.includes(n), g = svg("g", { class: "node " + (isSlot ? slotState(n) : "end"), "data-node": n });
    g.append(svg("rect", { x: x(e), y: y(e), width: bw, height: bh, rx: 6 }));
    const t = svg("text", { x: x(e) + 8, y: y(e) + 15 }); t.textContent = n.length > 15 ? n.slice(0, 14) + "…" : n; g.append(t);
    const sub = svg("text", { x: x(e) + 8, y: y(e) + 29, class: "sub" });
    const section = m.sections.find(x => x.name === n);
    sub.textContent = (isSlot ? (slotState(n) === "playing" ? section.plugin : slotState(n)) : n === "output" ? "to the outputs" : "an input").slice(0, 19);
    g.append(sub);
    if (isSlot) g.addEventListener("click", () => openSlot(n));
    s.append(g);
  }
  box.append(s);
}
function wireList(m, box, drawn) {
  const list = $("ul", "wires" + (drawn ? " drawn" : ""));
  for (const word of m.connections) {
    const li = $("li"), i = word.indexOf(">"), text = $("span");
    text.textContent = word.slice(0, i) + " → " + word.slice(i + 1); li.append(text);
    if (canEdit) {
      const b = $("button", "danger"); b.type = "button"; b.textContent = "✕"; b.title = "disconnect " + text.textContent;
      b.addEventListener("click", () => edit({ action: "disconnect", from: word.slice(0, i), to: word.slice(i + 1) }));
      li.append(b);
    }
    list.append(li);
  }
  box.append(list);
}
function options(select, values) { select.replaceChildren(...values.map(v => { const o = $("option"); o.value = v; o.textContent = v; return o; })); return select; }
// Connects FROM → TO; on a chain (no connections yet) the edit makes it its line's graph.
function connectForm(m, box) {
  const { slots, inputs } = m.connections ? graphColumns(m) : { slots: m.sections.map(s => s.name), inputs: ["input"] };
  const form = $("form", "wireform"), from = $("input"), to = $("select"), go = $("button");
  from.setAttribute("list", "wire-sources"); from.placeholder = "from (slot or input)"; from.title = "a slot, input, a named input or a new input's name"; from.setAttribute("aria-label", "connect from");
  const sources = $("datalist"); sources.id = "wire-sources"; options(sources, ["input", ...inputs.filter(i => i !== "input"), ...slots]);
  to.setAttribute("aria-label", "connect to"); options(to, [...slots, ...slots.map(s => s + ":sidechain"), "output"]);
  go.type = "submit"; go.textContent = "Connect";
  form.append(from, sources, $("span", "arrow"), to, go); form.children[2].textContent = "→";
  form.addEventListener("submit", e => { e.preventDefault(); if (from.value.trim()) edit({ action: "connect", from: from.value.trim(), to: to.value }); });
  box.append(form);
}
function drawRig() {
  const box = document.getElementById("rig");
  box.textContent = "";
  box.style.display = rig || canEdit ? "" : "none";
  const h = $("h2"), title = $("span"), total = latencyOf("");
  title.textContent = (rig && rig.connections ? "Graph" : "Chain") + (total && !/^0( |$)/.test(total) ? " · latency " + total : "");
  h.append(title);
  if (canEdit) {
    const add = $("button"); add.type = "button"; add.id = "add"; add.textContent = "Add plug-in…";
    add.addEventListener("click", openCatalogue); h.append(add);
  }
  box.append(h);
  if (!rig) return;
  const count = rig.sections.length;
  if (rig.connections) {
    drawGraph(rig, box);
    wireList(rig, box, true);
    if (canEdit) connectForm(rig, box);
    const tools = $("div", "line");
    if (canEdit) rig.sections.forEach((s, i) => tools.append(slotChip(s, i, count, true)));
    box.append(tools);
  } else if (count) {
    const line = $("div", "line");
    const end = t => { const e = $("span", "end"); e.textContent = t; return e; };
    const arrow = () => { const a = $("span", "arrow"); a.textContent = "→"; return a; };
    line.append(end("input"));
    // A processor alone (one untitled section) is no slot yet: named, with nothing to move.
    if (count === 1 && rig.sections[0].name === "") { const alone = $("span", "label"); alone.textContent = rig.title; line.append(arrow(), alone); }
    else rig.sections.forEach((s, i) => line.append(arrow(), slotChip(s, i, count, false)));
    line.append(arrow(), end("output"));
    box.append(line);
    if (canEdit && rig.sections[0].name !== "") connectForm(rig, box);
  }
}
// A file parameter in its slot's section: the file chosen, and a path to load.
function fileRow(f) {
  const row = $("div", "file"); row.dataset.file = f.id;
  const name = $("span", "name"); name.textContent = f.name; name.title = f.id;
  const path = $("span", "path"); path.textContent = f.path || "none chosen"; path.title = f.path || "";
  row.append(name, path);
  if (canEdit) {
    const form = $("form"), input = $("input"), go = $("button");
    form.style.display = "contents";
    input.placeholder = "/path/to/file.wav"; input.setAttribute("aria-label", f.name + ": a file's path");
    go.type = "submit"; go.textContent = "Load";
    form.append(input, go);
    form.addEventListener("submit", e => { e.preventDefault(); if (input.value.trim()) send({ type: "file", id: f.id, path: input.value.trim() }); });
    row.append(form);
  }
  return row;
}
// The catalogue: every plug-in that can be added, searched by name, maker, category and format.
function openCatalogue() {
  document.getElementById("catalogue").classList.add("open");
  document.getElementById("search").focus();
  if (plugins === null) { plugins = []; document.getElementById("found").textContent = "reading the installed plug-ins…"; send({ type: "catalogue" }); }
  else listPlugins();
}
function closeCatalogue() { document.getElementById("catalogue").classList.remove("open"); chosen = null; }
function listPlugins() {
  const words = document.getElementById("search").value.toLowerCase().split(/\s+/).filter(Boolean);
  const list = document.getElementById("plugins");
  const found = plugins.filter(p => { const text = (p.name + " " + p.maker + " " + p.category + " " + p.format + " " + p.identifier).toLowerCase(); return words.every(w => text.includes(w)); });
  list.replaceChildren(...found.slice(0, 200).map(p => {
    const li = $("li"); li.dataset.identifier = p.identifier;
    const b = $("b"); b.textContent = p.name;
    const small = $("small");
    small.textContent = [p.format, p.category, p.maker, p.instrument ? "instrument" : p.inputs + p.outputs === 0 ? "any channels" : p.inputs + "→" + p.outputs + " channels"].filter(Boolean).join(" · ");
    li.append(b, small);
    li.addEventListener("click", () => choose(p, li));
    return li;
  }));
  document.getElementById("found").textContent = found.length + " plug-in" + (found.length === 1 ? "" : "s") + (found.length > 200 ? " (the first 200 shown: search to narrow)" : "");
}
function choose(p, li) {
  chosen = p;
  for (const x of document.querySelectorAll("#plugins li.chosen")) x.classList.remove("chosen");
  li.classList.add("chosen");
  const where = document.getElementById("where"), name = document.getElementById("slotname");
  name.placeholder = "slot name (optional)";
  const places = [];
  if (rig && rig.connections) {
    for (const w of rig.connections) places.push(["on " + w.replace(">", " → "), JSON.stringify({ on: w })]);
    const { slots, inputs } = graphColumns(rig);
    for (const from of [...inputs, ...slots]) for (const to of [...slots, "output"]) if (from !== to) places.push(["new branch " + from + " → " + to, JSON.stringify({ branch: [from, to] })]);
  } else {
    places.push(["at the end", JSON.stringify({ position: null })]);
    (rig ? rig.sections : []).forEach((s, i) => places.push([i === 0 ? "first" : "after " + rig.sections[i - 1].name, JSON.stringify({ position: i + 1 })]));
  }
  where.replaceChildren(...places.map(([text, value]) => { const o = $("option"); o.textContent = text; o.value = value; return o; }));
  document.getElementById("place").style.display = "";
  document.getElementById("chosen").textContent = p.name + " (" + p.format + ")";
}
function addChosen() {
  if (!chosen) return;
  const place = JSON.parse(document.getElementById("where").value), name = document.getElementById("slotname").value.trim();
  const message = { plugin: chosen.identifier };
  if (name) message.name = name;
  if (place.on) { const i = place.on.indexOf(">"); Object.assign(message, { action: "insert", from: place.on.slice(0, i), to: place.on.slice(i + 1) }); }
  else if (place.branch) Object.assign(message, { action: "insert", from: place.branch[0], to: place.branch[1] });
  else { message.action = "add"; if (place.position) message.position = place.position; }
  edit(message);
  toast("adding " + chosen.name + "…", true);
  closeCatalogue();
}
document.getElementById("search").addEventListener("input", () => { if (plugins) listPlugins(); });
document.getElementById("close").addEventListener("click", closeCatalogue);
document.getElementById("addit").addEventListener("click", addChosen);
document.getElementById("catalogue").addEventListener("click", e => { if (e.target.id === "catalogue") closeCatalogue(); });
document.addEventListener("keydown", e => { if (e.key === "Escape") closeCatalogue(); });
"""#

    /// The rig's box and the catalogue's overlay, in the page's body.
    static let rigMarkup = #"""
<div id="rig" style="display:none"></div>
<div id="catalogue" class="overlay" role="dialog" aria-label="Add a plug-in"><div class="box">
<div class="bar"><input id="search" type="search" placeholder="Search by name, maker, category, format" aria-label="Search plug-ins" autocomplete="off"><button id="close" type="button">Close</button></div>
<div id="found" class="end"></div>
<div id="place" class="place" style="display:none"><span id="chosen"></span><select id="where" aria-label="where"></select><input id="slotname" aria-label="slot name"><button id="addit" type="button">Add</button></div>
<ul id="plugins"></ul>
</div></div>
"""#
}
