// A wire console: compose a frame (from a template or by hand), send it
// to a live server through the playground, and read every byte that comes
// back, as a transcript, a sequence diagram, and per message in pretty,
// raw and hex views. The page's data (targets, templates, strings) is in
// <script type="application/json" id="console-data">, written by
// playground/console.go.
//
// The console page's entry module: it imports the websocket (wire.js),
// the rows (transcript.js), the diagram (sequence.js) and the classroom's
// parts (presenter.js, room.js). The exercise panel, when there is one,
// learns the session's id from the "wire-session" event this module sends
// on the document.
//
// In a classroom the same page has three more faces:
//   - the instructor's: a Present toggle, and while it is on, the page's
//     state (target, composer, selected row, view) goes to the followers;
//   - a follower's, at ?watch=presenter (or a session's id): read only,
//     the presenter's transcript, typing, target and selected row, with a
//     Follow switch to read at one's own pace;
//   - a student's own wirelab following a classroom, at
//     ?watch=instructor: the instructor's console with the student's own
//     beside it (an iframe), and "try this frame here" between them.
//
// A console that follows a tap (?watch=tap-N: a live wirelab tap, or a
// recording opened on /taps) has no composer, since nothing can be sent
// there; each finding of the tap's check is marked on its row and
// explained in the row's view, and counted above the transcript.
import { WireSocket, WireKnown } from "./wire.js";
import { Transcript, views, splitHTTP, parseJSON, atMillis, shortTo, hasBytes, maskSecrets } from "./transcript.js";
import * as sequence from "./sequence.js";
import { Presenter, Following, followURL, goesWith } from "./presenter.js";
import { Room } from "./room.js";
import { GRPCPanel, grpcurlTarget } from "./grpccompose.js";
import { SchemaForm, inputResult } from "./schemaform.js";
import { OwnServer, markGRPCFailure } from "./custom.js";
import { FrameHistory } from "./history.js";

const data = JSON.parse(document.getElementById("console-data").textContent);
const T = data.text; // the page's strings, in its language
const $ = (id) => document.getElementById(id);
const el = {
  target: $("target"), to: $("custom-to"), toRow: $("custom-row"), template: $("template"), composer: $("composer"),
  check: $("check"), send: $("send"), restart: $("restart"), copyAs: $("copy-as"), copyOut: $("copy-out"),
  rows: $("transcript-rows"), detail: $("detail"), detailBody: $("detail-body"), reveal: $("reveal-secrets"), views: document.querySelectorAll(".view-tab"),
  stderr: $("stderr"), stderrPane: document.querySelector(".stderr-pane"), diagram: $("diagram"), exportSVG: $("export-svg"), exportMermaid: $("export-mermaid"), mermaidOut: $("mermaid-out"),
  share: $("share"), clear: $("clear"), status: $("status"),
  present: $("present"), follow: $("follow"), targetShown: $("target-shown"), try: $("try"), own: $("own-console"), room: $("room-bar"),
  groups: document.createElement("dl"), // the template groups' notes, placed under the composer's first bar
};
el.groups.className = "template-groups";
el.template.closest(".composer-bar").after(el.groups);
const storeKey = "wirelab.console." + data.slug;
const frameHistory = new FrameHistory(data.slug); // the frames sent, per method, across reloads
const watching = data.watch !== "";
const tapping = /^tap-\d+$/.test(data.watch); // following a tap or an opened recording
// A follower's socket is its Following's (below), which opens it again
// when it drops; the learner's own is opened by the first send.
const wire = watching ? null : new WireSocket("/ws");
const transcript = new Transcript(changed);
let known = new WireKnown(); // values templates may use
let selected = null; // the row shown in the detail pane
let view = "pretty";
let sendAnyway = false; // the learner saw the JSON warning and sends anyway
let presenter = null; // the Present toggle, on the learner's own console
let following = null; // a follower's socket and Follow switch
let cleared = 0; // rows of this session the learner cleared away: a row's index counts them
// The gRPC console's knowledge of what a server declares: its methods,
// its bytes fields, and the controls of the learner's own server.
const grpcPanel = data.slug === "grpc" ? new GRPCPanel({ text: T.grpc, to: el.to, targetSelect: el.target, target: currentTarget, changed: () => {
  listTemplates();
  checkFrame();
  save();
} }) : null;
// The MCP and A2A consoles' knowledge of the learner's own server: what
// it declares, the headers sent to it, and the connection doctor.
const own = (data.slug === "mcp" || data.slug === "a2a") && !watching ? new OwnServer({ slug: data.slug, text: T.own, to: el.to, row: el.toRow,
  target: currentTarget, rows: () => transcript.rows, send: (frame) => sendFrame(frame), changed: () => listTemplates() }) : null;

// The MCP console's form beside the frame, from a tool's inputSchema or
// an elicitation's requestedSchema in the transcript (schemaform.js).
const schemaForm = data.slug === "mcp" && !watching ? new SchemaForm({ text: T.schema, box: $("schema-form"), composer: el.composer,
  rows: () => transcript.rows, target: currentTarget, edited: () => {
    checkFrame();
    saveSoon();
  } }) : null;

