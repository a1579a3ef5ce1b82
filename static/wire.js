// The page's end of the playground's websocket (/ws), the browser's side
// of playground/wire: an ES module that the runnable frames (frames.js),
// the consoles (console.js) and the five-wires page (fivewires.js)
// import.
//
//   import { WireSocket } from "./wire.js";
//   const wire = new WireSocket();
//   wire.listen((msg) => ...);      // every message from the playground
//   const id = wire.send({ op: "send", target: "http", frame: "GET /tools HTTP/1.1\n\n" });
//   const follower = new WireSocket("/ws?watch=presenter"); // read only
//
// Messages from the playground are described in playground/wire/doc.go. The
// socket opens on the first send and opens again after it closes; the
// playground then starts stdio servers afresh. The socket's URL carries
// the page's language (?lang=), in which the playground words its notes
// and refusals: an embedded page in Russian has no cookie that says so.
export class WireSocket {
  constructor(path) {
    this.path = path || "/ws";
    this.socket = null;
    this.lastID = 0;
    this.queue = []; // messages waiting for the socket to open
    this.listeners = [];
    this.session = ""; // the session's id, from the playground's hello
    // A page the browser keeps for "back" (the back/forward cache) may
    // keep its socket open, and with it the session, its servers and a
    // presentation nobody sees: the socket closes when the page is
    // hidden, and the page opens it again as after any close.
    addEventListener("pagehide", () => this.close());
  }

  // close closes the socket, if it is open; the next send opens it again.
  close() {
    if (this.socket !== null) this.socket.close();
  }

  // listen calls fn with every message, parsed, and with
  // {op: "closed", opened} when the connection ends; opened is false when
  // it never opened (the playground answered the upgrade with an error,
  // such as 404 for a session that is not there, which a page cannot
  // read from a WebSocket).
  listen(fn) {
    this.listeners.push(fn);
  }

  connect() {
    if (this.socket !== null) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(scheme + "//" + location.host + withLang(this.path));
    this.socket = socket;
    let opened = false;
    socket.addEventListener("open", () => {
      opened = true;
      while (this.queue.length > 0) socket.send(this.queue.shift());
    });
    socket.addEventListener("message", (m) => {
      const msg = JSON.parse(m.data);
      if (msg.op === "hello") this.session = msg.session || "";
      msg.received = performance.now();
      for (const fn of this.listeners) fn(msg);
    });
    socket.addEventListener("close", () => {
      if (this.socket === socket) this.socket = null;
      for (const fn of this.listeners) fn({ op: "closed", opened: opened });
    });
  }

  // open opens the socket now and resolves once it is open, so that a
  // page timing its first call does not time the opening too; it rejects
  // if the socket closes first.
  open() {
    this.connect();
    const socket = this.socket;
    if (socket.readyState === WebSocket.OPEN) return Promise.resolve();
    return new Promise((resolve, reject) => {
      socket.addEventListener("open", () => resolve(), { once: true });
      socket.addEventListener("close", () => reject(new Error(W.closed)), { once: true });
    });
  }

  // send gives msg the next id, unless it has one, sends it, and returns
  // the id.
  send(msg) {
    if (msg.id === undefined) msg.id = ++this.lastID;
    const text = JSON.stringify(msg);
    this.connect();
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
    else this.queue.push(text);
    return msg.id;
  }
}

// lang is the page's language, "en" or "ru".
const lang = document.documentElement.lang === "ru" ? "ru" : "en";

// words are this module's own, in the page's language.
const words = {
  en: { closed: "the connection to the playground closed" },
  ru: { closed: "соединение с песочницей закрылось" },
};
const W = words[lang];

// withLang adds the page's language to a websocket path.
function withLang(path) {
  return path + (path.includes("?") ? "&" : "?") + "lang=" + lang;
}

// oauthLearned says where, in the body of an answer, each placeholder of
// the OAuth flow is found (the code is in a Location header instead).
const oauthLearned = [
  ["{{resource}}", /"resource":\s*"([^"]+)"/],
  ["{{client_id}}", /"client_id":\s*"([^"]+)"/],
  ["{{csrf}}", /name="csrf" value="([^"]+)"/],
  ["{{access_token}}", /"access_token":\s*"([^"]+)"/],
];

