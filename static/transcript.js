// A console's transcript: the playground's events (playground/wire/doc.go)
// made into rows a learner reads, one per message on the wire, and the
// views of a row. An ES module: the consoles (console.js), a lesson's
// frames (frames.js) and the sequence diagram (sequence.js) import it.
//
//   import { Transcript, views } from "./transcript.js";
//   const transcript = new Transcript((what, row) => ...); // "row", "update", "stderr", "clear"
//   wire.listen((msg) => transcript.event(msg));
//   views.hex(transcript.rows[0]);
//
// A row is a plain object, so that it can be kept in localStorage:
//
//   {n, dir: "out"|"in"|"note", kind, target, to, ex (the frame's id),
//    at (the playground's RFC 3339 time), ms (the same, in ms),
//    text (pretty source), raw (the exact bytes, when they differ),
//    frames (a gRPC call's HTTP/2 frames, as the playground sent them:
//    {dir, type, stream, bytes in base64, cut}), size, summary,
//    rpc (JSON-RPC id as text, or ""), latency (ms or null),
//    ask (true: a request from the server the learner may answer),
//    answered (a request that has its answer; on an ask, the learner's),
//    era (the era of MCP the message belongs to, eraOf; absent if none),
//    notJSON (true: a line, or a whole answer that says it is JSON, that
//    is not),
//    findings (on a tap's rows: the tap check's findings about the
//    message, each {index, code, severity, event, detail, en, ru})}
//
// What becomes a row:
//   - a stdio frame: one row per line sent, one per line read back;
//   - an HTTP exchange: the request, then the answer's head with its body,
//     or, for an SSE stream, the head and then one row per event;
//   - a gRPC call: the request, then the whole exchange as captured, its
//     frames both ways; the request's row gets the client's frames then;
//     a tap's call comes again as it goes on, and its two rows are
//     redrawn, never added to;
//   - the playground's refusals and fixes, as notes.
// stderr of a child is not a row: it goes to its own pane.
//
// The eras of MCP (protocols/mcp/era.go) can share one server, so a row
// says which its message is in, as row.era, for the page to tag beside
// the bytes, which stay as they crossed:
//   - "modern": a 2026-07-28 request, which stands alone: its
//     params._meta has a key of that revision
//     (io.modelcontextprotocol/protocolVersion and its fellows), the
//     server's own test, or it is server/discover, which only that
//     revision has; and the answer to it;
//   - "session": initialize, and what follows it in the 2025-11-25
//     session it opens: over HTTP the messages that carry Mcp-Session-Id,
//     on stdio those sent to the same server process until it exits, the
//     server's requests to the learner there, and the answers to them all.
// A message of neither (a notification of the server's, a request
// before any initialize, another protocol's) has no era.
//
// A tap's events (playground/wire/tap.go) carry "seq", the number of
// the tap's event they come from, and the tap's check sends each finding
// as an event of kind "finding" naming that number: the transcript puts
// it on the row that shows the event, and tells "findings" when the
// count changes. A finding that comes again, changed, replaces itself.

// words are the few the transcript writes itself, in the page's
// language; the playground's notes and refusals come worded in it
// already (playground/wire/notes_text.go). A row that is not JSON says
// so in its summary, and in row.notJSON for whoever reads rows.
const words = {
  en: { notJSON: "not JSON", noStatus: "no grpc-status", cut: (n) => n + " bytes more, not sent to the page" },
  ru: { notJSON: "не JSON", noStatus: "нет grpc-status", cut: (n) => "ещё " + n + " байт, не переданных странице" },
};
const W = words[globalThis.document ? document.documentElement.lang : "en"] || words.en;

// atMillis turns the playground's RFC 3339 time, which has nanoseconds,
// into milliseconds with the fraction kept (Date.parse keeps only ms).
export function atMillis(at) {
  const m = /^(.*T\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(at || "");
  if (!m) return Date.parse(at) || 0;
  return Date.parse(m[1] + m[3]) + (m[2] ? parseFloat(m[2]) * 1000 : 0);
}

export function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    return undefined;
  }
}