// ---- targets and templates

function currentTarget() {
  return el.target.value;
}

function isCustom() {
  return currentTarget().startsWith("custom-");
}

// isStdio tells whether a target is a server the tab starts as a child:
// those named for stdio, and mcp-hostile, the hostile MCP server.
function isStdio(t) {
  return /stdio/.test(t) || t === "mcp-hostile";
}

// templateTarget is the target whose templates fit the current one: a
// custom server is offered the templates of the protocol's own.
function templateTarget() {
  const t = currentTarget();
  if (!t.startsWith("custom-")) return t;
  const kind = t === "custom-stdio" ? /stdio/ : t === "custom-grpc" ? /grpc/ : /http|a2a/;
  return data.targets.find((x) => kind.test(x)) || data.targets[0];
}

function hostOf(target) {
  if (target.startsWith("custom-")) {
    try {
      return new URL(el.to.value.trim().split(/\s+/)[0]).host; // the URL, without -cacert FILE after it
    } catch (e) {
      return el.to.value;
    }
  }
  const base = data.bases[target] || "";
  try {
    return new URL(base).host;
  } catch (e) {
    return base;
  }
}

function fill(frame) {
  return known.fill(frame.replaceAll("{{host}}", hostOf(currentTarget())), currentTarget(), isCustom() ? el.to.value : "");
}

// listTemplates offers the templates of the current target, those of a
// group (an era of the protocol) under its heading, and says under the
// list how each group's conversation goes.
function listTemplates() {
  const t = templateTarget();
  el.template.replaceChildren(new Option(T.pickTemplate, ""));
  const groups = new Map(); // a group's key -> its <optgroup>
  data.templates.forEach((tpl, i) => {
    if (tpl.target !== t) return;
    let list = el.template;
    if (tpl.group) {
      if (!groups.has(tpl.group)) {
        const g = document.createElement("optgroup");
        g.label = (T.groups[tpl.group] || {}).label || tpl.group;
        el.template.append(g);
        groups.set(tpl.group, g);
      }
      list = groups.get(tpl.group);
    }
    list.append(new Option(tpl.name, String(i)));
  });
  if (grpcPanel) grpcPanel.addTemplates(el.template);
  if (own) own.addTemplates(el.template);
  if (!watching) frameHistory.addTo(el.template, currentTarget(), T.history);
  el.groups.replaceChildren();
  for (const key of groups.keys()) {
    const g = T.groups[key];
    if (!g) continue;
    const dt = document.createElement("dt");
    dt.textContent = g.label;
    const dd = document.createElement("dd");
    dd.textContent = g.note;
    el.groups.append(dt, dd);
  }
  el.groups.hidden = groups.size === 0;
  el.toRow.hidden = !isCustom();
  // A stdio server restarts; a gRPC connection, kept between calls,
  // is closed so that the next call dials and asks reflection again. A
  // follower restarts nothing.
  el.restart.hidden = watching || !(isStdio(currentTarget()) || /grpc/.test(currentTarget()));
  el.restart.textContent = /grpc/.test(currentTarget()) ? T.reconnect : T.restart;
  el.stderrPane.hidden = !isStdio(currentTarget());
  if (own) own.shown();
}

el.target.addEventListener("change", () => {
  listTemplates();
  save();
  moved();
});
el.to.addEventListener("change", () => {
  save();
  moved();
});
el.template.addEventListener("change", () => {
  if (el.template.value === "") return;
  const declared = frameHistory.frame(el.template.value) || (grpcPanel && grpcPanel.templateFrame(el.template.value)) || (own && own.templateFrame(el.template.value));
  const frame = declared || data.templates[Number(el.template.value)].frame;
  el.composer.value = fill(own ? own.adapt(frame) : frame);
  el.template.value = "";
  checkFrame();
  save();
});

// ---- checking a frame before it goes

// problem says what is wrong with the frame for its target, or "".
function problem(frame) {
  const t = templateTarget();
  if (frame.includes("{{session}}")) return T.needSession;
  if (frame.includes("{{requestState}}")) return T.needRequestState;
  if (frame.includes("{{task}}")) return T.needTask;
  if (isStdio(t)) {
    const lines = frame.split("\n").filter((l) => l.trim() !== "");
    if (lines.length === 0) return T.empty;
    for (let i = 0; i < lines.length; i++) {
      const e = jsonError(lines[i]);
      if (e) return T.lineNotJSON.replace("%d", i + 1) + ": " + e;
    }
    return "";
  }
  if (t === "grpc") {
    const call = grpcFrame(frame);
    if (!/^\/?[\w.]+\/\w+$/.test(call.method)) return T.grpcMethod;
    const e = call.body === "" ? "" : jsonError(call.body);
    if (e) return T.bodyNotJSON + ": " + e;
    return grpcPanel ? grpcPanel.check(frame) : "";
  }
  const { head, body } = splitHTTP(frame);
  if (!/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(head.split("\n")[0].trim())) return T.requestLine;
  if (/^content-type:\s*application\/json/im.test(head) && body.trim() !== "") {
    const e = jsonError(body.trim());
    if (e) return T.bodyNotJSON + ": " + e;
  }
  return "";
}

