// The learner's own server on the MCP and A2A consoles, first class:
// reached as wirelab's own servers are, and offered templates built from
// what it declares.
//
//   - MCP: a stdio server by its command (custom-stdio), a Streamable
//     HTTP one by its endpoint's URL (custom-http), http:// or https://.
//     Once initialize (or server/discover) is answered, "Ask what it
//     declares" sends tools/list, resources/list,
//     resources/templates/list and prompts/list, in the revision the server answered, and their
//     answers become templates: a tools/call per tool with its arguments'
//     skeleton from its inputSchema, a resources/read per resource and
//     per resource template (its {variables} left for the learner to
//     fill), a prompts/get per prompt. A list answer with a nextCursor is
//     followed (up to maxDeclared) when the console asked for it, and
//     offered as a "next page" template when the learner did. Any list
//     answer the learner asks for is read the same way. What a server
//     declared is kept in the browser across reloads (localStorage, at
//     most maxKept servers), so its templates are there at once; its
//     session is not, and a 2025-11-25 server needs initialize again.
//   - A2A: the agent by its card's URL. "Read the card" GETs it; the card
//     names the JSON-RPC endpoint that the requests then go to, and its
//     skills become SendMessage templates, in the card's A2A version,
//     with one more that answers a task waiting for input ({{task}}).
//   - Headers typed once (Authorization: Bearer …) go with every request
//     to an HTTP server that lacks them; they are kept for the tab only
//     (sessionStorage), and the views cut tokens short.
//   - The connection doctor (doctor.js) marks an exchange with the
//     server that failed, saying which step and what to change.
//
// console.js makes one OwnServer on the MCP and A2A consoles and calls
// it at a few points: listing templates, picking one, sending, and
// drawing a row.
import { splitHTTP, parseJSON } from "./transcript.js";
import { diagnose, adviceFor } from "./doctor.js";

const modernVersion = "2026-07-28";
// maxDeclared bounds the templates made from one list: a server may
// declare thousands of tools, and a <select> of thousands helps nobody.
const maxDeclared = 200;
// maxDepth bounds how deep an arguments skeleton follows nested objects:
// a schema may be recursive ($ref), or just deep.
const maxDepth = 4;
// firstDeclaredID is where the ids of the declared templates start,
// apart from the ids of wirelab's templates.
const firstDeclaredID = 100;
// maxKept bounds the servers whose declarations are kept across reloads.
const maxKept = 8;
// listMethods are the MCP lists "Ask what it declares" sends, each with
// the field of its answer that holds the list and the field that names
// an entry.
const listMethods = {
  "tools/list": ["tools", "name"],
  "resources/list": ["resources", "uri"],
  "resources/templates/list": ["resourceTemplates", "uriTemplate"],
  "prompts/list": ["prompts", "name"],
};

export class OwnServer {
  // o: slug ("mcp" or "a2a"), text (the page's T.own), to (the "to"
  // input), row (the custom target's bar), target() (the current
  // target), send(frame) (sends a frame to the current target, as the
  // Send button does), rows() (the transcript's rows), changed() (the
  // templates changed).
  constructor(o) {
    this.o = o;
    this.T = o.text;
    this.servers = new Map(); // a server's key -> what it declared
    this.learned = new WeakSet(); // rows already read
    this.answeredBefore = new WeakMap(); // a stdio server's exit row -> whether it had answered since it started
    this.headersKey = "wirelab.own.headers." + o.slug;
    this.storeKey = "wirelab.own.declared." + o.slug;
    this.nextID = 900; // ids of the lists the console asks for itself
    // lists are the list requests sent to a custom server, by their id:
    // the method, the cursor it asked from, and whether the console sent
    // it itself (then it follows nextCursor on its own).
    this.lists = new Map();
    this.restore();

    const label = document.createElement("label");
    label.className = "own-headers";
    label.append(this.T.headers + " ");
    this.headers = document.createElement("textarea");
    this.headers.id = "custom-headers";
    this.headers.rows = 2;
    this.headers.spellcheck = false;
    this.headers.placeholder = this.T.headersHelp;
    try {
      this.headers.value = sessionStorage.getItem(this.headersKey) || "";
    } catch (e) {
      // Storage off: the headers last as long as the page.
    }
    this.headers.addEventListener("input", () => {
      try {
        sessionStorage.setItem(this.headersKey, this.headers.value);
      } catch (e) {}
    });
    label.append(this.headers);
    this.ask = document.createElement("button");
    this.ask.type = "button";
    this.ask.id = "own-declared";
    this.ask.textContent = o.slug === "a2a" ? this.T.readCard : this.T.list;
    this.ask.addEventListener("click", () => (o.slug === "a2a" ? this.readCard() : this.askDeclared()));
    this.status = document.createElement("span");
    this.status.id = "own-status";
    this.status.className = "own-status";
    this.status.setAttribute("aria-live", "polite");
    o.row.append(this.ask, this.status, label);
    this.labelRow = label;
    this.shown();
  }