// describe names a JSON message: a JSON-RPC request, notification,
// result or error, or a stdio tool call and its answer.
function describe(msg) {
  if (msg === null || typeof msg !== "object" || Array.isArray(msg)) return { summary: "", rpc: "" };
  const rpc = msg.id === undefined || msg.id === null ? "" : JSON.stringify(msg.id);
  const idText = rpc ? " (id " + rpc + ")" : "";
  if (typeof msg.method === "string") return { summary: msg.method + idText, rpc: rpc, request: rpc !== "" };
  if (typeof msg.name === "string") return { summary: msg.name + idText, rpc: rpc, request: rpc !== "" };
  if (msg.error) {
    const code = msg.error.code !== undefined ? msg.error.code : "";
    return { summary: "error " + code + idText, rpc: rpc };
  }
  if (msg.result !== undefined) {
    const a2a = carries(msg.result);
    if (a2a) return { summary: a2a + idText, rpc: rpc };
    const bad = msg.result && msg.result.isError ? " isError" : "";
    return { summary: "result" + bad + idText, rpc: rpc };
  }
  return { summary: "", rpc: rpc };
}

// carries says what an A2A result carries, in the revision's own words,
// or "" for a result that is not A2A's. A 1.0 result names it with one
// member (statusUpdate, artifactUpdate, task, message); a 0.3 result
// with "kind" (status-update, artifact-update, task, message); GetTask
// and CancelTask answer a task itself in both.
function carries(r) {
  if (r === null || typeof r !== "object") return "";
  const isTask = (t) => t && typeof t === "object" && typeof t.id === "string" && t.status && typeof t.status.state === "string";
  const task = (t) => "task " + t.id + " " + t.status.state + said(t.status);
  const status = (u) => (u.status && typeof u.status.state === "string" ? u.status.state + said(u.status) : "");
  const artifact = (u) => (u.artifact ? JSON.stringify(u.artifact.name || u.artifact.artifactId || "") : "") + (u.lastChunk ? " lastChunk" : "");
  if (r.statusUpdate) return "statusUpdate " + status(r.statusUpdate);
  if (r.artifactUpdate) return "artifactUpdate " + artifact(r.artifactUpdate);
  if (isTask(r.task)) return task(r.task);
  if (isMessage(r.message)) return "message " + message(r.message);
  switch (r.kind) {
    case "status-update":
      return "status-update " + status(r) + (r.final ? " final" : "");
    case "artifact-update":
      return "artifact-update " + artifact(r);
    case "task":
      return isTask(r) ? task(r) : "";
    case "message":
      return isMessage(r) ? "message " + message(r) : "";
  }
  return isTask(r) ? task(r) : "";
}

function isMessage(m) {
  return m && typeof m === "object" && typeof m.role === "string" && Array.isArray(m.parts);
}

// message is an A2A message's role and the start of its first text.
function message(m) {
  const text = firstText(m.parts);
  return m.role + (text ? ": " + text : "");
}

// said is the start of the text of a status's message, if it has one.
function said(status) {
  const text = status && isMessage(status.message) ? firstText(status.message.parts) : "";
  return text ? " · " + text : "";
}

// summaryText is how much of a message's text a summary shows.
const summaryText = 40;

function firstText(parts) {
  const p = (parts || []).find((p) => p && typeof p.text === "string");
  if (!p) return "";
  const t = p.text.replace(/\s+/g, " ").trim();
  return t.length > summaryText ? t.slice(0, summaryText - 1) + "…" : t;
}

// isModern tells whether a JSON message is a request of the 2026-07-28
// era: server/discover, or one whose params._meta has a key of that
// revision's, io.modelcontextprotocol/...
function isModern(msg) {
  if (msg === null || typeof msg !== "object") return false;
  if (msg.method === "server/discover") return true;
  const meta = msg.params && typeof msg.params === "object" ? msg.params._meta : null;
  return meta !== null && typeof meta === "object" && Object.keys(meta).some((k) => k.startsWith("io.modelcontextprotocol/"));
}