// grpcFrame reads a gRPC frame as the playground does: the method, then
// header lines (metadata, and grpc-timeout), then the JSON.
function grpcFrame(frame) {
  const lines = frame.trim().split("\n");
  const call = { method: lines[0].trim(), headers: [], body: "" };
  let i = 1;
  for (; i < lines.length; i++) {
    const m = /^([^\s:{"]+):\s*(.*)$/.exec(lines[i]);
    if (!m) break;
    call.headers.push([m[1].toLowerCase(), m[2].trim()]);
  }
  call.body = lines.slice(i).join("\n").trim();
  return call;
}

function jsonError(text) {
  try {
    JSON.parse(text);
    return "";
  } catch (e) {
    return e.message;
  }
}

function checkFrame() {
  // A placeholder typed by hand is filled as a template's is, when sent.
  const p = problem(fill(el.composer.value));
  sendAnyway = false;
  el.check.textContent = p ? "⚠ " + p : T.looksRight;
  el.check.className = p ? "check bad" : "check ok";
  el.send.textContent = T.send;
  if (grpcPanel) grpcPanel.preview(el.composer.value);
  if (schemaForm) schemaForm.frameChanged();
  renderCopy();
  moved();
  return p;
}
el.composer.addEventListener("input", () => {
  checkFrame();
  saveSoon();
});

// ---- sending

function send() {
  if (watching) return;
  const typed = el.composer.value; // the history keeps it as typed, its placeholders to fill again
  // What is known goes into the placeholders, in the composer too, so
  // that it shows the frame that went.
  if (fill(el.composer.value) !== el.composer.value) el.composer.value = fill(el.composer.value);
  const frame = el.composer.value;
  const armed = sendAnyway; // checkFrame disarms it
  const p = checkFrame();
  // A wrong frame is worth sending on purpose: the server's answer to
  // it is a lesson too. The first press warns, the second sends.
  if (p && !armed) {
    sendAnyway = true;
    el.send.textContent = T.sendAnyway;
    return;
  }
  // A JSON object in a bytes field goes as the base64 of its bytes.
  const msg = { op: "send", target: currentTarget(), frame: grpcPanel ? grpcPanel.encode(frame) : frame };
  if (isCustom()) msg.to = el.to.value.trim();
  sendMessage(msg);
  frameHistory.remember(typed, currentTarget());
  listTemplates();
  sendAnyway = false;
  el.send.textContent = T.send;
}

// sendMessage sends one message to the playground: to the learner's own
// server with the headers typed for it (custom.js).
const sentTo = new Map(); // a message's id -> its target and "to", for a refusal's row
function sendMessage(msg) {
  if (own) own.prepare(msg);
  const id = wire.send(msg);
  sentTo.set(id, { target: msg.target, to: msg.to || "" });
}

// sendFrame sends a frame the page wrote itself (custom.js asks a server
// what it declares) to the current target, placeholders filled.
function sendFrame(frame) {
  if (watching) return;
  const msg = { op: "send", target: currentTarget(), frame: fill(frame) };
  if (isCustom()) msg.to = el.to.value.trim();
  sendMessage(msg);
}
el.send.addEventListener("click", send);
el.composer.addEventListener("keydown", (e) => {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    e.preventDefault();
    send();
  }
});
el.restart.addEventListener("click", () => {
  if (watching) return;
  const msg = { op: "restart", target: currentTarget() };
  if (isCustom()) msg.to = el.to.value.trim();
  wire.send(msg);
});

// ---- what comes back

// heard takes one message from the playground: on the learner's own
// console every message, on a follower's the events and refusals
// (Following takes the rest).
function heard(msg) {
  if (presenter && presenter.heard(msg)) return;
  if (msg.op === "hello") {
    el.status.textContent = watching ? T.watchingSession.replace("%s", msg.session) : T.connected;
    if (!watching && msg.session) {
      const url = location.origin + location.pathname + "?watch=" + encodeURIComponent(msg.session);
      el.share.href = url;
      el.share.textContent = url;
    }
    // The exercise panel, when there is one, checks this session.
    if (!watching) document.dispatchEvent(new CustomEvent("wire-session", { detail: msg.session || "" }));
    return;
  }
  if (msg.op === "closed") {
    // A socket refused before it opened did not close: say what it
    // was, as far as the page can tell (a classroom's page that has not
    // joined is sent to the join page).
    if (!msg.opened) refused();
    else el.status.textContent = T.closed;
    return;
  }
  known.learn(msg);
  transcript.event(msg);
  // What was just learned may fill a placeholder the composer holds.
  if (!watching && el.composer.value.includes("{{")) checkFrame();
}

// refused says why the playground did not take the socket, as far as
// the page can learn it by asking for itself again.
async function refused() {
  el.status.textContent = T.refused;
  try {
    const r = await fetch(location.href, { method: "HEAD" });
    if (r.redirected && new URL(r.url).pathname === "/join") el.status.textContent = T.follow.joinFirst;
  } catch (e) {
    // The playground is gone: what the status says stands.
  }
}

// ---- the transcript

function fmtTime(at) {
  if (!at) return "";
  const d = new Date(atMillis(at));
  const frac = /\.(\d{1,6})/.exec(at);
  return d.toTimeString().slice(0, 8) + (frac ? "." + frac[1].padEnd(6, "0").slice(0, 6) : "");
}

function rowElement(r) {
  const tr = document.createElement("tr");
  tr.className = "row row-" + r.dir + (r.old ? " row-old" : "") + (r.ask ? " row-ask" : "") + (r.kind === "refused" ? " row-refused" : "");
  tr.dataset.n = r.n;
  tr.dataset.dir = r.dir;
  const cells = [
    String(r.n),
    fmtTime(r.at),
    { out: "→", in: "←", note: "·" }[r.dir] || r.dir,
    // A custom target's "to" may be a long command line: the row shows
    // it short, the whole of it in the cell's tooltip.
    r.to ? r.target + " " + shortTo(r.target, r.to) : r.target,
    r.summary || r.kind,
    r.size ? r.size + " B" : "",
    r.latency !== undefined && r.latency !== null ? r.latency.toFixed(1) + " ms" : "",
  ];
  const classes = ["n", "at", "dir", "target", "summary", "size", "latency"];
  cells.forEach((c, i) => {
    const td = document.createElement("td");
    td.className = classes[i];
    td.textContent = c;
    tr.append(td);
  });
  if (r.to) tr.querySelector(".target").title = r.to;
  const era = r.era && T.eras[r.era];
  if (era) {
    // Which era of MCP the message is in (transcript.js, eraOf), said
    // beside it.
    tr.dataset.era = r.era;
    const tag = document.createElement("span");
    tag.className = "era era-" + r.era;
    tag.textContent = era.tag;
    tag.title = era.title;
    tr.querySelector(".summary").append(" ", tag);
  }
  if (r.notes && r.notes.length > 0) {
    // What the playground changed in the request, said beside it.
    const fixed = document.createElement("span");
    fixed.className = "fixed";
    fixed.textContent = T.fixed;
    fixed.title = r.notes.join("\n");
    tr.querySelector(".summary").append(" ", fixed);
  }
  // Once the learner has answered the server's request, the request
  // offers no Answer any more.
  if (r.findings && r.findings.length > 0) markFindings(tr, r.findings);
  // A 2026-07-28 server asks in its result (input_required): Answer
  // writes the request again, answered.
  if ((r.ask || (schemaForm && schemaForm.asksInput(r))) && !r.answered && !watching && !r.old) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "answer";
    b.textContent = T.answer;
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      answer(r);
    });
    tr.querySelector(".summary").append(" ", b);
  }
  // An exchange with the learner's own server that failed says which
  // step failed and what to change (custom.js, doctor.js).
  if (own) own.mark(tr, r, sentTo.get(r.ex));
  else if (grpcPanel && !watching) markGRPCFailure(tr, r, T.own, sentTo.get(r.ex));
  tr.addEventListener("click", () => {
    // A follower who picks a row reads at their own pace from now on.
    if (following) following.pause();
    select(r);
  });
  return tr;
}