  // shown fits the bar to the current target: the placeholder of "to",
  // the headers for an HTTP server, and what is known of the server.
  shown() {
    const t = this.o.target();
    const http = t === "custom-http";
    this.o.to.placeholder = t === "custom-stdio" ? this.T.toStdio : this.o.slug === "a2a" ? this.T.toA2A : this.T.toMCP;
    this.labelRow.hidden = !http;
    this.ask.hidden = !t.startsWith("custom-");
    const s = this.server();
    this.status.textContent = s ? this.describe(s) : "";
  }

  // key names the server a target and "to" reach: a stdio server by its
  // command line, an HTTP one by its origin (the card and the endpoint
  // it names may differ in path only).
  key(target, to) {
    if (target !== "custom-http") return target + " " + (to || "").trim();
    const u = urlOf(to);
    return target + " " + (u ? u.origin : (to || "").trim());
  }

  server(create) {
    const k = this.key(this.o.target(), this.o.to.value);
    if (!this.servers.has(k) && create) this.servers.set(k, newServer());
    return this.servers.get(k) || null;
  }

  // ---- keeping what servers declared across reloads

  restore() {
    let kept = null;
    try {
      kept = JSON.parse(localStorage.getItem(this.storeKey) || "null");
    } catch (e) {
      kept = null;
    }
    if (!kept || typeof kept !== "object") return;
    for (const [k, d] of Object.entries(kept).slice(-maxKept)) {
      if (!d || typeof d !== "object") continue;
      const s = newServer();
      for (const f of ["tools", "resources", "resourceTemplates", "prompts", "skills"]) if (Array.isArray(d[f])) s[f] = d[f].slice(0, maxDeclared);
      if (typeof d.version === "string") s.version = d.version;
      if (d.caps && typeof d.caps === "object") s.caps = d.caps;
      if (d.card && typeof d.card === "object") s.card = d.card;
      if (typeof d.endpoint === "string") s.endpoint = d.endpoint;
      // The server's session (or child process) did not survive the
      // reload: only what it declared did.
      this.servers.set(k, s);
    }
  }

  keep() {
    const out = {};
    for (const [k, s] of this.servers) {
      const declared = s.tools.length + s.resources.length + s.resourceTemplates.length + s.prompts.length + s.skills.length;
      if (declared === 0 && !s.card) continue;
      out[k] = { tools: s.tools, resources: s.resources, resourceTemplates: s.resourceTemplates, prompts: s.prompts, skills: s.skills, version: s.version, caps: s.caps, card: s.card, endpoint: s.endpoint };
    }
    const keys = Object.keys(out);
    for (const k of keys.slice(0, Math.max(0, keys.length - maxKept))) delete out[k];
    try {
      localStorage.setItem(this.storeKey, JSON.stringify(out));
    } catch (e) {
      // Storage full or off: the templates last as long as the page.
    }
  }

  describe(s) {
    if (this.o.slug === "a2a") {
      if (!s.card) return "";
      return s.endpoint ? fmt(this.T.card, s.card.name || "?", s.endpoint, s.version || "?", s.skills.length) : this.T.noEndpoint;
    }
    const parts = [];
    if (s.version) parts.push(fmt(this.T.answered, s.version));
    if (s.tools.length + s.resources.length + s.resourceTemplates.length + s.prompts.length > 0) parts.push(fmt(this.T.counts, s.tools.length, s.resources.length + s.resourceTemplates.length, s.prompts.length));
    const more = Object.keys(s.next);
    if (more.length > 0) parts.push(fmt(this.T.more, more.join(", ")));
    const capped = Object.keys(s.capped);
    if (capped.length > 0) parts.push(fmt(this.T.capped, maxDeclared, capped.join(", ")));
    return parts.join("; ");
  }

