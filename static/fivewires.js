// The five-wires page (playground/fivewires.templ): one call, word_count
// with the text "read the wire", over five protocols side by side. Each
// column's Run sends its frame to the playground's hub through wire.js
// (the messages are described in playground/wire/doc.go) and shows what went
// out and what came back, byte for byte, with two times:
//
//   on the wire    the playground's own timestamps, the "at" of events:
//                  from the call's first "out" event to its last "in"
//                  event (on stdio, the answer line whose id matches)
//   from the page  performance.now() just before the frame is handed to
//                  the websocket, to the arrival of that last "in" event
//
// A Run makes the call 1 + runs times (runs is #five-wires[data-runs],
// fiveWiresRuns in playground/fivewires.go), each after the one before
// has ended, so that no call slows another down. The first call is shown
// apart, with its two times and what it included: starting the stdio
// server, opening the gRPC connection, or nothing. The others are the
// measurement: the column shows their median, large, and beneath it the
// fastest and the slowest, for both times. The bytes shown are the last
// call's.
//
// Beside the times, each column shows the whole cost of one call: the
// round trips and the bytes each way that a client starting from nothing
// pays, its protocol's handshake included. MCP: initialize,
// notifications/initialized, tools/call and DELETE, four HTTP exchanges.
// gRPC: the call that opened the connection, with the preface and the
// SETTINGS each way (one round trip before the call's own), remembered
// for the tab since later calls reuse the connection. stdio, HTTP, A2A:
// the one exchange.
//
// MCP's column runs the session around each call, initialize and
// notifications/initialized before and DELETE after, and times only the
// call. It can speak revision 2026-07-28 instead (its select.fw-era):
// then the call is one POST that stands alone, with nothing around it.
// Each revision has its frames and texts in the column, under
// [data-era], and those of the one not chosen are hidden; the column's
// data-era names the chosen one. Run all runs the columns one after
// another, never at once, then
// asks static/verdict.js whether one was the fastest on the wire beyond
// the noise: only when its slowest call beat every other column's
// fastest; else the page says it is too close to call.
//
// What a browser test can read: #five-wires[data-state] is "running"
// during Run all and "done" after, with data-verdict (none, alone,
// fastest, close) and, when it is fastest, data-fastest naming the
// column; each section.fw-col has data-state (idle, running, done,
// failed), and its
//
//   dd.fw-wire-latency[data-ns]     the median on the wire, in ns
//   dd.fw-wire-spread[data-min-ns][data-max-ns][data-runs]
//   dd.fw-page-latency[data-ms]     the median from the page, in ms
//   dd.fw-page-spread[data-min-ms][data-max-ms][data-runs]
//   .fw-warm[data-why]              the first call: started, running
//                                   (stdio), dialed, kept (gRPC), cold
//   .fw-warm-wire[data-ns], .fw-warm-page[data-ms]   its times
//   dl.fw-cost[data-from]           whose bytes the cost is: call
//                                   (MCP 2026-07-28 too), session (MCP
//                                   2025-11-25), dialed or kept (gRPC)
//   dd.fw-trips[data-trips], dd.fw-bytes-out[data-bytes],
//   dd.fw-bytes-in[data-bytes]      the whole cost of one call
//   .fw-sent-size[data-bytes]       the bytes sent in one exchange shown
//
// The page's entry module: it imports the websocket (wire.js) and the
// verdict (verdict.js).
import { WireSocket } from "./wire.js";
import { verdict } from "./verdict.js";

// root is the page's #five-wires; on a page without it, nothing starts.
const root = document.getElementById("five-wires");
const words = root ? root.dataset : {}; // the page's strings, in its language
const lang = document.documentElement.lang || "en";
const runs = Number(words.runs); // calls measured after the first, per column
const columns = root ? Array.from(root.querySelectorAll(".fw-col")) : [];
const runAllButton = document.getElementById("fw-run-all");
const status = document.getElementById("fw-status");

// stdioPatience is how long the page waits for a stdio answer: the hub
// sets no deadline on a child, and a line that gets no answer (a blank
// one, say) would otherwise keep the column waiting. exchangePatience
// is a little over the hub's own limit on an exchange (a minute), so
// that the hub's message, which says why, arrives first.
const stdioPatience = 15000;
const exchangePatience = 65000;