function changed(what, r) {
  if (what === "clear") {
    el.rows.replaceChildren();
    el.stderr.textContent = "";
    select(null);
  } else if (what === "row") {
    el.rows.append(rowElement(r));
    if (!watching) el.rows.lastChild.scrollIntoView({ block: "nearest" });
    // A follower's transcript keeps up inside its box, never moving the
    // page, and only while following.
    else if (following && following.following()) scrollBox(el.rows.lastChild);
  } else if (what === "update") {
    const old = el.rows.querySelector(`tr[data-n="${r.n}"]`);
    if (old) old.replaceWith(rowElement(r));
    if (selected === r) select(r);
  } else if (what === "stderr") {
    el.stderr.textContent += r.text;
    el.stderr.scrollTop = el.stderr.scrollHeight;
  }
  if (schemaForm && what !== "stderr" && what !== "findings") schemaForm.rowsChanged();
  if (what === "findings" || what === "clear") countFindings();
  if (what === "findings") return;
  if (what !== "stderr") drawSoon();
  saveSoon();
}

function select(r) {
  selected = r;
  moved();
  el.detail.hidden = r === null;
  for (const tr of el.rows.querySelectorAll("tr.selected")) tr.classList.remove("selected");
  if (r === null) return;
  const tr = el.rows.querySelector(`tr[data-n="${r.n}"]`);
  if (tr) tr.classList.add("selected");
  // A gRPC call's bytes come with its capture: until then (or if it
  // never came) its row has none to show raw or in hex.
  el.detailBody.textContent = shownView(r);
  explainFindings(r);
}

