// The five-wires page (playground/fivewires.templ): one call, word_count
// with the text "read the wire", over five protocols side by side. Each
// column's Run sends its frame to the playground's hub through wire.js
// (the messages are described in playground/hub.go) and shows what went
// out and what came back, byte for byte, with two times:
//
//   on the wire    the playground's own timestamps, the "at" of events:
//                  from the call's first "out" event to its last "in"
//                  event (on stdio, the answer line whose id matches)
//   from the page  performance.now() just before the frame is handed to
//                  the websocket, to the arrival of that last "in" event
//
// MCP's column runs the session around its call, initialize and
// notifications/initialized before and DELETE after, and measures only
// the call. Run all runs the columns one after another, never at once,
// so that no call slows another down, then marks the fastest on the
// wire.
//
// What a browser test can read: #five-wires[data-state] is "running"
// during Run all and "done" after, with data-fastest naming the fastest
// column; each section.fw-col has data-state (idle, running, done,
// failed), and its dd.fw-wire-latency[data-ns], dd.fw-page-latency
// [data-ms], dd.fw-bytes-out[data-bytes] and dd.fw-bytes-in[data-bytes].
(function () {
  "use strict";

  const root = document.getElementById("five-wires");
  if (!root) return;
  const words = root.dataset; // the page's strings, in its language
  const lang = document.documentElement.lang || "en";
  const columns = Array.from(root.querySelectorAll(".fw-col"));
  const runAllButton = document.getElementById("fw-run-all");
  const status = document.getElementById("fw-status");

  // stdioPatience is how long the page waits for a stdio answer: the hub
  // sets no deadline on a child, and a line that gets no answer (a blank
  // one, say) would otherwise keep the column waiting. exchangePatience
  // is a little over the hub's own limit on an exchange (a minute), so
  // that the hub's message, which says why, arrives first.
  const stdioPatience = 15000;
  const exchangePatience = 65000;

  const wire = new WireSocket();
  const pending = new Map(); // frame id -> the exchange waiting for its events
  const lineWaiters = new Map(); // stdio target -> the exchange waiting for its answer line
  wire.listen(route);

  let busy = 0; // runs in progress, a column's or Run all's; Run all is off while any is

  // ready resolves once the websocket is open (a closed one is said in
  // the page's language).
  function ready() {
    return wire.open().catch(() => {
      throw new Error(words.closed);
    });
  }

  // exchange sends one frame to target and resolves, never rejects, with
  // what crossed: {ok, error, out, ins, notes, wireNs, pageMs}.
  function exchange(target, frame) {
    return ready().then(() => new Promise((resolve) => {
      const x = {
        target: target,
        id: 0,
        out: null, // the "out" event: the bytes as sent
        ins: [], // the "in" events of this call
        notes: [], // the playground's notes, stderr, lines that were not the answer
        answered: false,
        want: target === "stdio" ? lineID(frame) : null,
        t0: 0,
        timer: 0,
        done: false,
      };
      x.finish = (error) => {
        if (x.done) return;
        x.done = true;
        clearTimeout(x.timer);
        pending.delete(x.id);
        if (lineWaiters.get(target) === x) lineWaiters.delete(target);
        resolve(result(x, error || ""));
      };
      x.t0 = performance.now();
      x.id = wire.send({ op: "send", target: target, frame: frame });
      pending.set(x.id, x);
      if (target === "stdio") lineWaiters.set(target, x);
      x.timer = setTimeout(() => x.finish(words.noAnswer), target === "stdio" ? stdioPatience : exchangePatience);
    }), (err) => result({ out: null, ins: [], notes: [], t0: 0 }, err.message));
  }

  // route hands a message from the playground to the exchange it belongs
  // to: by id, or, for a line a stdio child wrote (lines carry no id), to
  // the exchange waiting on that target.
  function route(msg) {
    if (msg.op === "closed") {
      for (const x of Array.from(pending.values())) x.finish(words.closed);
      return;
    }
    if (msg.op === "error") {
      const x = pending.get(msg.id);
      if (x) x.finish(msg.message);
      return;
    }
    if (msg.op !== "event") return;
    const x = msg.id ? pending.get(msg.id) : lineWaiters.get(msg.target);
    if (!x) return;
    if (msg.dir === "out") {
      if (x.out === null) x.out = msg;
    } else if (msg.dir === "in" && x.target !== "stdio") {
      x.ins.push(msg);
      if (msg.kind === "grpc") x.answered = true;
    } else if (msg.dir === "in") {
      if (!x.answered && answers(msg.text, x.want)) {
        x.ins.push(msg);
        x.answered = true;
      } else {
        x.notes.push(msg);
      }
    } else if (msg.kind === "end") {
      x.answered = true; // an HTTP answer is complete
    } else if (msg.kind === "exit" && !x.answered) {
      x.finish(words.exited);
      return;
    } else {
      x.notes.push(msg);
    }
    // A child may answer before the playground has reported the line it
    // was sent: the call is over when both are in.
    if (x.answered && x.out !== null) x.finish("");
  }

  // lineID is the id of a stdio request line as JSON text, or null when
  // the line has none.
  function lineID(frame) {
    try {
      const msg = JSON.parse(frame);
      if (msg !== null && typeof msg === "object" && "id" in msg) return JSON.stringify(msg.id);
    } catch (e) {
      // Not JSON: the server answers with an error line without an id.
    }
    return null;
  }

  // answers tells whether a stdio line is the answer to a request with
  // the id want. An answer without an id counts too: it is how the
  // server answers a line it could not read an id from.
  function answers(line, want) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      return false;
    }
    if (msg === null || typeof msg !== "object") return false;
    return !("id" in msg) || want === null || JSON.stringify(msg.id) === want;
  }

  // nanos turns the playground's "at" (RFC 3339 in UTC, with up to nine
  // digits of fraction) into nanoseconds since 1970 as a BigInt, since a
  // Number would drop the last digits.
  function nanos(at) {
    const m = /^(.+T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/.exec(at || "");
    if (m === null) return null;
    const ms = Date.parse(m[1] + m[3]);
    if (Number.isNaN(ms)) return null;
    return BigInt(ms) * 1000000n + BigInt((m[2] || "").padEnd(9, "0"));
  }

  function result(x, error) {
    const r = { ok: error === "" && x.ins.length > 0, error: error, out: x.out, ins: x.ins, notes: x.notes, wireNs: null, pageMs: null };
    if (x.out !== null && x.ins.length > 0) {
      const last = x.ins[x.ins.length - 1];
      const from = nanos(x.out.at);
      const to = nanos(last.at);
      if (from !== null && to !== null) r.wireNs = Number(to - from);
      r.pageMs = last.received - x.t0;
    }
    return r;
  }

  // The bytes of a result, by target: on HTTP the raw events (the real
  // bytes, head, chunk sizes and all), on gRPC the frame dump, on stdio
  // the answer line.
  function sent(r) {
    return r.out === null ? { text: "", size: 0 } : { text: r.out.text || "", size: r.out.size || 0 };
  }

  function back(r, target) {
    const ins = target === "grpc" || target === "stdio" ? r.ins : r.ins.filter((ev) => ev.kind === "raw");
    return {
      text: ins.map((ev) => ev.text || "").join(""),
      size: ins.reduce((n, ev) => n + (ev.size || 0), 0),
    };
  }

  // http2Bytes adds up the HTTP/2 frames in a gRPC dump, whose frame
  // lines read "-> TYPE stream=N len=L ..." (client) or "<- ..." (server):
  // each frame is a 9-byte header and L bytes of payload, and the
  // client's connection preface ("-> PREFACE len=24") its 24 bytes alone.
  function http2Bytes(dump) {
    const n = { out: 0, in: 0 };
    for (const m of dump.matchAll(/^(->|<-) (\S+)(?: stream=\d+)? len=(\d+)/gm)) {
      const size = Number(m[3]) + (m[2] === "PREFACE" ? 0 : 9);
      if (m[1] === "->") n.out += size;
      else n.in += size;
    }
    return n;
  }

  // totals are the bytes each way of one exchange.
  function totals(r, target) {
    if (target === "grpc") {
      const b = back(r, target);
      return b.text === "" ? { out: null, in: null } : http2Bytes(b.text);
    }
    return { out: r.out === null ? null : sent(r).size, in: r.ins.length === 0 ? null : back(r, target).size };
  }

  function number(n, digits) {
    return n.toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
  }

  function duration(ns) {
    if (ns < 1e6) return number(ns / 1e3, ns < 1e4 ? 1 : 0) + " " + words.us;
    return number(ns / 1e6, ns < 1e7 ? 2 : 1) + " " + words.ms;
  }

  function bytes(n) {
    return number(n, 0) + " " + words.bytes;
  }

  // showBytes writes text into pre as it crossed, with its line ends made
  // visible the way a programmer writes them: \r\n, \n, \r.
  function showBytes(pre, text) {
    pre.replaceChildren();
    for (const part of text.split(/(\r\n|\n|\r)/)) {
      if (part === "") continue;
      if (part === "\r\n" || part === "\n" || part === "\r") {
        const mark = document.createElement("span");
        mark.className = "fw-eol";
        mark.textContent = { "\r\n": "\\r\\n", "\n": "\\n", "\r": "\\r" }[part];
        pre.append(mark);
        if (part !== "\r") pre.append("\n");
      } else {
        pre.append(part);
      }
    }
  }

  // showExchange fills a result's place (a column's .fw-result, or a
  // session step's .fw-step-result) with the bytes that crossed and the
  // notes that came with them. A refusal is the column's .fw-error.
  function showExchange(place, r, target) {
    const s = sent(r);
    const b = back(r, target);
    showBytes(place.querySelector(".fw-sent"), s.text);
    if (target === "grpc") {
      // The frame is what the playground was asked to send and the dump
      // its account of the frames that crossed: neither is the wire's
      // bytes, so neither gets a size here. The column's byte counts are
      // the frames' (http2Bytes).
      place.querySelector(".fw-back").textContent = b.text;
      place.querySelector(".fw-sent-size").textContent = "";
      place.querySelector(".fw-back-size").textContent = "";
    } else {
      showBytes(place.querySelector(".fw-back"), b.text);
      place.querySelector(".fw-sent-size").textContent = r.out === null ? "" : "· " + bytes(s.size);
      place.querySelector(".fw-back-size").textContent = r.ins.length === 0 ? "" : "· " + bytes(b.size);
    }
    const notes = place.querySelector(".fw-notes");
    notes.replaceChildren();
    for (const ev of r.notes) {
      const li = document.createElement("li");
      li.className = "fw-notes-" + (ev.dir || "note");
      li.textContent = (ev.text || "").replace(/\n$/, "");
      notes.append(li);
    }
  }

  function setNumber(col, cls, text, key, value) {
    const dd = col.querySelector(cls);
    dd.textContent = text;
    if (value === null) delete dd.dataset[key];
    else dd.dataset[key] = String(value);
  }

  // clear empties a column before a run: running again replaces its results.
  function clear(col) {
    setNumber(col, ".fw-wire-latency", "—", "ns", null);
    setNumber(col, ".fw-page-latency", "—", "ms", null);
    setNumber(col, ".fw-bytes-out", "—", "bytes", null);
    setNumber(col, ".fw-bytes-in", "—", "bytes", null);
    const empty = { ok: false, error: "", out: null, ins: [], notes: [] };
    for (const place of col.querySelectorAll(".fw-result, .fw-step-result")) showExchange(place, empty, col.dataset.target);
    const error = col.querySelector(".fw-error");
    error.hidden = true;
    error.textContent = "";
    const total = col.querySelector(".fw-session-total");
    if (total !== null) total.hidden = true;
  }

  function fail(col, message) {
    const error = col.querySelector(".fw-error");
    error.textContent = message;
    error.hidden = false;
    col.dataset.state = "failed";
  }

  // withSession puts the session's id in a frame's Mcp-Session-Id header,
  // in place of SESSION or an older id. A frame without the header goes
  // as it is: the server's answer then says what is missing.
  function withSession(frame, id) {
    if (id === "") return frame;
    const cut = frame.search(/\r?\n\r?\n/);
    const head = cut < 0 ? frame : frame.slice(0, cut);
    const rest = cut < 0 ? "" : frame.slice(cut);
    return head.replace(/^(mcp-session-id:)[^\r\n]*$/im, (_, name) => name + " " + id) + rest;
  }

  // sessionOf reads Mcp-Session-Id from the head of an HTTP answer.
  function sessionOf(r) {
    for (const ev of r.ins) {
      if (ev.kind !== "http-head") continue;
      const m = /^mcp-session-id:[ \t]*(\S+)/im.exec(ev.text || "");
      if (m !== null) return m[1];
    }
    return "";
  }

  // runColumn runs a column's exchanges in order, shows them, and
  // resolves with the call's result, or null when it was not made.
  async function runColumn(col) {
    const target = col.dataset.target;
    clear(col);
    col.dataset.state = "running";
    const steps = (when) => Array.from(col.querySelectorAll('.fw-step[data-when="' + when + '"]'));
    const all = []; // every exchange of the column, for the session's totals
    let session = "";
    for (const [i, step] of steps("before").entries()) {
      const r = await exchange(target, withSession(step.querySelector(".fw-frame").value, session));
      showExchange(step.querySelector(".fw-step-result"), r, target);
      all.push(r);
      if (!r.ok) {
        fail(col, step.dataset.step + ": " + (r.error || words.noAnswer));
        return null;
      }
      // The first exchange opens the session.
      if (i === 0) {
        session = sessionOf(r);
        if (session === "") {
          fail(col, words.noSession);
          return null;
        }
      }
    }
    const call = await exchange(target, withSession(col.querySelector(".fw-call").value, session));
    all.push(call);
    showExchange(col.querySelector(".fw-result"), call, target);
    const t = totals(call, target);
    if (call.wireNs !== null) setNumber(col, ".fw-wire-latency", duration(call.wireNs), "ns", call.wireNs);
    if (call.pageMs !== null) setNumber(col, ".fw-page-latency", duration(call.pageMs * 1e6), "ms", call.pageMs.toFixed(3));
    if (t.out !== null) setNumber(col, ".fw-bytes-out", bytes(t.out), "bytes", t.out);
    if (t.in !== null) setNumber(col, ".fw-bytes-in", bytes(t.in), "bytes", t.in);
    for (const step of steps("after")) {
      const r = await exchange(target, withSession(step.querySelector(".fw-frame").value, session));
      showExchange(step.querySelector(".fw-step-result"), r, target);
      all.push(r);
    }
    const total = col.querySelector(".fw-session-total");
    if (total !== null) {
      const sum = all.map((r) => totals(r, target)).reduce((a, b) => ({ out: a.out + (b.out || 0), in: a.in + (b.in || 0) }), { out: 0, in: 0 });
      total.textContent = words.session + " " + bytes(sum.out) + " / " + bytes(sum.in);
      total.hidden = false;
    }
    if (!call.ok) {
      fail(col, call.error || words.noAnswer);
      return null;
    }
    col.dataset.state = "done";
    return call;
  }

  function clearFastest() {
    delete root.dataset.fastest;
    for (const col of columns) {
      col.classList.remove("fw-fastest");
      col.querySelector(".fw-badge").hidden = true;
    }
  }

  function updateButtons() {
    runAllButton.disabled = busy > 0;
    for (const col of columns) {
      col.querySelector(".fw-run").disabled = root.dataset.state === "running" || col.dataset.state === "running";
    }
  }

  // runOne is a column's own Run: the other columns keep their results,
  // but the mark of the fastest is taken away, since it compared runs
  // made together.
  async function runOne(col) {
    if (col.dataset.state === "running" || root.dataset.state === "running") return;
    clearFastest();
    status.textContent = "";
    busy++;
    col.dataset.state = "running";
    updateButtons();
    try {
      await runColumn(col);
    } finally {
      busy--;
      updateButtons();
    }
  }

  async function runAll() {
    if (busy > 0) return;
    clearFastest();
    root.dataset.state = "running";
    busy++;
    updateButtons();
    const results = [];
    try {
      for (const col of columns) {
        status.textContent = col.querySelector(".fw-name").textContent + ": " + words.running;
        results.push({ col: col, r: await runColumn(col) });
      }
    } finally {
      busy--;
      root.dataset.state = "done";
      updateButtons();
    }
    let best = null;
    for (const { col, r } of results) {
      if (r !== null && r.wireNs !== null && (best === null || r.wireNs < best.r.wireNs)) best = { col: col, r: r };
    }
    if (best === null) {
      status.textContent = words.noneDone;
      return;
    }
    best.col.classList.add("fw-fastest");
    best.col.querySelector(".fw-badge").hidden = false;
    root.dataset.fastest = best.col.dataset.wire;
    status.textContent = words.done + " " + best.col.querySelector(".fw-name").textContent + " (" + duration(best.r.wireNs) + ")";
  }

  runAllButton.addEventListener("click", runAll);
  for (const col of columns) {
    col.querySelector(".fw-run").addEventListener("click", () => runOne(col));
    // Ctrl+Enter (Cmd+Enter) in any of the column's frames runs the column.
    for (const field of col.querySelectorAll(".fw-frame")) {
      field.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          runOne(col);
        }
      });
    }
  }
})();