  // sessionVersion is the revision of the current server's session, the
  // one its initialize answered, or "" when none is known.
  sessionVersion() {
    const s = this.server();
    return s && s.version && s.version !== modernVersion ? s.version : "";
  }

  // ---- learning from the rows

  // learn reads a row from the learner's own server: what initialize or
  // server/discover answered, the lists, an agent card.
  learn(r) {
    if (this.learned.has(r) || r.old || !r.target || !r.target.startsWith("custom-")) return;
    const k = this.key(r.target, r.to);
    let s = this.servers.get(k);
    if (!s) {
      s = newServer();
      this.servers.set(k, s);
    }
    if (r.kind === "exit") {
      // A stdio server that exited took its session with it; whether it
      // had answered is the doctor's to read.
      this.answeredBefore.set(r, s.answered);
      Object.assign(s, { answered: false, initialized: false, version: "" });
      this.learned.add(r);
      return;
    }
    if (r.dir === "out") {
      this.learned.add(r);
      if (/"method"\s*:\s*"notifications\/initialized"/.test(r.text)) s.initialized = true;
      return;
    }
    if (r.dir !== "in") return;
    const json = bodyOf(r);
    if (json === undefined) return; // an HTTP answer whose body is still coming
    this.learned.add(r);
    if (r.kind === "line") s.answered = true;
    if (!json || typeof json !== "object") return;
    if (this.o.slug === "a2a") {
      if (r.kind === "http" && (json.skills || json.supportedInterfaces) && json.name) this.card(s, json, r.to);
      this.afterLearning();
      return;
    }
    const res = json.result;
    if (!res || typeof res !== "object") return;
    if (typeof res.protocolVersion === "string" && (res.capabilities || res.serverInfo)) {
      Object.assign(s, { version: res.protocolVersion, caps: res.capabilities || {} });
    } else if (Array.isArray(res.supportedVersions)) {
      const v = res.supportedVersions.includes(modernVersion) ? modernVersion : res.supportedVersions[0];
      Object.assign(s, { version: v || "", caps: res.capabilities || {} });
    }
    this.learnList(s, json.id, res);
    this.afterLearning();
  }

  // learnList reads a list answer. The whole list (one page), or the
  // first page of the console's own walk through the pages, replaces
  // what was known; any other page adds to it, so a first page the
  // learner asks for does not shorten a list the console walked whole.
  // A nextCursor is followed at once when the console asked for the
  // list; when the learner did, the next page becomes a template.
  learnList(s, id, res) {
    const asked = this.lists.get(id);
    this.lists.delete(id);
    for (const [method, [field, name]] of Object.entries(listMethods)) {
      if (!Array.isArray(res[field]) || (asked && asked.method !== method)) continue;
      const got = res[field].filter((x) => x && typeof x[name] === "string");
      const more = typeof res.nextCursor === "string" && res.nextCursor !== "";
      const fresh = asked ? !asked.cursor && (asked.auto || !more) : !more;
      const before = fresh ? [] : s[field];
      const seen = new Set(before.map((x) => x[name]));
      const all = before.concat(got.filter((x) => !seen.has(x[name])));
      s[field] = all.slice(0, maxDeclared);
      // Past the limit the rest is not read: the status names the limit.
      if (all.length > maxDeclared || (more && s[field].length >= maxDeclared)) s.capped[field] = true;
      else if (fresh) delete s.capped[field];
      const cursor = more && s[field].length < maxDeclared ? res.nextCursor : "";
      if (!cursor) delete s.next[method];
      else if (asked && asked.auto) this.askList(s, method, cursor);
      else s.next[method] = cursor;
    }
  }

  afterLearning() {
    this.shown();
    this.keep();
    this.o.changed();
  }