// WireKnown remembers, from the answers seen so far, what a later frame
// may refer to: {{session}}, the MCP session's id (the Mcp-Session-Id
// header of an answer), {{requestState}}, the requestState of the last
// MCP input_required result (which the retry echoes), and {{task}}, the
// last A2A task's id. The OAuth flow adds five, each taken from the
// answer where a real client finds it: {{resource}} from the protected
// resource metadata, {{client_id}} from the registration answer,
// {{csrf}} from the consent page's form, {{code}} from the Location of
// the redirect after Allow, {{access_token}} from the token answer. Both
// the consoles and a lesson's frames fill their placeholders with it.
export class WireKnown {
  constructor() {
    this.session = "";
    // The session of each server, by where (its target, and a custom
    // target's "to"): the learner's own server fills {{session}} with
    // its own id, never with another server's.
    this.sessions = new Map();
    this.requestState = "";
    this.task = "";
    this.oauth = {}; // placeholder name -> value, for the OAuth flow's five
  }

  // learn reads one message from the playground.
  learn(msg) {
    if (msg.kind === "http-head") {
      const m = /^mcp-session-id:\s*(\S+)/im.exec(msg.text);
      if (m) {
        this.session = m[1];
        this.sessions.set(where(msg.target, msg.to), m[1]);
      }
      const code = msg.dir === "in" && /^location:\s*\S*[?&]code=([^&\s]+)/im.exec(msg.text);
      if (code) this.oauth["{{code}}"] = decodeURIComponent(code[1]);
    }
    if (msg.kind === "http-body" && msg.dir === "in") {
      for (const [name, re] of oauthLearned) {
        const m = re.exec(msg.text);
        if (m) this.oauth[name] = m[1];
      }
    }
    if (msg.kind === "http-body" || msg.kind === "line") {
      const m = /"task":\{"id":"([^"]+)"/.exec(msg.text) || /"taskId":"([^"]+)"/.exec(msg.text);
      if (m) this.task = m[1];
      // A2A 0.3 answers with the task itself as the result, marked by
      // its kind, its id among the task's fields.
      const v03 = msg.dir === "in" && /"kind"\s*:\s*"task"/.test(msg.text) && a2aTask(msg.text);
      if (v03) this.task = v03;
      // Only the server's: the retry that echoes it carries it too.
      const state = msg.dir === "in" && /"requestState":"([^"]+)"/.exec(msg.text);
      if (state) this.requestState = state[1];
    }
  }

  // fill puts what is known in a frame's placeholders; one not known yet
  // stays as it is, for the page to point out. With target (and a custom
  // target's to), {{session}} is that server's session: for the
  // learner's own server only its own; for wirelab's, the latest if it
  // has none.
  fill(frame, target, to) {
    let session = this.session;
    if (target !== undefined) {
      const own = this.sessions.get(where(target, to));
      session = own || (String(target).startsWith("custom-") ? "" : this.session);
    }
    let f = frame
      .replaceAll("{{session}}", session || "{{session}}")
      .replaceAll("{{requestState}}", this.requestState || "{{requestState}}")
      .replaceAll("{{task}}", this.task || "{{task}}");
    for (const [name, value] of Object.entries(this.oauth)) f = f.replaceAll(name, value);
    return f;
  }

  // unfill puts the placeholders back where a frame holds what is known
  // here, and {{host}} in its Host header: the frame of one session (the
  // presenter's), made fit to send in another (a student's own), whose
  // fill gives them its own values.
  unfill(frame) {
    // An HTTP frame's Host names the server the presenter's playground
    // reaches, which another playground reaches at its own address.
    let f = /^[A-Z]+ \S+ HTTP\/1\.[01]\r?\n/.test(frame) ? frame.replace(/^(host:[ \t]*)\S+[ \t]*$/im, "$1{{host}}") : frame;
    if (this.session) f = f.replaceAll(this.session, "{{session}}");
    if (this.requestState) f = f.replaceAll(this.requestState, "{{requestState}}");
    if (this.task) f = f.replaceAll(this.task, "{{task}}");
    for (const [name, value] of Object.entries(this.oauth)) f = f.replaceAll(value, name);
    return f;
  }
}

// where names the server a message went to or came from: its target,
// and a custom target's "to" as the page sent it (the first word: a URL
// without its options).
function where(target, to) {
  return (target || "") + " " + String(to || "").trim().split(/\s+/)[0];
}

// a2aTask is the id of an A2A 0.3 task that a JSON-RPC answer carries as
// its result ({"result":{"kind":"task","id":…}}), or "".
function a2aTask(text) {
  try {
    const r = JSON.parse(text).result;
    return r && r.kind === "task" && typeof r.id === "string" ? r.id : "";
  } catch (e) {
    return "";
  }
}