// splitHTTP separates an HTTP message's head from its body.
export function splitHTTP(text) {
  const t = text.replace(/\r\n/g, "\n");
  const i = t.indexOf("\n\n");
  if (i < 0) return { head: t, body: "" };
  return { head: t.slice(0, i), body: t.slice(i + 2) };
}

// sseEvents cuts complete SSE events off the front of buf; what is left
// is the start of an event still arriving.
function sseEvents(buf) {
  const events = [];
  let rest = buf.replace(/\r\n/g, "\n");
  let i;
  while ((i = rest.indexOf("\n\n")) >= 0) {
    const block = rest.slice(0, i);
    rest = rest.slice(i + 2);
    if (block.trim() === "") continue;
    const ev = { event: "message", data: [], id: "", block: block + "\n\n" };
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue; // a comment
      const c = line.indexOf(":");
      const field = c < 0 ? line : line.slice(0, c);
      let value = c < 0 ? "" : line.slice(c + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "data") ev.data.push(value);
      else if (field === "event") ev.event = value;
      else if (field === "id") ev.id = value;
    }
    ev.data = ev.data.join("\n");
    events.push(ev);
  }
  return { events: events, rest: rest };
}

export class Transcript {
  constructor(onChange) {
    this.rows = [];
    this.onChange = onChange || (() => {});
    this.exchanges = new Map(); // frame id -> {request row, head row, sse buffer, raw}
    this.fixes = new Map(); // frame id -> what the playground fixed in its request
    this.stderr = [];
    // The stdio servers (target and "to") that initialize has gone to
    // since they started: what goes to them is in a 2025-11-25 session.
    this.sessions = new Set();
    this.bySeq = new Map(); // a tap's event number -> the row that shows it
    this.findings = new Map(); // a finding's index in the tap's check -> the finding
  }

  // eraOf finds the era of a message the learner sent (see the top of
  // this file): msg is its JSON (undefined if it is not JSON), head its
  // HTTP head ("" on stdio), child the stdio server it went to.
  eraOf(msg, head, child) {
    if (isModern(msg)) return "modern";
    if (msg && msg.method === "initialize") {
      if (head === "") this.sessions.add(child);
      return "session";
    }
    if (head !== "") return /^mcp-session-id:/im.test(head) ? "session" : "";
    return this.sessions.has(child) ? "session" : "";
  }

  add(row) {
    row.n = this.rows.length + 1;
    this.rows.push(row);
    this.onChange("row", row);
    return row;
  }