  // card reads an A2A agent card: its JSON-RPC endpoint and version (a
  // 1.0 card's supportedInterfaces, a 0.3 card's url and
  // protocolVersion), and its skills.
  card(s, c, to) {
    s.card = c;
    const iface = (c.supportedInterfaces || []).find((i) => i && /jsonrpc/i.test(i.protocolBinding || "") && i.url);
    s.endpoint = iface ? iface.url : typeof c.url === "string" ? c.url : "";
    s.version = iface ? iface.protocolVersion || "1.0" : c.protocolVersion || "0.3.0";
    s.skills = (c.skills || []).filter((x) => x && (x.id || x.name)).slice(0, maxDeclared);
    // An endpoint on the card's own host may be written as a path.
    if (s.endpoint && !/^https?:\/\//.test(s.endpoint)) {
      const u = urlOf(to);
      if (u) s.endpoint = new URL(s.endpoint, u).href;
    }
  }

  // ---- templates

  // addTemplates adds, under their own heading, the templates built from
  // what the current server declared.
  addTemplates(select) {
    const list = this.templates();
    if (list.length === 0) return;
    const s = this.server();
    const g = document.createElement("optgroup");
    g.label = fmt(this.T.declared, s.version || "?");
    g.dataset.own = "1";
    list.forEach((t, i) => g.append(new Option(t.name, "own:" + i)));
    select.append(g);
  }

  // templateFrame is the frame of a declared template ("own:N"), or null.
  templateFrame(value) {
    const m = /^own:(\d+)$/.exec(value);
    if (!m) return null;
    const t = this.templates()[Number(m[1])];
    return t ? t.frame : null;
  }

  templates() {
    const s = this.server();
    const t = this.o.target();
    if (!s || !t.startsWith("custom-")) return [];
    if (this.o.slug === "a2a") return this.a2aTemplates(s);
    if (!s.version) return [];
    const out = [];
    let id = firstDeclaredID;
    for (const tool of s.tools) {
      out.push({ name: "tools/call " + tool.name, frame: this.mcpFrame(s, id++, "tools/call", { name: tool.name, arguments: skeleton(tool.inputSchema, 0) }) });
    }
    for (const r of s.resources) {
      out.push({ name: "resources/read " + r.uri, frame: this.mcpFrame(s, id++, "resources/read", { uri: r.uri }) });
    }
    for (const r of s.resourceTemplates) {
      // The URI template's {variables} are the learner's to fill.
      out.push({ name: "resources/read " + r.uriTemplate, frame: this.mcpFrame(s, id++, "resources/read", { uri: r.uriTemplate }) });
    }
    for (const p of s.prompts) {
      const args = {};
      for (const a of p.arguments || []) if (a && a.required && typeof a.name === "string") args[a.name] = "";
      out.push({ name: "prompts/get " + p.name, frame: this.mcpFrame(s, id++, "prompts/get", { name: p.name, arguments: args }) });
    }
    for (const [method, cursor] of Object.entries(s.next)) {
      out.push({ name: fmt(this.T.nextPage, method), frame: this.mcpFrame(s, id++, method, { cursor: cursor }) });
    }
    return out;
  }

