// Runnable frames: every <div class="frame" data-target="..."> in a
// lesson gets a working Send button. The frame's text goes to the
// playground over the websocket (wire.js); what comes back from the
// target's server is shown under the frame as it arrives, one row per
// message (transcript.js), in a pretty, raw or hex view. Below the
// lesson, a sequence diagram (sequence.js) draws everything sent from
// the page. The lesson page's entry module, on every lesson: it gives the
// page its part in a classroom too (presenter.js, room.js): the
// instructor's Present toggle, which tells the followers which frame is
// in view, and a follower's page (?follow=1), which scrolls to it.
import { WireSocket, WireKnown } from "./wire.js";
import { Transcript, views } from "./transcript.js";
import * as sequence from "./sequence.js";
import { Presenter, Following, followURL, goesWith } from "./presenter.js";
import { Room, isLoopbackName } from "./room.js";

const frames = document.querySelectorAll(".frame");

const panel = document.getElementById("lesson-wire");
const labels = panel ? panel.dataset : { pretty: "Pretty", raw: "Raw", hex: "Hex", views: "Views" };
// words are what this module says itself, in the page's language; the
// playground's notes come worded in it (playground/wire/notes_text.go).
const words = {
  en: { closed: "the connection to the playground closed; sending again reconnects (stdio servers start afresh)" },
  ru: { closed: "соединение с песочницей закрылось; следующая отправка подключится снова (серверы stdio запустятся заново)" },
};
const W = words[document.documentElement.lang] || words.en;
const wire = new WireSocket();
const outputs = new Map(); // frame id -> the frame that sent it
const lastFrame = new Map(); // target -> the last frame sent there
const shown = new Map(); // row number -> {element, row, frame}
const transcript = new Transcript(changed);
const known = new WireKnown(); // {{session}}, {{requestState}} and {{task}}, from the answers so far
let presenter = null; // the Present toggle, on the instructor's machine
let inView = -1; // the index of the frame in view, which the presenter's followers go to

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
  if (presenter && presenter.heard(msg)) return;
  if (msg.op === "closed") {
    for (const frame of new Set(lastFrame.values())) {
      const element = rowElement("note");
      element.querySelector("pre").textContent = W.closed;
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
      revealPredicted(frame);
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

// revealPredicted opens the replies after a frame that asked the reader
// to predict them (a reply block written "reply predict", folded in a
// <details>): once the frame is sent, the live answer is on the page
// anyway, and the promised one goes beside it.
function revealPredicted(frame) {
  for (let el = frame.nextElementSibling; el && !el.matches(".frame"); el = el.nextElementSibling) {
    if (el.matches("details.reply-predict")) el.open = true;
  }
}

// ---- the classroom

// lessonState is what the presenter's followers see: the page, and the
// frame in view with its target and text.
function lessonState() {
  const f = frames[inView];
  return {
    page: location.pathname, target: f ? f.dataset.target : "", to: "", frame: f ? f.querySelector(".frame-input").value : "",
    row: -1, rowAt: "", view: (f && f.dataset.view) || "pretty", frameIndex: inView, lang: document.documentElement.lang || "en",
  };
}

// watchFrames keeps inView: of the frames at least partly on screen, the
// one nearest the middle of the window. The presenter's followers hear
// when it changes.
function watchFrames() {
  const visible = new Set();
  const seen = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (e.isIntersecting) visible.add(e.target);
        else visible.delete(e.target);
      }
      const middle = window.innerHeight / 2;
      let best = -1;
      let distance = Infinity;
      frames.forEach((f, i) => {
        if (!visible.has(f)) return;
        const r = f.getBoundingClientRect();
        const d = Math.abs((r.top + r.bottom) / 2 - middle);
        if (d < distance) {
          distance = d;
          best = i;
        }
      });
      // Between frames, the last one stays: the followers keep their place.
      if (best >= 0 && best !== inView) {
        inView = best;
        presenter.changed();
      }
    },
    { threshold: [0, 0.25, 0.5, 0.75, 1] },
  );
  for (const f of frames) {
    seen.observe(f);
    f.querySelector(".frame-input").addEventListener("input", () => presenter.changed());
  }
}

// present gives the instructor's lesson its Present toggle. The page's
// socket opens with the first send, so the toggle shows on a page of
// this machine's own address, and the playground's hello confirms it; a
// tab that presented on its last page presents here at once.
function present(button, text) {
  const note = document.createElement("span");
  note.className = "present-note";
  note.setAttribute("aria-live", "polite");
  button.after(note);
  presenter = new Presenter(wire, button, lessonState, text, (m) => (note.textContent = m));
  button.hidden = false;
  if (frames.length > 0) watchFrames();
  if (Presenter.remembered()) wire.connect();
}

// follow makes the page a follower of watch: it goes to the presenter's
// page, and scrolls to the frame the presenter has in view, while the
// Follow switch is on.
function follow(watch, text) {
  const toggle = document.getElementById("follow");
  let here = -1; // the frame the page last scrolled to
  // Switched on again: go to the presenter's frame, wherever the page is.
  toggle.addEventListener("change", () => (here = -1));
  new Following(watch, {
    text: text,
    status: document.getElementById("follow-status"),
    toggle: toggle,
    reset: () => {},
    event: () => {},
    state: (s) => {
      if (goesWith(watch) && typeof s.page === "string" && s.page !== location.pathname) {
        const url = followURL(s.page, watch);
        if (url) {
          location.assign(url);
          return;
        }
      }
      const i = typeof s.frameIndex === "number" ? s.frameIndex : -1;
      for (const f of frames) f.classList.toggle("presenter-here", f === frames[i]);
      if (i >= 0 && frames[i] && i !== here) {
        here = i;
        frames[i].scrollIntoView({ block: "center", behavior: "smooth" });
      }
    },
  });
}

// classroom starts the page's part in a classroom: a follower's, when
// the address says ?follow=; else the instructor's toggle, on this
// machine; and the follower's bar, on a page from another machine.
function classroom() {
  const data = document.getElementById("follow-text");
  if (!data) return; // an embedded lesson has no part in it
  const text = JSON.parse(data.textContent);
  const local = isLoopbackName(location.hostname);
  const bar = document.getElementById("room-bar");
  if (bar && !local) new Room(bar);
  const watch = new URLSearchParams(location.search).get("follow");
  if (watch) {
    follow(watch === "instructor" ? "instructor" : "presenter", text);
    return;
  }
  const button = document.getElementById("present");
  if (button && local) present(button, text);
}

wire.listen(heard);
if (frames.length > 0) start();
classroom();