  // matchLatency finds the request an answer answers: the latest row
  // sent to the same target with the same JSON-RPC id and no answer yet.
  matchLatency(row) {
    if (!row.rpc) return;
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const r = this.rows[i];
      if (r.dir === "out" && r.target === row.target && r.to === row.to && r.rpc === row.rpc && !r.answered && r.request) {
        r.answered = true;
        row.latency = row.ms - r.ms;
        row.answers = r.n;
        if (r.era) row.era = r.era; // an answer is in its request's era
        return;
      }
    }
  }

  // matchAsk finds the request from the server that an answer the
  // learner sent answers (same target, same JSON-RPC id), and marks it
  // answered, so that it offers no Answer any more.
  matchAsk(row) {
    if (!row.rpc || row.request) return;
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const r = this.rows[i];
      if (r.ask && !r.answered && r.target === row.target && r.to === row.to && r.rpc === row.rpc) {
        r.answered = true;
        row.answers = r.n;
        this.onChange("update", r);
        return;
      }
    }
  }

  // event takes one message from the playground.
  event(ev) {
    if (ev.op === "event" && ev.kind === "finding") return this.finding(ev);
    const before = this.rows.length;
    this.take(ev);
    if (ev.seq) this.place(ev, before);
  }

  // place remembers the row that shows a tap's event: the first row it
  // made or, for the part of an HTTP answer that makes none (its body,
  // its end), the answer's row. The "raw" bytes of an answer's head come
  // before the head's row, with the same number.
  place(ev, before) {
    if (ev.kind === "raw" || this.bySeq.has(ev.seq)) return;
    let row = this.rows[before];
    if (!row && ev.id) {
      // A tap's gRPC call shows its host's frames on the call's row and
      // the server's on the answer's.
      const x = this.exchanges.get(ev.id);
      row = x && (ev.kind === "grpc-call" ? x.request : x.head || x.answer || x.request);
    }
    if (row) this.bySeq.set(ev.seq, row);
  }

  // finding puts a finding of a tap's check on the row of the event it
  // names. One whose row is not here (its event came before the replay
  // began, or shows as no row, as a connection's own gRPC frames do) is
  // counted all the same.
  finding(ev) {
    const f = ev.finding;
    if (!f) return;
    this.findings.set(f.index, f);
    const row = this.bySeq.get(f.event);
    if (row) {
      row.findings = (row.findings || []).filter((x) => x.index !== f.index).concat([f]);
      this.onChange("update", row);
    }
    this.onChange("findings");
  }

  // counts are the findings so far, by severity.
  counts() {
    const n = { error: 0, warning: 0, note: 0 };
    for (const f of this.findings.values()) n[f.severity] = (n[f.severity] || 0) + 1;
    return n;
  }

  // take takes one message that is not a finding.
  take(ev) {
    if (ev.op === "error") {
      this.add({ dir: "note", kind: "refused", target: ev.target || "", ex: ev.id, at: "", ms: 0, text: ev.message, size: 0, summary: ev.message });
      return;
    }
    if (ev.op !== "event") return;
    const base = { target: ev.target, to: ev.to || "", ex: ev.id || 0, at: ev.at, ms: atMillis(ev.at) };
    switch (ev.kind) {
      case "line":
        return this.line(ev, base);
      case "stderr":
        this.stderr.push({ at: ev.at, target: ev.target, text: ev.text });
        this.onChange("stderr", ev);
        return;
      case "http-request":
        return this.httpRequest(ev, base);
      case "raw":
        return this.raw(ev);
      case "http-head":
        return this.httpHead(ev, base);
      case "http-body":
        return this.httpBody(ev, base);
      case "grpc-call":
        return this.grpcCall(ev, base);
      case "grpc":
        return this.grpc(ev, base);
      default: // fix, exit, end, session-end: the playground's notes
        if (ev.kind === "end") {
          const x = this.exchanges.get(ev.id);
          if (x && x.head) {
            // A whole answer that says it is JSON and is not: the row
            // says so, beside the bytes as they came.
            const body = splitHTTP(x.head.text).body;
            if (!x.stream && /^content-type:\s*application\/json/im.test(x.head.text) && body.trim() !== "" && parseJSON(body) === undefined) {
              x.head.summary = x.head.text.split("\n")[0] + " · " + W.notJSON;
              x.head.notJSON = true;
            }
            this.onChange("update", x.head);
          }
          return;
        }
        if (ev.kind === "fix") {
          // The playground fixed the request before sending it: the fix
          // belongs to the request's row, which comes next.
          const fixes = this.fixes.get(ev.id) || [];
          fixes.push(ev.text);
          this.fixes.set(ev.id, fixes);
          return;
        }
        // A server that exited took its session with it.
        if (ev.kind === "exit") this.sessions.delete(server(base));
        // A note may run to several lines (a crashed server's exit
        // status, then the tail of its stderr): the row shows the first.
        this.add(Object.assign(base, { dir: "note", kind: ev.kind, text: ev.text, size: 0, summary: ev.text.split("\n")[0] }));
    }
  }

  line(ev, base) {
    // A frame may hold several lines: each is a message of its own.
    const lines = ev.text.split("\n").filter((l) => l !== "");
    for (const l of lines) {
      const msg = parseJSON(l);
      const d = describe(msg);
      const row = Object.assign({}, base, {
        dir: ev.dir, kind: "line", text: l, size: new TextEncoder().encode(l + "\n").length,
        summary: msg === undefined ? W.notJSON : d.summary, rpc: d.rpc, request: !!d.request,
      });
      if (msg === undefined) row.notJSON = true;
      if (ev.dir === "out") {
        const era = this.eraOf(msg, "", server(base));
        if (era) row.era = era;
      } else if (ev.dir === "in" && d.request) {
        row.ask = true; // the server asks the client
        // Only a session's server asks: the 2026-07-28 one asks in its
        // result (input_required) instead.
        if (this.sessions.has(server(base))) row.era = "session";
      } else if (ev.dir === "in") {
        this.matchLatency(row);
      }
      this.add(row);
      if (ev.dir === "out") this.matchAsk(row);
    }
  }

  httpRequest(ev, base) {
    const { head, body } = splitHTTP(ev.text);
    const first = head.split("\n")[0];
    const msg = parseJSON(body);
    const d = describe(msg);
    const era = this.eraOf(msg, head, "");
    if (era) base.era = era;
    const row = this.add(Object.assign(base, {
      dir: "out", kind: "http", text: ev.text, size: ev.size, summary: first + (d.summary ? " · " + d.summary : ""), rpc: d.rpc, request: !!d.request,
      notes: this.fixes.get(ev.id) || [],
    }));
    this.fixes.delete(ev.id);
    this.exchanges.set(ev.id, { request: row, head: null, sse: "", raw: "", stream: false });
    this.matchAsk(row);
  }

  raw(ev) {
    const x = this.exchanges.get(ev.id);
    if (!x) return;
    x.raw += ev.text;
    if (x.head) {
      x.head.raw = x.raw;
      x.head.size = new TextEncoder().encode(x.raw).length;
    }
  }

  httpHead(ev, base) {
    const x = this.exchanges.get(ev.id) || { request: null, sse: "", raw: "" };
    const status = ev.text.split("\n")[0];
    x.stream = /^content-type:\s*text\/event-stream/im.test(ev.text);
    // The head arrives without the blank line that ends it; the body,
    // if any, is added after one.
    const head = ev.text.replace(/\r\n/g, "\n").replace(/\n*$/, "\n\n");
    const row = this.add(Object.assign(base, {
      dir: "in", kind: "http", text: head, raw: x.raw, size: new TextEncoder().encode(x.raw).length, summary: status, rpc: "",
    }));
    if (x.request) {
      row.latency = row.ms - x.request.ms;
      row.answers = x.request.n;
      if (x.request.era) row.era = x.request.era;
    }
    x.head = row;
    this.exchanges.set(ev.id, x);
  }

  httpBody(ev, base) {
    const x = this.exchanges.get(ev.id);
    if (!x || !x.head) return;
    if (!x.stream) {
      // A plain body belongs to the head's row: one row, one answer.
      x.head.text += ev.text;
      const d = describe(parseJSON(splitHTTP(x.head.text).body));
      if (d.summary) x.head.summary = x.head.text.split("\n")[0] + " · " + d.summary;
      if (d.request) x.head.ask = true;
      this.onChange("update", x.head);
      return;
    }
    const { events, rest } = sseEvents(x.sse + ev.text);
    x.sse = rest;
    for (const e of events) {
      const msg = parseJSON(e.data);
      const d = describe(msg);
      const row = Object.assign({}, base, {
        dir: "in", kind: "sse", text: e.block, size: new TextEncoder().encode(e.block).length,
        summary: "SSE " + e.event + (e.id ? " #" + e.id : "") + (d.summary ? " · " + d.summary : ""), rpc: d.rpc, sseData: e.data,
      });
      if (x.request && x.request.era) row.era = x.request.era;
      if (d.request) row.ask = true;
      else if (d.rpc) {
        row.latency = row.ms - x.request.ms;
        row.answers = x.request.n;
      } else if (x.request) row.latency = row.ms - x.request.ms;
      this.add(row);
    }
  }

  // grpcCall is the call as the learner typed it: its bytes, and so
  // its size, come with the capture. A tap's call (it has "seq") is the
  // call as the host made it, which comes again as its messages come.
  grpcCall(ev, base) {
    const method = ev.text.split("\n")[0].trim();
    const known = ev.seq && this.exchanges.get(ev.id);
    if (known && known.request) {
      // A tap's call again, now with more of its request: the same row.
      Object.assign(known.request, { text: ev.text, summary: method });
      if (!known.request.frames) known.request.size = ev.size || 0;
      this.onChange("update", known.request);
      return;
    }
    const row = this.add(Object.assign(base, { dir: "out", kind: "grpc", text: ev.text, size: ev.size || 0, summary: method }));
    this.exchanges.set(ev.id, { request: row });
  }

  // grpc is the call as captured: its frames both ways, and the
  // annotated dump of them. The request's row gets the client's frames.
  grpc(ev, base) {
    const x = this.exchanges.get(ev.id);
    // The capture's first line says how the call ended: "call /pkg.S/M
    // on stream 1: OK (0)", or the status the client saw.
    const first = /^call \S+ on stream \d+: (.*)$/m.exec(ev.text);
    const status = /grpc-status:\s*(\d+)/.exec(ev.text);
    const frames = ev.frames || [];
    const row = Object.assign(base, {
      dir: "in", kind: "grpc", text: ev.text, size: ev.size, frames: frames,
      summary: first ? first[1] : status ? "grpc-status " + status[1] : W.noStatus,
    });
    if (x && x.request) {
      row.latency = row.ms - x.request.ms;
      row.answers = x.request.n;
      const sent = frames.filter((f) => f.dir === "out");
      if (sent.length > 0) {
        x.request.frames = sent;
        x.request.size = sent.reduce((n, f) => n + frameSize(f), 0);
        this.onChange("update", x.request);
      }
    }
    if (ev.seq && x && x.answer) {
      // A tap's call shows its answer as it comes: the same row, redrawn.
      row.n = x.answer.n;
      Object.assign(x.answer, row);
      this.onChange("update", x.answer);
      return;
    }
    this.add(row);
    if (x) x.answer = row;
  }

  // restore puts back rows kept from before a reload.
  restore(rows) {
    for (const r of rows) {
      r.old = true;
      this.add(r);
    }
  }

  // clear empties the transcript; the servers, and the sessions they
  // hold, go on.
  clear() {
    this.rows = [];
    this.exchanges.clear();
    this.fixes.clear();
    this.stderr = [];
    this.bySeq.clear();
    this.findings.clear();
    this.onChange("clear");
  }
}