  // mcpFrame writes one MCP request for the server, in its revision:
  // 2026-07-28 carries its revision and the client's capabilities in
  // params._meta, and over HTTP repeats method and name in headers; an
  // earlier revision is part of the session initialize opened, which
  // over HTTP is named by Mcp-Session-Id.
  mcpFrame(s, id, method, params) {
    const modern = s.version === modernVersion;
    const p = Object.assign({}, params);
    if (modern) {
      p._meta = {
        "io.modelcontextprotocol/protocolVersion": modernVersion,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "console", version: "1" },
      };
    }
    const msg = { jsonrpc: "2.0", id: id, method: method };
    if (params !== null) msg.params = p;
    const body = JSON.stringify(msg);
    if (this.o.target() === "custom-stdio") return body;
    const head = ["POST " + this.path() + " HTTP/1.1", "Host: {{host}}", "Accept: application/json, text/event-stream", "Content-Type: application/json"];
    if (modern) {
      head.push("MCP-Protocol-Version: " + modernVersion, "Mcp-Method: " + method);
      if (params && (params.name || params.uri)) head.push("Mcp-Name: " + (params.name || params.uri));
    } else {
      head.push("Mcp-Session-Id: {{session}}", "MCP-Protocol-Version: " + s.version);
    }
    return head.join("\n") + "\n\n" + body;
  }

  // notification writes a notification the session needs.
  notification(method) {
    const body = JSON.stringify({ jsonrpc: "2.0", method: method });
    if (this.o.target() === "custom-stdio") return body;
    const s = this.server();
    return ["POST " + this.path() + " HTTP/1.1", "Host: {{host}}", "Accept: application/json, text/event-stream", "Content-Type: application/json",
      "Mcp-Session-Id: {{session}}", "MCP-Protocol-Version: " + s.version].join("\n") + "\n\n" + body;
  }

  a2aTemplates(s) {
    if (!s.endpoint) return [];
    const v1 = !/^0\./.test(s.version);
    const path = urlOf(s.endpoint) ? urlOf(s.endpoint).pathname : "/";
    const headers = ["POST " + path + " HTTP/1.1", "Host: {{host}}", "Content-Type: application/json"];
    if (v1) headers.splice(2, 0, "A2A-Version: " + s.version);
    const post = (body) => headers.join("\n") + "\n\n" + JSON.stringify(body);
    let id = firstDeclaredID;
    const out = s.skills.map((k) => {
      const text = (k.examples && typeof k.examples[0] === "string" && k.examples[0]) || k.name || k.id;
      const n = id++;
      const message = v1
        ? { messageId: "m" + n, role: "ROLE_USER", parts: [{ text: text }] }
        : { kind: "message", messageId: "m" + n, role: "user", parts: [{ kind: "text", text: text }] };
      return { name: (v1 ? "SendMessage " : "message/send ") + (k.name || k.id), frame: post({ jsonrpc: "2.0", id: n, method: v1 ? "SendMessage" : "message/send", params: { message: message } }) };
    });
    // A task waiting for input (or auth) goes on with a message that
    // names it; the answer's text is the learner's to write.
    const n = id++;
    const answer = v1
      ? { messageId: "m" + n, role: "ROLE_USER", taskId: "{{task}}", parts: [{ text: "" }] }
      : { kind: "message", messageId: "m" + n, role: "user", taskId: "{{task}}", parts: [{ kind: "text", text: "" }] };
    out.push({ name: (v1 ? "SendMessage" : "message/send") + ": " + this.T.answerTask, frame: post({ jsonrpc: "2.0", id: n, method: v1 ? "SendMessage" : "message/send", params: { message: answer } }) });
    out.push({ name: v1 ? "GetTask" : "tasks/get", frame: post({ jsonrpc: "2.0", id: id++, method: v1 ? "GetTask" : "tasks/get", params: { id: "{{task}}" } }) });
    return out;
  }

  // path is the request path of the current HTTP server: its URL's path
  // (an MCP endpoint), or the card's endpoint's (an A2A agent).
  path() {
    const s = this.server();
    if (this.o.slug === "a2a" && s && s.endpoint && urlOf(s.endpoint)) return urlOf(s.endpoint).pathname;
    const u = urlOf(this.o.to.value);
    return u && u.pathname !== "" ? u.pathname : "/";
  }

  // adapt fits one of wirelab's templates to the learner's HTTP server:
  // the request goes to its endpoint's path, not wirelab's.
  adapt(frame) {
    if (this.o.target() !== "custom-http") return frame;
    const m = /^([A-Z]+) (\S+)( HTTP\/1\.[01])/.exec(frame);
    if (!m) return frame;
    if (this.o.slug === "a2a") {
      // The card is where "to" says; the requests go where the card says.
      const s = this.server();
      if (m[1] === "GET" && /agent(-card)?\.json$/.test(m[2])) {
        const u = urlOf(this.o.to.value);
        return u && u.pathname !== "/" ? frame.replace(m[0], m[1] + " " + u.pathname + m[3]) : frame;
      }
      return s && s.endpoint ? frame.replace(m[0], m[1] + " " + this.path() + m[3]) : frame;
    }
    const u = urlOf(this.o.to.value);
    return u && u.pathname !== "/" ? frame.replace(m[0], m[1] + " " + u.pathname + m[3]) : frame;
  }

  // ---- sending

  // prepare fits a message to the learner's server before it goes: the
  // headers typed once go into an HTTP request that lacks them, and an
  // A2A request goes to the endpoint the card names (which may be on
  // another host than the card).
  prepare(msg) {
    if (msg.target && msg.target.startsWith("custom-")) this.noteList(msg.frame);
    if (msg.target !== "custom-http") return msg;
    const extra = this.headers.value.split("\n").map((l) => l.trim()).filter((l) => /^[^\s:]+:/.test(l));
    if (extra.length > 0 && /^[A-Z]+ \S+ HTTP\/1\.[01]/.test(msg.frame)) {
      const nl = msg.frame.includes("\r\n") ? "\r\n" : "\n";
      const cut = msg.frame.indexOf(nl + nl);
      const head = cut < 0 ? msg.frame : msg.frame.slice(0, cut);
      const rest = cut < 0 ? "" : msg.frame.slice(cut);
      const add = extra.filter((l) => !new RegExp("^" + escapeRE(l.split(":")[0]) + ":", "im").test(head));
      if (add.length > 0) msg.frame = head + nl + add.join(nl) + rest;
    }
    const s = this.server();
    if (this.o.slug === "a2a" && s && s.endpoint && !/^GET /.test(msg.frame)) {
      const card = urlOf(msg.to);
      const end = urlOf(s.endpoint);
      if (card && end && card.origin !== end.origin) {
        msg.to = end.origin + end.pathname;
        msg.frame = msg.frame.replace(/^(host:[ \t]*)\S+/im, "$1" + end.host);
      }
    }
    return msg;
  }

  // askDeclared sends the lists of what an MCP server declared in its
  // answer to initialize (or server/discover), in its revision; in a
  // session, notifications/initialized first if the page has not sent it.
  askDeclared() {
    const s = this.server(true);
    if (!s.version) {
      // Not connected yet: the first template opens the conversation.
      this.status.textContent = this.T.list + ": initialize / server/discover";
      return;
    }
    if (s.version !== modernVersion && !s.initialized) this.o.send(this.notification("notifications/initialized"));
    const caps = s.caps || {};
    for (const [cap, method] of [["tools", "tools/list"], ["resources", "resources/list"], ["resources", "resources/templates/list"], ["prompts", "prompts/list"]]) {
      if (caps[cap]) this.askList(s, method, "");
    }
  }

  // askList sends one list request of the console's own, from a cursor
  // ("" for the first page).
  askList(s, method, cursor) {
    const id = this.nextID++;
    const params = cursor ? { cursor: cursor } : s.version === modernVersion ? {} : null;
    this.lists.set(id, { method: method, cursor: cursor, auto: true });
    this.o.send(this.mcpFrame(s, id, method, params));
  }

  // noteList remembers a list request the learner sends, by its id, so
  // that its answer is read as the page it asked for.
  noteList(frame) {
    const http = /^[A-Z]+ \S+ HTTP\/1\.[01]/.test(frame);
    const body = http ? splitHTTP(frame).body : frame;
    const m = parseJSON(body);
    if (!m || typeof m !== "object" || !(m.method in listMethods) || m.id === undefined || this.lists.has(m.id)) return;
    const cursor = m.params && typeof m.params.cursor === "string" ? m.params.cursor : "";
    this.lists.set(m.id, { method: m.method, cursor: cursor, auto: false });
  }

  // readCard GETs the agent card at the URL in "to" (the well-known path
  // when "to" has none).
  readCard() {
    const u = urlOf(this.o.to.value);
    const path = u && u.pathname !== "/" ? u.pathname : "/.well-known/agent-card.json";
    this.o.send("GET " + path + " HTTP/1.1\nHost: {{host}}\nAccept: application/json\n\n");
  }

  // ---- the doctor

  // mark learns from a row of the transcript and, when it shows an
  // exchange with the learner's server that failed, puts the doctor's
  // diagnosis beside it.
  mark(tr, r, sentTo) {
    const target = r.target || (sentTo && sentTo.target) || "";
    if (!target.startsWith("custom-")) return;
    this.learn(r);
    const to = r.to || (sentTo && sentTo.to) || "";
    const s = this.servers.get(this.key(target, to)) || {};
    const request = r.answers ? this.o.rows()[r.answers - 1] : null;
    const u = urlOf(to);
    const host = target === "custom-http" ? (u ? u.host : to) : to;
    const answered = r.kind === "exit" ? this.answeredBefore.get(r) : s.answered;
    const d = diagnose(r, request, { slug: this.o.slug, version: s.version || "", answered: !!answered, host: host });
    if (d) markDiagnosis(tr, r, d, this.T);
  }
}