// ---- a tap's findings: marked on rows, explained, counted

// findingText is what the tap's findings say around them, in the
// page's language; the findings bring their own explanations in both.
const findingText = {
  en: {
    severity: { error: "error", warning: "warning", note: "note" },
    count: (n) => `Checked as wirelab tap check checks: ${n.error} errors, ${n.warning} warnings, ${n.note} notes`,
    first: "show the first",
    readOnly: "Read only: this console shows what a tap saw, live or from a recording; nothing can be sent from here.",
  },
  ru: {
    severity: { error: "ошибка", warning: "предупреждение", note: "заметка" },
    count: (n) => `Проверено так же, как wirelab tap check: ошибок ${n.error}, предупреждений ${n.warning}, заметок ${n.note}`,
    first: "показать первую",
    readOnly: "Только чтение: консоль показывает то, что увидел tap, вживую или из записи; отсюда ничего не отправить.",
  },
};
const FT = findingText[document.documentElement.lang] || findingText.en;
const ru = document.documentElement.lang === "ru";
const severityOrder = ["error", "warning", "note"];

// worst is the most serious severity among findings.
function worst(findings) {
  return severityOrder.find((s) => findings.some((f) => f.severity === s)) || "note";
}

// markFindings marks a row with the codes of its findings, the most
// serious giving the row its colour.
function markFindings(tr, findings) {
  const w = worst(findings);
  tr.classList.add("row-finding", "row-finding-" + w);
  const mark = document.createElement("span");
  mark.className = "finding-mark finding-" + w;
  mark.textContent = (w === "note" ? "ℹ " : "⚠ ") + findings.map((f) => f.code).join(", ");
  mark.title = findings.map((f) => FT.severity[f.severity] + " " + f.code + ": " + findingDetail(f)).join("\n");
  tr.querySelector(".summary").append(" ", mark);
}

// findingDetail is what exactly a finding found, in the page's language
// (the check writes it in both).
function findingDetail(f) {
  return (ru && f.detail_ru) || f.detail;
}

// explainFindings shows, above the selected row's bytes, what the
// check found in it and why it matters.
let findingsBox = null;
function explainFindings(r) {
  if (!findingsBox) {
    findingsBox = document.createElement("div");
    findingsBox.className = "row-findings";
    findingsBox.setAttribute("aria-live", "polite");
    el.detailBody.before(findingsBox);
  }
  findingsBox.replaceChildren();
  findingsBox.hidden = !r || !r.findings || r.findings.length === 0;
  if (findingsBox.hidden) return;
  for (const f of r.findings) {
    const item = document.createElement("div");
    item.className = "finding finding-" + f.severity;
    const head = document.createElement("p");
    const code = document.createElement("strong");
    code.textContent = FT.severity[f.severity] + " " + f.code;
    head.append(code, ": " + findingDetail(f));
    const why = document.createElement("p");
    why.textContent = ru ? f.ru : f.en;
    item.append(head, why);
    findingsBox.append(item);
  }
}

// countFindings says above the transcript how many findings there are,
// with a way to the first of the most serious.
let findingsCount = null;
function countFindings() {
  if (!tapping) return;
  if (!findingsCount) {
    findingsCount = document.createElement("p");
    findingsCount.id = "findings-count";
    findingsCount.className = "findings-count";
    findingsCount.setAttribute("aria-live", "polite");
    el.rows.closest(".transcript").querySelector(".section-bar").after(findingsCount);
  }
  const n = transcript.counts();
  findingsCount.className = "findings-count" + (n.error > 0 ? " findings-error" : n.warning > 0 ? " findings-warning" : "");
  findingsCount.replaceChildren(FT.count(n));
  const marked = transcript.rows.filter((r) => r.findings && r.findings.length > 0);
  if (marked.length === 0) return;
  const w = worst(marked.flatMap((r) => r.findings));
  const first = marked.find((r) => r.findings.some((f) => f.severity === w));
  const b = document.createElement("button");
  b.type = "button";
  b.className = "findings-first";
  b.textContent = FT.first;
  b.addEventListener("click", () => {
    if (following) following.pause();
    select(first);
    const tr = el.rows.querySelector(`tr[data-n="${first.n}"]`);
    if (tr) scrollBox(tr);
  });
  findingsCount.append(" ", b);
}

// shownView is the selected row in the current view. Tokens and
// secrets are cut short (maskSecrets) unless the reader ticked "show
// tokens"; the hex view of a row that holds one is not shown at all
// then, since cut bytes would not be the bytes that crossed.
function shownView(r) {
  if (view !== "pretty" && !hasBytes(r)) return T.noBytes;
  const text = views[view](r);
  if (el.reveal.checked) return text;
  if (view === "hex") {
    const source = r.raw || r.text || "";
    return maskSecrets(source) === source ? text : T.maskedHex;
  }
  return maskSecrets(text);
}