// server names the stdio server a row's message went to or came from.
function server(row) {
  return row.target + " " + (row.to || "");
}

// frameBytes decodes a frame's base64 bytes.
function frameBytes(f) {
  const s = atob(f.bytes || "");
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

// frameSize is a frame's size on the wire, bytes left out included.
function frameSize(f) {
  return Math.floor(((f.bytes || "").replace(/=+$/, "").length * 3) / 4) + (f.cut || 0);
}

// frameLabel heads a frame's bytes in the raw and hex views, in the
// words of the annotated dump (the pretty view): "-> HEADERS stream=1
// len=85", len being the payload's, after the 9-byte header.
function frameLabel(f) {
  const size = frameSize(f);
  const len = f.type === "PREFACE" ? size : size - 9;
  return (f.dir === "in" ? "<- " : "-> ") + f.type + (f.type === "PREFACE" ? "" : " stream=" + (f.stream || 0)) + " len=" + len;
}

// framed shows each frame of a row, in the order they crossed, under
// its label, the bytes written by show.
function framed(row, show) {
  return row.frames
    .map((f) => frameLabel(f) + "\n" + show(frameBytes(f)) + (f.cut ? "\n... (" + W.cut(f.cut) + ")" : ""))
    .join("\n\n");
}

// hasBytes says whether a row carries the bytes that crossed. A gRPC
// row has them once the call is captured: before, it has only the call
// as typed, which is not what crosses.
export function hasBytes(row) {
  return row.kind !== "grpc" || (row.frames || []).length > 0;
}

// secretPatterns find what the views cut short: a bearer token in a
// header, tokens and secrets in a JSON body, and the code and tokens in
// a query string or a form. Each keeps its name and the value's first
// characters, so that two values can still be told apart.
const secretPatterns = [
  /(\bBearer\s+)([A-Za-z0-9\-._~+/]{8,}=*)/gi,
  /("(?:access_token|refresh_token|id_token|client_secret)"\s*:\s*")([^"]{8,})/g,
  /((?:^|[?&\s])(?:code|access_token|refresh_token|client_secret)=)([^&\s"]{8,})/g,
];

// maskSecrets cuts every token and secret in text to its first four
// characters and its length: what a row's views show until the reader
// asks for the whole value.
export function maskSecrets(text) {
  let out = text;
  for (const re of secretPatterns) {
    out = out.replace(re, (_, name, value) => name + value.slice(0, 4) + "…(" + value.length + " chars)");
  }
  return out;
}

// views are the views of a row, by the name its tab has: pretty (JSON
// indented, HTTP head then body, the gRPC dump), raw (the bytes as they
// crossed, with CR shown), hex (offset, bytes, text). Raw and hex of a
// row without its bytes are "".
export const views = { pretty: pretty, raw: raw, hex: hex };

function pretty(row) {
  if (row.kind === "line") {
    const msg = parseJSON(row.text);
    return msg === undefined ? row.text : JSON.stringify(msg, null, 2);
  }
  if (row.kind === "sse") {
    const msg = parseJSON(row.sseData);
    return msg === undefined ? row.text : row.text.split("\n").filter((l) => !l.startsWith("data:")).join("\n").trim() + "\ndata:\n" + JSON.stringify(msg, null, 2);
  }
  if (row.kind === "http") {
    const { head, body } = splitHTTP(row.text);
    const msg = parseJSON(body);
    const notes = (row.notes || []).map((n) => "· " + n + "\n").join("");
    return notes + head + "\n\n" + (msg === undefined ? body : JSON.stringify(msg, null, 2));
  }
  return row.text;
}

function raw(row) {
  if (!hasBytes(row)) return "";
  if (row.frames) return framed(row, rawBytes);
  return (row.raw || row.text).replace(/\r/g, "␍").replace(/\t/g, "→");
}

// rawBytes writes binary bytes as text: printable ASCII as it is, CR,
// LF and tab as the marks the raw view uses, anything else as \xNN.
function rawBytes(bytes) {
  let s = "";
  for (const b of bytes) {
    if (b === 0x5c) s += "\\\\";
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    else if (b === 0x0d) s += "␍";
    else if (b === 0x0a) s += "␊";
    else if (b === 0x09) s += "→";
    else s += "\\x" + b.toString(16).padStart(2, "0");
  }
  return s;
}

function hex(row) {
  if (!hasBytes(row)) return "";
  if (row.frames) return framed(row, hexDump);
  return hexDump(new TextEncoder().encode(row.raw || row.text));
}

// hexDump writes bytes 16 to a line: offset, bytes, text.
function hexDump(bytes) {
  const lines = [];
  for (let off = 0; off < bytes.length; off += 16) {
    const chunk = bytes.slice(off, off + 16);
    const h = Array.from(chunk, (b) => b.toString(16).padStart(2, "0"));
    while (h.length < 16) h.push("  ");
    const text = Array.from(chunk, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
    lines.push(off.toString(16).padStart(8, "0") + "  " + h.slice(0, 8).join(" ") + "  " + h.slice(8).join(" ") + "  |" + text + "|");
  }
  return lines.join("\n");
}

// shortTo is a custom target's "to" made short enough for a column or a
// lane: a command line with every path cut to its last part ("python3
// /home/me/srv/server.py" is "python3 server.py"), clipped to
// shortToLength; the whole line goes in a tooltip beside it.
const shortToLength = 24;
export function shortTo(target, to) {
  let s = String(to || "").trim();
  if (target === "custom-stdio") s = s.split(/\s+/).map((w) => w.replace(/^.*\/(?=[^/])/, "")).join(" ");
  return s.length > shortToLength ? s.slice(0, shortToLength - 1).trimEnd() + "…" : s;
}