// markGRPCFailure puts the doctor's diagnosis beside a refused exchange
// with the learner's own gRPC server (the gRPC console has no
// OwnServer: its server's controls are grpccompose.js's).
export function markGRPCFailure(tr, r, text, sentTo) {
  const target = r.target || (sentTo && sentTo.target) || "";
  if (target !== "custom-grpc" || r.kind !== "refused") return;
  const host = (r.to || (sentTo && sentTo.to) || "").trim().split(/\s+/)[0];
  const d = diagnose(r, null, { slug: "grpc", version: "", answered: false, host: host });
  if (d) markDiagnosis(tr, r, d, text);
}

// markDiagnosis writes a diagnosis, in the page's words, under a row.
function markDiagnosis(tr, r, d, T) {
  const words = adviceFor(d, T.doctor);
  if (!words) return;
  tr.classList.add("row-finding", "row-finding-error", "row-doctor");
  const box = document.createElement("div");
  box.className = "doctor finding finding-error";
  const step = document.createElement("strong");
  step.textContent = "⚕ " + fmt(T.failed, words.step);
  box.append(step, ": " + words.change);
  // A server that exited at once usually said why on stderr, whose
  // last lines the exit note carries.
  const tail = d.key === "exitEarly" && (r.text || "").split(/the last of its stderr:\n|последние строки его stderr:\n/)[1];
  if (tail) {
    const pre = document.createElement("pre");
    pre.className = "doctor-stderr";
    pre.textContent = tail.replace(/\n(the next frame starts it again|следующий кадр запустит его снова)\s*$/, "");
    box.append(pre);
  }
  tr.querySelector(".summary").append(box);
}