// frameGap is the least time, in ms, between two frames this page
// sends: the playground takes at most data-frame-rate frames a second
// from a tab and refuses the rest, and a Run sends dozens. Frames sent
// evenly at that rate never spend the playground's burst, and the wait
// falls between calls, before a call's clock starts.
const frameGap = 1000 / Number(words.frameRate);
let lastSent = -Infinity; // performance.now() when the last frame went

const wire = new WireSocket();
const pending = new Map(); // frame id -> the exchange waiting for its events
const lineWaiters = new Map(); // stdio target -> the exchange waiting for its answer line

let busy = 0; // runs in progress, a column's or Run all's; every Run is off while any is

// stdioUp tells whether this tab's stdio server is running, as far as
// the page has seen: a call on it was answered since the websocket
// opened, and it has not exited since. The playground starts the
// server on the first line it is sent, so a first call made while
// stdioUp is false started it.
let stdioUp = false;

// grpcCold is the whole cost of the last gRPC call this tab saw open
// its connection, or null: the calls after it reuse the connection and
// do not pay for it again, but a client starting from nothing does.
let grpcCold = null;

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
  return ready().then(pace).then(() => new Promise((resolve) => {
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
    lastSent = x.t0;
    x.id = wire.send({ op: "send", target: target, frame: frame });
    pending.set(x.id, x);
    if (target === "stdio") lineWaiters.set(target, x);
    x.timer = setTimeout(() => x.finish(words.noAnswer), target === "stdio" ? stdioPatience : exchangePatience);
  }), (err) => result({ out: null, ins: [], notes: [], t0: 0 }, err.message));
}

// pace resolves once frameGap has passed since the last frame went.
function pace() {
  const wait = lastSent + frameGap - performance.now();
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, wait)));
}

// route hands a message from the playground to the exchange it belongs
// to: by id, or, for a line a stdio child wrote (lines carry no id), to
// the exchange waiting on that target.
function route(msg) {
  // A new websocket is a new session, whose stdio server starts afresh.
  if (msg.op === "hello" || msg.op === "closed") {
    stdioUp = false;
    grpcCold = null;
  }
  if (msg.op === "event" && msg.target === "stdio" && msg.kind === "exit") stdioUp = false;
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

// http2Trips counts the round trips in a gRPC dump: one per stream the
// client opened (its HEADERS wait for the server's), and one more for
// the connection's SETTINGS exchange when the dump opens with the
// preface: grpc-go sends no call before the server's SETTINGS arrive.
function http2Trips(dump) {
  const streams = new Set();
  for (const m of dump.matchAll(/^-> HEADERS stream=(\d+)/gm)) streams.add(m[1]);
  return streams.size + (/^-> PREFACE /m.test(dump) ? 1 : 0);
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
    setNumber(place.querySelector(".fw-sent-size"), "", { bytes: null });
    setNumber(place.querySelector(".fw-back-size"), "", { bytes: null });
  } else {
    showBytes(place.querySelector(".fw-back"), b.text);
    const sentSize = r.out === null ? null : s.size;
    const backSize = r.ins.length === 0 ? null : b.size;
    setNumber(place.querySelector(".fw-sent-size"), sentSize === null ? "" : "· " + bytes(sentSize), { bytes: sentSize });
    setNumber(place.querySelector(".fw-back-size"), backSize === null ? "" : "· " + bytes(backSize), { bytes: backSize });
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

// setNumber writes a number into the element el, as text for the
// reader and as data- attributes for a test: attrs maps a dataset key
// to its value, and null takes the attribute away.
function setNumber(el, text, attrs) {
  el.textContent = text;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null) delete el.dataset[key];
    else el.dataset[key] = String(value);
  }
}

