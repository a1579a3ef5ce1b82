// Runnable frames: every <div class="frame" data-target="..."> in a
// lesson gets a working Send button. The frame's text goes to the
// playground over the websocket (wire.js); what comes back from the
// target's server is shown under the frame as it arrives, one row per
// message (transcript.js), in a pretty, raw or hex view. Below the
// lesson, a sequence diagram (sequence.js) draws everything sent from
// the page. The lesson page's entry module.
import { WireSocket, WireKnown } from "./wire.js";
import { Transcript, views } from "./transcript.js";
import * as sequence from "./sequence.js";

const frames = document.querySelectorAll(".frame");

const panel = document.getElementById("lesson-wire");
const labels = panel ? panel.dataset : { pretty: "Pretty", raw: "Raw", hex: "Hex", views: "Views" };
const wire = new WireSocket();
const outputs = new Map(); // frame id -> the frame that sent it
const lastFrame = new Map(); // target -> the last frame sent there
const shown = new Map(); // row number -> {element, row, frame}
const transcript = new Transcript(changed);
const known = new WireKnown(); // {{session}}, {{requestState}} and {{task}}, from the answers so far

// frameFor says which frame a row belongs to: the one that sent it, or
// for a stdio child's own lines, the last frame sent to that target.
function frameFor(r) {
  return outputs.get(r.ex) || lastFrame.get(r.target);
}

function render(entry) {
  const view = entry.frame.dataset.view || "pretty";
  const text = entry.row.dir === "in" || entry.row.dir === "out" ? views[view](entry.row) : entry.row.text;
  entry.element.querySelector("pre").textContent = text.replace(/\n$/, "");
  const meta = entry.element.querySelector(".wire-meta");
  const parts = [];
  if (entry.row.size) parts.push(entry.row.size + " B");
  if (entry.row.latency !== undefined && entry.row.latency !== null) parts.push(entry.row.latency.toFixed(1) + " ms");
  meta.textContent = parts.join(" · ");
}

function rowElement(dir, kind) {
  const row = document.createElement("div");
  row.className = "wire-row wire-" + dir + (kind ? " wire-" + kind : "");
  const mark = document.createElement("span");
  mark.className = "wire-dir";
  mark.textContent = { out: "→", in: "←", err: "stderr", note: "·" }[dir] || dir;
  const body = document.createElement("pre");
  const meta = document.createElement("span");
  meta.className = "wire-meta";
  row.append(mark, body, meta);
  return row;
}

function changed(what, r) {
  if (what === "row") {
    const frame = frameFor(r);
    // The frame's own text is above it: a stdio frame's "out" row
    // repeats it. An HTTP request's row differs (the playground may fix
    // it), so it is shown when it was fixed.
    if (!frame || (r.dir === "out" && !(r.notes && r.notes.length > 0))) {
      drawSoon();
      return;
    }
    const element = rowElement(r.dir, r.kind);
    const entry = { element: element, row: r, frame: frame };
    shown.set(r.n, entry);
    frame.querySelector(".frame-output").append(element);
    render(entry);
    if (r.notes && r.notes.length > 0) {
      const note = rowElement("note", "fix");
      note.querySelector("pre").textContent = r.notes.join("\n");
      element.before(note);
    }
    drawSoon();
  } else if (what === "update") {
    const entry = shown.get(r.n);
    if (entry) render(entry);
    drawSoon();
  } else if (what === "stderr") {
    const frame = lastFrame.get(r.target);
    if (!frame) return;
    const element = rowElement("err", "stderr");
    element.querySelector("pre").textContent = r.text.replace(/\n$/, "");
    frame.querySelector(".frame-output").append(element);
  }
}

// heard takes one message from the playground.
function heard(msg) {
  if (msg.op === "closed") {
    for (const frame of new Set(lastFrame.values())) {
      const element = rowElement("note");
      element.querySelector("pre").textContent = "the connection to the playground closed; sending again reconnects (stdio servers start afresh)";
      frame.querySelector(".frame-output").append(element);
    }
    return;
  }
  if (msg.op === "hello") return;
  known.learn(msg);
  transcript.event(msg);
}

// viewSwitch gives a frame's answer its three views.
function viewSwitch(frame) {
  const bar = document.createElement("div");
  bar.className = "frame-views";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", labels.views);
  for (const view of ["pretty", "raw", "hex"]) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "frame-view";
    b.dataset.view = view;
    b.textContent = labels[view];
    b.setAttribute("aria-pressed", String(view === "pretty"));
    b.addEventListener("click", () => {
      frame.dataset.view = view;
      for (const other of bar.children) other.setAttribute("aria-pressed", String(other === b));
      for (const entry of shown.values()) if (entry.frame === frame) render(entry);
    });
    bar.append(b);
  }
  frame.querySelector(".frame-head").append(bar);
}

let drawTimer = 0;
function drawSoon() {
  if (!panel || drawTimer) return;
  drawTimer = setTimeout(() => {
    drawTimer = 0;
    panel.hidden = false;
    document.getElementById("lesson-diagram").innerHTML = sequence.svg(transcript.rows, { you: panel.dataset.you });
  }, 100);
}

// start gives every frame its views and its Send, and the diagram its
// export. A page without frames has nothing to start.
function start() {
  wire.listen(heard);
  if (panel) {
    document.getElementById("lesson-export-svg").addEventListener("click", () => {
      const a = document.createElement("a");
      a.href = URL.createObjectURL(new Blob([sequence.svg(transcript.rows, { color: "#1b1f24", background: "#ffffff", you: panel.dataset.you })], { type: "image/svg+xml" }));
      a.download = "wirelab-" + (document.querySelector(".lesson")?.dataset.lesson || "lesson") + ".svg";
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 1000);
    });
  }

  for (const frame of frames) {
    const target = frame.dataset.target;
    const input = frame.querySelector(".frame-input");
    const button = frame.querySelector(".frame-send");
    const out = frame.querySelector(".frame-output");
    viewSwitch(frame);
    const go = () => {
      for (const [n, entry] of shown) if (entry.frame === frame) shown.delete(n);
      out.replaceChildren();
      lastFrame.set(target, frame);
      // A frame may name what an earlier answer gave: {{session}} stands
      // for the MCP session, {{requestState}} for the state of an MCP
      // input_required result, {{task}} for the A2A task.
      const id = wire.send({ op: "send", target: target, frame: known.fill(input.value) });
      outputs.set(id, frame);
    };
    button.addEventListener("click", go);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        go();
      }
    });
  }
}

if (frames.length > 0) start();