el.reveal.addEventListener("change", () => {
  if (selected) select(selected);
});

// setView shows the selected row in a view: pretty, raw or hex.
function setView(name) {
  view = name;
  for (const t of el.views) t.setAttribute("aria-selected", String(t.dataset.view === name));
  if (selected) select(selected);
  moved();
}

for (const tab of el.views) {
  tab.addEventListener("click", () => {
    if (following) following.pause();
    setView(tab.dataset.view);
  });
}

// answer puts a response to the server's request in the composer, for
// the learner to read, change and send.
function answer(r) {
  const retry = schemaForm && schemaForm.retryFrame(r);
  if (retry) {
    el.composer.value = retry;
    checkFrame();
    el.composer.focus();
    return;
  }
  const text = r.kind === "sse" ? r.sseData : r.kind === "http" ? splitHTTP(r.text).body : r.text;
  const req = parseJSON(text);
  if (!req) return;
  // An elicitation's answer starts from its form's defaults; the form
  // beside the frame fills in the rest.
  const body = JSON.stringify({ jsonrpc: "2.0", id: req.id, result: inputResult(req.method, req.params) });
  if (isStdio(templateTarget())) {
    el.composer.value = body;
  } else {
    // The session of the server that asked (the learner's own has its
    // own), at its endpoint's path.
    const sid = fill("{{session}}");
    const version = (own && own.sessionVersion()) || "2025-11-25";
    const session = sid !== "{{session}}" ? "Mcp-Session-Id: " + sid + "\nMCP-Protocol-Version: " + version + "\n" : "";
    const frame = "POST /mcp HTTP/1.1\nHost: " + hostOf(currentTarget()) + "\nAccept: application/json, text/event-stream\nContent-Type: application/json\n" + session + "\n" + body;
    el.composer.value = own ? own.adapt(frame) : frame;
  }
  checkFrame();
  el.composer.focus();
}

// ---- copy as a command to run in a terminal

function shellQuote(s) {
  return "'" + s.replace(/'/g, "'\\''") + "'";
}

function copyCommand(kind) {
  const frame = el.composer.value;
  const t = templateTarget();
  if (kind === "printf") {
    const lines = frame.split("\n").filter((l) => l.trim() !== "");
    const cmd = isCustom() ? el.to.value.trim() : data.commands[t] || "wirelab server stdio";
    return "printf '%s\\n' " + lines.map(shellQuote).join(" ") + " | " + cmd;
  }
  if (kind === "grpcurl") {
    const call = grpcFrame(frame);
    const own = isCustom() ? grpcurlTarget(el.to.value) : { flags: ["-plaintext"], addr: data.bases[t] || "" };
    const parts = ["grpcurl", ...own.flags];
    call.body = grpcFrame(grpcPanel ? grpcPanel.encode(frame) : frame).body;
    for (const [name, value] of call.headers) {
      const timeout = /^(\d+)([HMSmun])$/.exec(value);
      if (name === "grpc-timeout" && timeout) {
        const seconds = { H: 3600, M: 60, S: 1, m: 1e-3, u: 1e-6, n: 1e-9 }[timeout[2]] * Number(timeout[1]);
        parts.push("-max-time " + seconds);
      } else parts.push("-H " + shellQuote(name + ": " + value));
    }
    if (call.body) parts.push("-d " + shellQuote(call.body));
    parts.push(own.addr, call.method.replace(/^\//, ""));
    return parts.join(" ");
  }
  // curl: the request line and headers as flags; curl adds Host and
  // Content-Length itself.
  const { head, body } = splitHTTP(frame);
  const lines = head.split("\n");
  const [method, path] = lines[0].trim().split(/\s+/);
  let origin = "";
  try {
    origin = new URL(isCustom() ? el.to.value.trim() : data.bases[t]).origin;
  } catch (e) {
    origin = "http://" + hostOf(currentTarget());
  }
  const parts = ["curl -i"];
  if (method !== "GET" || body.trim() !== "") parts.push("-X " + method);
  parts.push(shellQuote(origin + path));
  for (const h of lines.slice(1)) {
    if (/^(host|content-length):/i.test(h) || h.trim() === "") continue;
    parts.push("-H " + shellQuote(h.trim()));
  }
  if (body.trim() !== "") parts.push("--data-raw " + shellQuote(body.trim()));
  return parts.join(" \\\n  ");
}

function copyKinds() {
  const t = templateTarget();
  if (isStdio(t)) return ["printf"];
  if (t === "grpc") return ["grpcurl"];
  return ["curl"];
}

function renderCopy() {
  el.copyOut.textContent = el.composer.value.trim() === "" ? "" : copyCommand(copyKinds()[0]);
  el.copyAs.textContent = T.copyAs.replace("%s", copyKinds()[0]);
}
el.copyAs.addEventListener("click", () => {
  renderCopy();
  if (navigator.clipboard) navigator.clipboard.writeText(el.copyOut.textContent).catch(() => {});
});

// ---- the sequence diagram

let drawTimer = 0;
function drawSoon() {
  if (drawTimer) return;
  drawTimer = setTimeout(() => {
    drawTimer = 0;
    el.diagram.innerHTML = sequence.svg(transcript.rows.filter((r) => !r.old), { you: T.you });
  }, 100);
}

function download(name, type, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: type }));
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
el.exportSVG.addEventListener("click", () => {
  download("wirelab-" + data.slug + ".svg", "image/svg+xml", sequence.svg(transcript.rows.filter((r) => !r.old), { color: "#1b1f24", background: "#ffffff", you: T.you }));
});
el.exportMermaid.addEventListener("click", () => {
  el.mermaidOut.hidden = false;
  el.mermaidOut.value = sequence.mermaid(transcript.rows.filter((r) => !r.old), { you: T.you });
  el.mermaidOut.select();
  if (navigator.clipboard) navigator.clipboard.writeText(el.mermaidOut.value).catch(() => {});
});

// ---- the session as a recording in the tap's format (GET /console/export)

let sessionID = ""; // this tab's session, from the playground's hello
document.addEventListener("wire-session", (e) => {
  sessionID = e.detail;
});
const exportButton = $("export-recording");
if (exportButton) exportButton.addEventListener("click", async () => {
  if (!sessionID) {
    el.status.textContent = T.exportNothing;
    return;
  }
  const q = new URLSearchParams({ session: sessionID, target: currentTarget() });
  if (isCustom()) q.set("to", el.to.value.trim());
  try {
    const r = await fetch("/console/export?" + q);
    if (!r.ok) {
      const why = await r.json().catch(() => ({}));
      el.status.textContent = T.exportFailed.replace("%s", why.error || r.statusText);
      return;
    }
    const named = /filename="([^"]+)"/.exec(r.headers.get("Content-Disposition") || "");
    download(named ? named[1] : "wirelab-" + data.slug + ".jsonl", "application/x-ndjson", await r.text());
  } catch (e) {
    el.status.textContent = T.exportFailed.replace("%s", e.message);
  }
});