function newServer() {
  return { tools: [], resources: [], resourceTemplates: [], prompts: [], skills: [], next: {}, capped: {}, version: "", caps: null, answered: false, initialized: false };
}

// bodyOf is the JSON a row from a server carries: a stdio line, an SSE
// event's data, or an HTTP answer's body; null for none that parses, and
// undefined for an HTTP answer still coming.
function bodyOf(r) {
  if (r.kind === "line") return parseJSON(r.text) || null;
  if (r.kind === "sse") return parseJSON(r.sseData || "") || null;
  if (r.kind === "http") {
    // A stream's messages are rows of their own (kind "sse").
    if (/^content-type:\s*text\/event-stream/im.test(r.text)) return null;
    const { body } = splitHTTP(r.text);
    if (body.trim() === "") return /^content-length:\s*0\s*$/im.test(r.text) || /^HTTP\/1\.[01] [^2]/.test(r.text) ? null : undefined;
    const j = parseJSON(body);
    return j === undefined ? undefined : j;
  }
  return null;
}

// skeleton writes a value for a JSON Schema: its default, its first enum
// value or const, else the zero of its type; an object gets its required
// properties (and those with a default), to maxDepth.
export function skeleton(schema, depth) {
  if (!schema || typeof schema !== "object") return {};
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const options = schema.anyOf || schema.oneOf;
  if (Array.isArray(options) && options.length > 0) return skeleton(options.find((o) => o && o.type !== "null") || options[0], depth);
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== "null") || type[0];
  if (!type && schema.properties) type = "object";
  switch (type) {
    case "string":
      return "";
    case "number":
    case "integer":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return false;
    case "array":
      return [];
    case "null":
      return null;
    case "object": {
      const out = {};
      if (depth >= maxDepth) return out;
      const props = schema.properties || {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const [name, p] of Object.entries(props)) {
        if (required.includes(name) || (p && typeof p === "object" && "default" in p)) out[name] = skeleton(p, depth + 1);
      }
      return out;
    }
  }
  return depth === 0 ? {} : "";
}

function urlOf(to) {
  try {
    return new URL((to || "").trim().split(/\s+/)[0]);
  } catch (e) {
    return null;
  }
}

function escapeRE(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// fmt puts args in the %s and %d of a string, in order.
function fmt(s, ...args) {
  let i = 0;
  return s.replace(/%[sd]/g, () => String(args[i++] ?? ""));
}
