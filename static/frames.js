// Runnable frames: every <div class="frame" data-target="..."> in a
// lesson gets a working Send button. The frame's text goes to the
// playground over one websocket (/ws), and what comes back from the
// target's server is shown under the frame, as it arrives.
//
// The websocket speaks JSON (playground/hub.go): the page sends
// {"op":"send","id":N,"target":T,"frame":TEXT}; the playground answers
// with events {"op":"event","id":N,"dir":"out"|"in"|"err"|"note",
// "kind":...,"text":...} and refusals {"op":"error","id":N,"message":...}.
(function () {
  "use strict";

  const frames = document.querySelectorAll(".frame");
  if (frames.length === 0) return;

  let socket = null;
  let lastID = 0;
  const outputs = new Map(); // frame id -> the output element of the frame that sent it
  const lastOutput = new Map(); // target -> output of the last frame sent there
  const queue = []; // messages waiting for the socket to open

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(scheme + "//" + location.host + "/ws");
    socket.addEventListener("open", () => {
      while (queue.length > 0) socket.send(queue.shift());
    });
    socket.addEventListener("message", (m) => show(JSON.parse(m.data)));
    socket.addEventListener("close", () => {
      socket = null;
      for (const out of lastOutput.values()) {
        line(out, "note", "the connection to the playground closed; sending again reconnects (stdio servers start afresh)");
      }
    });
  }

  function send(msg) {
    const text = JSON.stringify(msg);
    if (socket === null) connect();
    if (socket.readyState === WebSocket.OPEN) socket.send(text);
    else queue.push(text);
  }

  // line adds one row to an output: a direction mark, then the text.
  function line(out, dir, text, kind) {
    const row = document.createElement("div");
    row.className = "wire-row wire-" + dir + (kind ? " wire-" + kind : "");
    const mark = document.createElement("span");
    mark.className = "wire-dir";
    mark.textContent = { out: "→", in: "←", err: "stderr", note: "·" }[dir] || dir;
    const body = document.createElement("pre");
    body.textContent = text;
    row.append(mark, body);
    out.append(row);
  }

  // show puts an event under the frame it belongs to: by id when it has
  // one, else (a stdio child's own lines) under the last frame sent to
  // that target.
  function show(ev) {
    const out = outputs.get(ev.id) || lastOutput.get(ev.target);
    if (!out) return;
    if (ev.op === "error") {
      line(out, "note", ev.message, "refused");
      return;
    }
    // The raw bytes of an HTTP answer repeat its head and body; a frame
    // shows the parsed ones, the console shows both.
    if (ev.kind === "raw") return;
    if (ev.dir === "out") return; // the frame itself is above
    line(out, ev.dir, ev.text.replace(/\n$/, ""), ev.kind);
  }

  for (const frame of frames) {
    const target = frame.dataset.target;
    const input = frame.querySelector(".frame-input");
    const button = frame.querySelector(".frame-send");
    const out = frame.querySelector(".frame-output");
    const go = () => {
      const id = ++lastID;
      outputs.set(id, out);
      lastOutput.set(target, out);
      out.replaceChildren();
      send({ op: "send", id: id, target: target, frame: input.value });
    };
    button.addEventListener("click", go);
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        go();
      }
    });
  }
})();