// ---- history across reloads

const keep = 300; // rows kept: enough to scroll back through a lesson
const keepBytes = 65536; // of one row's raw bytes or frames, beyond which they are not kept
let saveTimer = 0;
function saveSoon() {
  if (saveTimer || watching) return;
  saveTimer = setTimeout(() => {
    saveTimer = 0;
    save();
  }, 300);
}

function save() {
  if (watching) return;
  const big = (frames) => frames.reduce((n, f) => n + (f.bytes || "").length, 0) > keepBytes;
  const rows = transcript.rows.slice(-keep).map((r) => Object.assign({}, r, {
    raw: r.raw && r.raw.length > keepBytes ? "" : r.raw,
    frames: r.frames && big(r.frames) ? [] : r.frames,
  }));
  try {
    localStorage.setItem(storeKey, JSON.stringify({ target: currentTarget(), to: el.to.value, composer: el.composer.value, rows: rows, stderr: el.stderr.textContent.slice(-16384) }));
  } catch (e) {
    // Storage full or off: the console works without history.
  }
}

function load() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(storeKey) || "null");
  } catch (e) {
    saved = null;
  }
  if (!saved || watching) return false;
  if ([...el.target.options].some((o) => o.value === saved.target)) el.target.value = saved.target;
  el.to.value = saved.to || "";
  el.composer.value = saved.composer || "";
  if (saved.rows && saved.rows.length > 0) {
    transcript.restore(saved.rows);
    const note = document.createElement("tr");
    note.className = "row row-note row-break";
    const td = document.createElement("td");
    td.colSpan = 7;
    td.textContent = T.earlier;
    note.append(td);
    el.rows.append(note);
  }
  el.stderr.textContent = saved.stderr || "";
  return true;
}

el.clear.addEventListener("click", () => {
  if (watching) return;
  // The followers keep these rows: the selected row's index still
  // counts them.
  cleared += transcript.rows.filter((r) => !r.old).length;
  transcript.clear();
  try {
    localStorage.removeItem(storeKey);
  } catch (e) {}
  save();
});

// ---- the classroom: presenting, following, trying a frame here

// moved says the page's state changed: while it presents, the followers
// see it.
function moved() {
  if (presenter) presenter.changed();
}

// pageState is what the followers of this page see (presenter.js).
function pageState() {
  const live = transcript.rows.filter((r) => !r.old);
  const i = selected ? live.indexOf(selected) : -1;
  return {
    page: location.pathname, target: currentTarget(), to: isCustom() ? el.to.value.trim() : "", frame: el.composer.value,
    row: i < 0 ? -1 : cleared + i, rowAt: i < 0 ? "" : selected.at || "", view: view, frameIndex: -1,
    lang: document.documentElement.lang || "en",
  };
}