// clear empties a column before a run: running again replaces its results.
function clear(col) {
  setNumber(col.querySelector(".fw-wire-latency"), "—", { ns: null });
  setNumber(col.querySelector(".fw-wire-spread"), "", { minNs: null, maxNs: null, runs: null });
  setNumber(col.querySelector(".fw-page-latency"), "—", { ms: null });
  setNumber(col.querySelector(".fw-page-spread"), "", { minMs: null, maxMs: null, runs: null });
  setNumber(col.querySelector(".fw-trips"), "—", { trips: null });
  setNumber(col.querySelector(".fw-bytes-out"), "—", { bytes: null });
  setNumber(col.querySelector(".fw-bytes-in"), "—", { bytes: null });
  delete col.querySelector(".fw-cost").dataset.from;
  col.querySelector(".fw-runs").hidden = true;
  const warm = col.querySelector(".fw-warm");
  warm.hidden = true;
  delete warm.dataset.why;
  setNumber(warm.querySelector(".fw-warm-wire"), "—", { ns: null });
  setNumber(warm.querySelector(".fw-warm-page"), "—", { ms: null });
  warm.querySelector(".fw-warm-why").textContent = "";
  col.querySelector(".fw-last").hidden = true;
  const empty = { ok: false, error: "", out: null, ins: [], notes: [] };
  for (const place of col.querySelectorAll(".fw-result, .fw-step-result, .fw-warm-result")) showExchange(place, empty, col.dataset.target);
  const error = col.querySelector(".fw-error");
  error.hidden = true;
  error.textContent = "";
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

// once makes a column's call one time, with the session steps around
// it, and resolves with {call, steps, error}: the call's result (null
// when it was not made), each step with its result, in order, and why
// the call failed ("" when it did not).
async function once(col) {
  const target = col.dataset.target;
  const frames = chosen(col);
  const steps = (when) => Array.from(frames.querySelectorAll('.fw-step[data-when="' + when + '"]'));
  const done = [];
  let session = "";
  for (const [i, step] of steps("before").entries()) {
    const r = await exchange(target, withSession(step.querySelector(".fw-frame").value, session));
    done.push({ step: step, r: r });
    if (!r.ok) return { call: null, steps: done, error: step.dataset.step + ": " + (r.error || words.noAnswer) };
    // The first exchange opens the session.
    if (i === 0) {
      session = sessionOf(r);
      if (session === "") return { call: null, steps: done, error: words.noSession };
    }
  }
  const call = await exchange(target, withSession(frames.querySelector(".fw-call").value, session));
  // The steps after the call end the session, whatever the call did.
  for (const step of steps("after")) {
    const r = await exchange(target, withSession(step.querySelector(".fw-frame").value, session));
    done.push({ step: step, r: r });
  }
  return { call: call, steps: done, error: call.ok ? "" : call.error || words.noAnswer };
}

// chosen is the place of the frames a column sends: those of the
// revision chosen, where it has a choice.
function chosen(col) {
  return col.querySelector(".fw-frames:not([hidden])");
}

// chooseEra makes a column speak the revision era: it shows that
// revision's frames and texts, hides the other's, and clears what the
// other's calls showed, and the mark of the fastest, which compared them.
function chooseEra(col, era) {
  col.dataset.era = era;
  for (const el of col.querySelectorAll("[data-era]")) el.hidden = el.dataset.era !== era;
  clearFastest();
  clear(col);
  col.dataset.state = "idle";
}

// showOnce shows what crossed in one call of a column: the call's bytes
// and the session's.
function showOnce(col, o) {
  const target = col.dataset.target;
  for (const { step, r } of o.steps) showExchange(step.querySelector(".fw-step-result"), r, target);
  col.querySelector(".fw-last").hidden = o.call === null;
  if (o.call === null) return;
  showExchange(col.querySelector(".fw-result"), o.call, target);
}

// costOf adds up the whole cost of one call, the exchanges around it
// included: {trips, out, in}. Every exchange but gRPC's is one request
// and its answer; a gRPC dump says its own (http2Trips).
function costOf(o, target) {
  const sum = { trips: 0, out: 0, in: 0 };
  for (const r of o.steps.map((s) => s.r).concat([o.call])) {
    const t = totals(r, target);
    sum.out += t.out || 0;
    sum.in += t.in || 0;
    sum.trips += target === "grpc" ? http2Trips(back(r, target).text) : 1;
  }
  return sum;
}

// showCost writes the whole cost of one call beside the times. from
// says whose bytes they are: "call", "session" (MCP's, around its
// call), "dialed" (a gRPC call that opened its connection) or "kept"
// (one on a connection already open, when the tab never saw it open).
function showCost(col, cost, from) {
  setNumber(col.querySelector(".fw-trips"), number(cost.trips, 0), { trips: cost.trips });
  setNumber(col.querySelector(".fw-bytes-out"), bytes(cost.out), { bytes: cost.out });
  setNumber(col.querySelector(".fw-bytes-in"), bytes(cost.in), { bytes: cost.in });
  col.querySelector(".fw-cost").dataset.from = from;
}

// showFirst shows the first call of a run apart from the others, with
// what it included. stdioWasUp is stdioUp before the call was sent.
function showFirst(col, r, stdioWasUp) {
  const target = col.dataset.target;
  const warm = col.querySelector(".fw-warm");
  let why = "cold";
  if (target === "stdio") why = stdioWasUp ? "running" : "started";
  // The dump of a call that opened the connection starts with the
  // client's preface; a call on a kept connection has none.
  if (target === "grpc") why = /^-> PREFACE /m.test(back(r, target).text) ? "dialed" : "kept";
  warm.dataset.why = why;
  warm.querySelector(".fw-warm-why").textContent = words["warm" + why[0].toUpperCase() + why.slice(1)];
  if (r.wireNs !== null) setNumber(warm.querySelector(".fw-warm-wire"), duration(r.wireNs), { ns: r.wireNs });
  if (r.pageMs !== null) setNumber(warm.querySelector(".fw-warm-page"), duration(r.pageMs * 1e6), { ms: r.pageMs.toFixed(3) });
  showExchange(warm.querySelector(".fw-warm-result"), r, target);
  warm.hidden = false;
}

// spread sums up the measured calls' times: the median, and the fastest
// and the slowest. The median, not the mean, because one slow call (a
// garbage collection, a busy scheduler) pulls a mean of ten far off and
// a median hardly at all. The fastest and the slowest, not p10 and p90,
// because of ten calls p10 and p90 are only the second fastest and the
// second slowest: a cut that claims more than ten samples can tell, and
// that would hide the one slow call a learner ought to see.
function spread(values) {
  const v = values.filter((x) => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 === 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median: median, min: v[0], max: v[v.length - 1], n: v.length };
}

// callOf names call i of n in the page's language.
function callOf(i, n) {
  return words.callOf.replace("{i}", String(i)).replace("{n}", String(n));
}

// runColumn makes the column's call 1 + runs times, one after another,
// shows the first apart, the others' median and spread, and the whole
// cost of one call, and resolves with the spread on the wire in ns
// ({median, min, max, n}), or null when a call failed.
// progress is told the number of each call as it starts.
async function runColumn(col, progress) {
  const target = col.dataset.target;
  clear(col);
  col.dataset.state = "running";
  const measured = [];
  let first = null;
  let last = null;
  for (let i = 0; i <= runs; i++) {
    progress(i + 1, runs + 1);
    const stdioWasUp = stdioUp;
    const o = await once(col);
    if (target === "stdio" && o.call !== null && o.call.ok) stdioUp = true;
    if (o.error !== "") {
      showOnce(col, o);
      fail(col, callOf(i + 1, runs + 1) + ": " + o.error);
      return null;
    }
    if (i === 0) {
      first = o;
      showFirst(col, o.call, stdioWasUp);
    } else {
      measured.push(o.call);
    }
    if (i === runs) {
      last = o;
      showOnce(col, o);
    }
  }
  if (target === "grpc") {
    // The first call of a run is the one that may open the connection.
    if (col.querySelector(".fw-warm").dataset.why === "dialed") grpcCold = costOf(first, target);
    if (grpcCold !== null) showCost(col, grpcCold, "dialed");
    else showCost(col, costOf(first, target), "kept");
  } else {
    showCost(col, costOf(last, target), last.steps.length > 0 ? "session" : "call");
  }
  const wire = spread(measured.map((r) => r.wireNs));
  if (wire !== null) {
    setNumber(col.querySelector(".fw-wire-latency"), duration(wire.median), { ns: Math.round(wire.median) });
    setNumber(col.querySelector(".fw-wire-spread"), duration(wire.min) + " – " + duration(wire.max), { minNs: wire.min, maxNs: wire.max, runs: wire.n });
  }
  const page = spread(measured.map((r) => r.pageMs));
  if (page !== null) {
    setNumber(col.querySelector(".fw-page-latency"), duration(page.median * 1e6), { ms: page.median.toFixed(3) });
    setNumber(col.querySelector(".fw-page-spread"), duration(page.min * 1e6) + " – " + duration(page.max * 1e6), {
      minMs: page.min.toFixed(3),
      maxMs: page.max.toFixed(3),
      runs: page.n,
    });
  }
  col.querySelector(".fw-runs").hidden = false;
  col.dataset.state = "done";
  return wire;
}

function clearFastest() {
  delete root.dataset.fastest;
  delete root.dataset.verdict;
  for (const col of columns) {
    col.classList.remove("fw-fastest");
    col.querySelector(".fw-badge").hidden = true;
  }
}

// updateButtons turns every Run off while any run is under way: two
// runs at once would time each other's load.
function updateButtons() {
  runAllButton.disabled = busy > 0;
  for (const col of columns) {
    col.querySelector(".fw-run").disabled = busy > 0;
    const era = col.querySelector(".fw-era");
    if (era) era.disabled = busy > 0;
  }
}

// progressOf writes, in the status line, which call of which column is
// under way.
function progressOf(col) {
  const name = col.querySelector(".fw-name").textContent;
  return (i, n) => {
    status.textContent = name + ": " + words.running + " " + i + "/" + n;
  };
}

// runOne is a column's own Run: the other columns keep their results,
// but the mark of the fastest is taken away, since it compared runs
// made together.
async function runOne(col) {
  if (busy > 0) return;
  clearFastest();
  busy++;
  col.dataset.state = "running";
  updateButtons();
  try {
    await runColumn(col, progressOf(col));
  } finally {
    busy--;
    status.textContent = "";
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
    for (const col of columns) results.push({ col: col, wire: await runColumn(col, progressOf(col)) });
  } finally {
    busy--;
    root.dataset.state = "done";
    updateButtons();
  }
  const finished = results
    .filter((r) => r.wire !== null)
    .map((r) => ({ col: r.col, name: r.col.querySelector(".fw-name").textContent, median: r.wire.median, min: r.wire.min, max: r.wire.max }));
  // The verdict lives in a module of its own, which a test can import
  // and hold to its rule with numbers of its choosing.
  const v = verdict(finished);
  root.dataset.verdict = v.kind;
  const fill = (text, c) =>
    text
      .replace("{name}", c.name)
      .replace("{median}", duration(c.median))
      .replace("{max}", duration(c.max))
      .replace("{min}", duration(c.min));
  switch (v.kind) {
    case "none":
      status.textContent = words.noneDone;
      break;
    case "alone":
      status.textContent = fill(words.alone, v.best);
      break;
    case "fastest":
      v.best.col.classList.add("fw-fastest");
      v.best.col.querySelector(".fw-badge").hidden = false;
      root.dataset.fastest = v.best.col.dataset.wire;
      status.textContent = fill(words.done, v.best) + " " + fill(words.doneNext, v.next);
      break;
    case "close":
      status.textContent = fill(words.tooClose, v.best) + " " + fill(words.tooCloseRival, v.rival);
      break;
  }
}

// start hands the playground's messages to route and gives the Run
// buttons and the frames' Ctrl+Enter their runs.
function start() {
  wire.listen(route);
  runAllButton.addEventListener("click", runAll);
  for (const col of columns) {
    col.querySelector(".fw-run").addEventListener("click", () => runOne(col));
    const era = col.querySelector(".fw-era");
    if (era) {
      // A reloaded page may keep the choice made before: the column
      // follows it.
      if (era.value !== col.dataset.era) chooseEra(col, era.value);
      era.addEventListener("change", () => chooseEra(col, era.value));
    }
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
}

if (root) start();