// rowOf finds the presenter's selected row in the follower's transcript:
// by its index, which counts from the session's start as the follower's
// rows do, checked against its time; else by the time alone, in case the
// follower's history begins later.
function rowOf(s) {
  if (typeof s.row !== "number" || s.row < 0) return null;
  const r = transcript.rows[s.row];
  if (r && (!s.rowAt || r.at === s.rowAt)) return r;
  return (s.rowAt && transcript.rows.find((x) => x.at === s.rowAt)) || null;
}

// scrollBox brings a row into view inside the transcript's own box,
// leaving the page where the reader has it.
function scrollBox(tr) {
  const box = tr.closest(".transcript-scroll");
  if (!box) return;
  const top = tr.offsetTop - box.clientHeight / 2;
  box.scrollTop = Math.max(0, top);
}

// showTarget is the target a follower's page shows, as text: the
// presenter's, with a custom server's address.
function showTarget() {
  if (el.targetShown) el.targetShown.textContent = currentTarget() + (isCustom() && el.to.value ? " " + el.to.value : "");
}

// applyState makes a follower's page show what the presenter's shows.
function applyState(s) {
  if (goesWith(data.watch) && typeof s.page === "string" && s.page !== location.pathname) {
    const url = followURL(s.page, data.watch);
    if (url) {
      location.assign(url);
      return;
    }
  }
  if (typeof s.target === "string" && s.target !== currentTarget() && [...el.target.options].some((o) => o.value === s.target)) {
    el.target.value = s.target;
    listTemplates();
  }
  el.to.value = typeof s.to === "string" ? s.to : "";
  el.toRow.hidden = !isCustom();
  showTarget();
  // A frame too long for the state comes cut: it says so at its end.
  const frame = typeof s.frame === "string" ? s.frame + (s.cut ? "\n…" : "") : null;
  if (frame !== null && frame !== el.composer.value) {
    el.composer.value = frame;
    checkFrame();
  }
  if (typeof s.view === "string" && views[s.view] && s.view !== view) setView(s.view);
  const r = rowOf(s);
  if (r !== selected) select(r);
  if (r) {
    const tr = el.rows.querySelector(`tr[data-n="${r.n}"]`);
    if (tr) scrollBox(tr);
  }
}

// tryHere puts a frame from the instructor's console (beside, in the
// parent page) into this console's composer: its target, and the frame
// with this session's values in the placeholders.
function tryHere(t) {
  if (typeof t.target === "string" && [...el.target.options].some((o) => o.value === t.target)) {
    el.target.value = t.target;
    listTemplates();
  }
  if (isCustom()) el.to.value = typeof t.to === "string" ? t.to : "";
  el.composer.value = fill(typeof t.frame === "string" ? t.frame : "");
  checkFrame();
  save();
  el.composer.focus();
}

// ---- start

load();
listTemplates();
if (el.composer.value === "" && !watching) {
  const first = data.templates.findIndex((t) => t.target === templateTarget());
  if (first >= 0) el.composer.value = fill(data.templates[first].frame);
}
checkFrame();
drawSoon();
if (el.room) new Room(el.room);
if (tapping) {
  // Nothing can be sent where a tap is followed: no composer, and a
  // sentence that says so in its place.
  const composer = el.composer.closest(".composer");
  composer.hidden = true;
  const note = document.createElement("p");
  note.className = "tap-read-only";
  note.textContent = FT.readOnly;
  composer.after(note);
  countFindings();
}
if (watching) {
  showTarget();
  following = new Following(data.watch, {
    text: T.follow,
    missing: data.missing,
    status: el.status,
    toggle: el.follow,
    // A session's history comes again from its start: the transcript
    // and what it taught start over.
    reset: () => {
      transcript.clear();
      known = new WireKnown();
    },
    event: heard,
    state: applyState,
  });
  if (el.try) {
    // The student's console beside takes this page's theme and text
    // size as they change (comfort.js sets them on <html>).
    const root = document.documentElement;
    const same = () => {
      const theirs = el.own.contentDocument && el.own.contentDocument.documentElement;
      if (!theirs) return;
      for (const key of ["theme", "size"]) {
        if (root.dataset[key]) theirs.dataset[key] = root.dataset[key];
        else delete theirs.dataset[key];
      }
    };
    new MutationObserver(same).observe(root, { attributes: true, attributeFilter: ["data-theme", "data-size"] });
    el.own.addEventListener("load", same);
    el.try.addEventListener("click", () => {
      const t = { op: "try", target: currentTarget(), to: isCustom() ? el.to.value.trim() : "", frame: known.unfill(el.composer.value) };
      el.own.contentWindow.postMessage(t, location.origin);
      el.own.focus();
    });
  }
} else {
  wire.listen(heard);
  // Embedded, the console is a part of another page, never the one
  // presented; beside the instructor's, it takes the frames tried here.
  if (el.present && !document.body.classList.contains("embed")) presenter = new Presenter(wire, el.present, pageState, T.follow, (m) => (el.status.textContent = m));
  window.addEventListener("message", (e) => {
    if (e.origin !== location.origin || e.source !== window.parent || e.source === window || !e.data || e.data.op !== "try") return;
    tryHere(e.data);
  });
  wire.connect();
}
