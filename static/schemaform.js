// A form beside the MCP console's raw frame, built from a JSON Schema the
// page has seen: a tool's inputSchema (from a tools/list answer in this
// tab's transcript) over a tools/call's arguments, a prompt's arguments
// (from a prompts/list answer: each a string, some required; the schema
// is written here from them) over a prompts/get's, and an elicitation's
// requestedSchema over the answer's content, whether the server asked
// with an elicitation/create request (2025-11-25) or in an
// input_required result's inputRequests (2026-07-28).
//
// The frame stays the truth; the form is a helper. Each edit in the form
// rewrites the part of the frame it stands for (arguments, or content) at
// once, and each edit of the frame is read back into the form. A frame
// the form cannot read leaves it disabled, with a note saying why.
//
// One field per property of the schema's top level: text, number and
// integer inputs; a checkbox for a boolean; a list for an enum, and for
// a oneOf or anyOf of consts with titles (the titled enums of MCP
// elicitation); inputs that fit the formats email, uri, date and
// date-time; arrays, objects and anything else as JSON text. An emptied
// field leaves its property out, so that a required one says so.
//
// Validation is not written here. As the learner types, the form asks
// the playground (POST /console/schema/check, playground/schemacheck.go)
// to validate the value with the JSON Schema library that wirelab's own
// tools use, and shows each finding beside its field. Why there and not
// in the browser: a validator of our own would know only the keywords we
// thought of and would disagree with the servers at the edges (patterns,
// formats, $ref, the drafts), while the library is the one the course
// already teaches and tests; it also says when a server's schema is not
// valid JSON Schema at all. The cost is a request per pause in typing,
// to this machine only, which is what the playground is for. A page from
// another machine (a classroom's) is refused the check and says so; its
// fields still keep to their types.
//
//   const form = new SchemaForm({ text, box, composer, rows, target, edited });
//   form.frameChanged();      // the composer's frame changed (typed, picked, answered)
//   form.rowsChanged();       // the transcript changed: new tools, new questions
//   form.asksInput(row);      // an input_required answer the learner may answer
//   form.retryFrame(row);     // the request again, answered, for the composer
import { splitHTTP, parseJSON } from "./transcript.js";

// checkPause is how long the form waits after the last keystroke before
// it asks for a check: long enough to let a word be typed, short enough
// to feel at once.
const checkPause = 150;

// maxFields bounds the fields of one form: a schema with more properties
// is a schema for a program, and its frame is the place to write them.
const maxFields = 100;

// messageOf is the JSON text a transcript row carries: a stdio line, an
// HTTP body, or an SSE event's data.
function messageOf(r) {
  if (r.kind === "line") return r.text || "";
  if (r.kind === "sse") return r.sseData || "";
  if (r.kind === "http") return splitHTTP(r.text || "").body;
  return "";
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// promptSchema writes the JSON Schema a prompt's arguments stand for:
// MCP lists them as names, each a string, some required.
function promptSchema(prompt) {
  const schema = { type: "object", properties: {}, required: [] };
  for (const a of Array.isArray(prompt.arguments) ? prompt.arguments : []) {
    if (!isObject(a) || typeof a.name !== "string") continue;
    const p = { type: "string" };
    if (typeof a.title === "string") p.title = a.title;
    if (typeof a.description === "string") p.description = a.description;
    schema.properties[a.name] = p;
    if (a.required) schema.required.push(a.name);
  }
  return schema;
}
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// typeOf is the one type a field is built for: a schema's type, or the
// first that is not null of a list of types.
function typeOf(s) {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== "null") || "";
  return typeof s.type === "string" ? s.type : "";
}

// choicesOf lists a property's allowed values with what to show for
// each: an enum, or a oneOf or anyOf whose every branch is a const
// (with its title, as MCP elicitation writes a titled enum); or null.
function choicesOf(s) {
  if (Array.isArray(s.enum)) return s.enum.map((v, i) => ({ value: v, title: (Array.isArray(s.enumNames) && s.enumNames[i]) || String(v) }));
  const branches = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (branches && branches.length > 0 && branches.every((b) => isObject(b) && "const" in b)) {
    return branches.map((b) => ({ value: b.const, title: typeof b.title === "string" ? b.title : String(b.const) }));
  }
  return null;
}

// formDefaults is the content a form starts from: each property's
// default; a required one without a default gets a first value (true
// for a boolean, as a confirmation is asked to go ahead; the first
// choice of an enum; 0; ""), and an optional one is left out.
export function formDefaults(schema) {
  const content = {};
  if (!isObject(schema) || !isObject(schema.properties)) return content;
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const [k, s] of Object.entries(schema.properties)) {
    if (!isObject(s)) continue;
    if ("default" in s) content[k] = s.default;
    else if (!required.includes(k)) continue;
    else if (choicesOf(s)) content[k] = choicesOf(s)[0].value;
    else if (typeOf(s) === "boolean") content[k] = true;
    else if (typeOf(s) === "number" || typeOf(s) === "integer") content[k] = 0;
    else if (typeOf(s) === "string") content[k] = "";
  }
  return content;
}

// inputResult is the learner's answer to what a server asks of the
// client, ready to edit: an elicitation accepted with its form's
// defaults, no roots, a sampling written by hand.
export function inputResult(method, params) {
  if (method === "elicitation/create") return { action: "accept", content: formDefaults(params && params.requestedSchema) };
  if (method === "roots/list") return { roots: [] };
  if (method === "sampling/createMessage") return { role: "assistant", content: { type: "text", text: "written by hand" }, model: "by-hand" };
  return {};
}

// readFrame reads the one JSON-RPC message of a frame: an HTTP request's
// body, or a stdio frame's line (of several, each is tried, last first,
// by pick). It returns the message and a way to write the frame again
// with the message changed, the rest of the frame as it was; a null
// message when no line is one pick takes; or the reason it cannot.
function readFrame(frame, pick) {
  if (/^[A-Z]+ \S+ HTTP\/1\.[01]\s*(\n|$)/.test(frame)) {
    const m = /\r?\n\r?\n/.exec(frame);
    if (!m) return { error: "no body" };
    const head = frame.slice(0, m.index);
    const body = frame.slice(m.index + m[0].length);
    let msg;
    try {
      msg = JSON.parse(body);
    } catch (e) {
      return { error: e.message };
    }
    const indent = body.trim().includes("\n") ? 2 : 0;
    return {
      msg: msg,
      write: (changed) => {
        const text = JSON.stringify(changed, null, indent);
        // A Content-Length the learner wrote is kept true.
        const length = new TextEncoder().encode(text).length;
        return head.replace(/^(content-length:[ \t]*)\d+/im, "$1" + length) + m[0] + text;
      },
    };
  }
  const lines = frame.split("\n");
  let error = "empty";
  let parsed = false; // some line is JSON, if none the form is for
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i].trim() === "") continue;
    let msg;
    try {
      msg = JSON.parse(lines[i]);
    } catch (e) {
      error = e.message;
      continue;
    }
    parsed = true;
    if (!pick(msg)) continue;
    return {
      msg: msg,
      write: (changed) => lines.map((l, j) => (j === i ? JSON.stringify(changed) : l)).join("\n"),
    };
  }
  return parsed ? { msg: null } : { error: error };
}

// at and put read and write a value at a path inside a message; put
// makes the objects on the way. Keys are defined, not assigned, so that
// one a server named __proto__ is a key like any other.
function at(msg, path) {
  let v = msg;
  for (const k of path) {
    if (!isObject(v) || !Object.hasOwn(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

function put(msg, path, value) {
  const define = (o, k, x) => Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
  let v = msg;
  for (const k of path.slice(0, -1)) {
    if (!isObject(v[k]) || !Object.hasOwn(v, k)) define(v, k, {});
    v = v[k];
  }
  define(v, path[path.length - 1], value);
}

// localDateTime and isoDateTime convert between a date-time input's
// value (local, to the minute or second) and RFC 3339, as JSON Schema's
// date-time format has it.
function localDateTime(v) {
  const d = new Date(v);
  if (typeof v !== "string" || isNaN(d)) return "";
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function isoDateTime(v) {
  const d = new Date(v);
  return isNaN(d) ? v : d.toISOString().replace(/\.000Z$/, "Z");
}

const inputTypes = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" };

// SchemaForm is the form beside one console's composer.
export class SchemaForm {
  // opts: text (the page's strings, consoleText.Schema), box (the form's
  // element), composer (the frame's textarea), rows (a function giving
  // the transcript's rows), target (a function giving the current
  // target), edited (called after the form rewrote the frame).
  constructor(opts) {
    this.T = opts.text;
    this.box = opts.box;
    this.composer = opts.composer;
    this.rows = opts.rows;
    this.target = opts.target;
    this.edited = opts.edited;
    this.parsed = new WeakMap(); // a row -> {text, msg}: each row's JSON, read once
    this.parts = []; // the form's parts as drawn, each {title, schema, path, fields, status, ...}
    this.shape = ""; // what the drawn parts were built from
    this.writing = false; // the form is rewriting the frame: what changes is its own doing
    this.off = false; // the form is disabled: the frame cannot be read
    this.checkOff = false; // the playground refused the check: this page is not on its machine
    this.checkTimer = 0;
    this.rowsTimer = 0;
    this.box.addEventListener("input", (e) => this.fieldEdited(e));
    this.box.addEventListener("change", (e) => this.fieldEdited(e));
  }

  // msgOf is a row's JSON message, or null.
  msgOf(r) {
    const text = messageOf(r);
    const known = this.parsed.get(r);
    if (known && known.text === text) return known.msg;
    const msg = text ? parseJSON(text) || null : null;
    this.parsed.set(r, { text: text, msg: msg });
    return msg;
  }

  // latest finds, newest first, the first message the server sent that
  // fits: from the current target if any does, else from any.
  latest(fits) {
    const rows = this.rows();
    const target = this.target();
    let other = null;
    for (let i = rows.length - 1; i >= 0; i--) {
      const r = rows[i];
      if (r.dir !== "in") continue;
      const msg = this.msgOf(r);
      if (!msg || !fits(msg)) continue;
      if (r.target === target) return msg;
      if (!other) other = msg;
    }
    return other;
  }

  // tool is the definition of a tool the server listed, or null.
  tool(name) {
    let found = null;
    this.latest((msg) => {
      const tools = msg.result && Array.isArray(msg.result.tools) ? msg.result.tools : null;
      found = tools && tools.find((t) => isObject(t) && t.name === name && isObject(t.inputSchema));
      return !!found;
    });
    return found || null;
  }

  // prompt is the definition of a prompt the server listed, or null.
  prompt(name) {
    let found = null;
    this.latest((msg) => {
      const prompts = msg.result && Array.isArray(msg.result.prompts) ? msg.result.prompts : null;
      found = prompts && prompts.find((p) => isObject(p) && p.name === name);
      return !!found;
    });
    return found || null;
  }

  // partsOf lists what of a message a form can stand for, each with its
  // schema and where in the message its value is.
  partsOf(msg) {
    const parts = [];
    if (!isObject(msg)) return parts;
    const params = isObject(msg.params) ? msg.params : {};
    if (msg.method === "tools/call" && typeof params.name === "string") {
      const tool = this.tool(params.name);
      if (tool) parts.push({ title: this.T.arguments.replace("%s", params.name), schema: tool.inputSchema, path: ["params", "arguments"] });
    }
    if (msg.method === "prompts/get" && typeof params.name === "string") {
      const prompt = this.prompt(params.name);
      if (prompt) parts.push({ title: this.T.promptArguments.replace("%s", params.name), schema: promptSchema(prompt), path: ["params", "arguments"] });
    }
    if (typeof msg.method === "string" && isObject(params.inputResponses)) {
      // A 2026-07-28 retry: each answer's question is in the latest
      // input_required result that asked it.
      for (const key of Object.keys(params.inputResponses)) {
        const asked = this.latest((m) => {
          const r = m.result;
          const q = r && r.resultType === "input_required" && isObject(r.inputRequests) && r.inputRequests[key];
          return !!q && q.method === "elicitation/create" && isObject(q.params) && isObject(q.params.requestedSchema);
        });
        if (!asked) continue;
        const q = asked.result.inputRequests[key];
        parts.push({ title: this.T.answerKey.replace("%s", key), message: q.params.message, schema: q.params.requestedSchema, path: ["params", "inputResponses", key, "content"] });
      }
    }
    if (msg.method === undefined && "result" in msg && msg.id !== undefined) {
      // An answer to the server's elicitation/create, by its id.
      const asked = this.latest((m) => m.method === "elicitation/create" && same(m.id, msg.id) && isObject(m.params) && isObject(m.params.requestedSchema));
      if (asked) parts.push({ title: this.T.answer, message: asked.params.message, schema: asked.params.requestedSchema, path: ["result", "content"] });
    }
    return parts;
  }

  // frameChanged reads the frame again: the form appears, changes,
  // follows the frame's values, or goes.
  frameChanged() {
    if (this.writing) return;
    const read = readFrame(this.composer.value, (msg) => this.partsOf(msg).length > 0);
    if (read.error) {
      // A form that was there stays, disabled, saying why.
      if (this.parts.length > 0) this.disable(this.T.unreadable.replace("%s", read.error));
      else this.hide();
      return;
    }
    const parts = this.partsOf(read.msg);
    if (parts.length === 0) return this.hide();
    const shape = JSON.stringify(parts.map((p) => [p.title, p.message, p.schema, p.path]));
    if (shape !== this.shape) this.draw(parts, shape);
    this.enable(true);
    this.note.hidden = true;
    for (const p of this.parts) this.fill(p, at(read.msg, p.path));
    this.checkSoon();
  }

  // rowsChanged notes that the transcript changed: a tools/list answer or
  // a question may have come that the frame was waiting for.
  rowsChanged() {
    if (this.rowsTimer) return;
    this.rowsTimer = setTimeout(() => {
      this.rowsTimer = 0;
      this.frameChanged();
    }, 100);
  }

  hide() {
    this.box.hidden = true;
    this.box.replaceChildren();
    this.parts = [];
    this.shape = "";
  }

  disable(why) {
    this.enable(false);
    this.note.textContent = "⚠ " + why;
    this.note.hidden = false;
  }

  enable(on) {
    this.off = !on;
    for (const p of this.parts) p.set.disabled = !on;
  }

  // draw builds the form's parts: one fieldset each.
  draw(parts, shape) {
    this.box.replaceChildren();
    this.note = document.createElement("p");
    this.note.className = "schema-note";
    this.note.hidden = true;
    this.box.append(this.note);
    parts.forEach((p, n) => {
      const set = document.createElement("fieldset");
      set.className = "schema-part";
      p.set = set;
      const legend = document.createElement("legend");
      legend.textContent = p.title;
      set.append(legend);
      if (typeof p.message === "string" && p.message !== "") {
        const m = document.createElement("p");
        m.className = "schema-message";
        m.textContent = p.message;
        set.append(m);
      }
      const props = isObject(p.schema.properties) ? Object.entries(p.schema.properties) : [];
      const required = Array.isArray(p.schema.required) ? p.schema.required : [];
      p.fields = new Map();
      for (const [name, s] of props.slice(0, maxFields)) {
        const f = this.field(n, name, isObject(s) ? s : {}, required.includes(name));
        p.fields.set(name, f);
        set.append(f.row);
      }
      if (props.length > maxFields) {
        const more = document.createElement("p");
        more.className = "schema-note";
        more.textContent = this.T.tooMany.replace("%d", props.length).replace("%d", maxFields);
        set.append(more);
      }
      p.status = document.createElement("p");
      p.status.className = "schema-status";
      p.status.setAttribute("aria-live", "polite");
      set.append(p.status);
      p.asked = ""; // the last check asked for this part
      p.seq = 0;
      this.box.append(set);
    });
    this.parts = parts;
    this.shape = shape;
    this.box.hidden = false;
  }

  // field builds one property's row: its label (with its name, and a
  // mark if required), its control, its description, and a place for
  // what the check finds in it.
  field(n, name, s, required) {
    const row = document.createElement("div");
    row.className = "schema-field";
    row.dataset.prop = name;
    const id = "schema-" + n + "-" + name.replace(/[^\w-]/g, "_");
    const label = document.createElement("label");
    label.htmlFor = id;
    if (typeof s.title === "string" && s.title !== "" && s.title !== name) label.append(s.title + " ");
    const code = document.createElement("code");
    code.textContent = name;
    label.append(code);
    if (required) {
      const mark = document.createElement("abbr");
      mark.className = "schema-required";
      mark.title = this.T.required;
      mark.textContent = "*";
      label.append(" ", mark);
    }
    const f = { name: name, schema: s, type: typeOf(s), choices: choicesOf(s), row: row };
    let control;
    if (f.choices) {
      control = document.createElement("select");
      control.append(new Option(this.T.unset, ""));
      f.choices.forEach((c, i) => control.append(new Option(c.title, String(i))));
      f.kind = "select";
    } else if (f.type === "boolean") {
      control = document.createElement("input");
      control.type = "checkbox";
      f.kind = "boolean";
    } else if (f.type === "number" || f.type === "integer") {
      control = document.createElement("input");
      control.type = "number";
      control.step = f.type === "integer" ? "1" : "any";
      f.kind = "number";
    } else if (f.type === "string") {
      control = document.createElement("input");
      control.type = inputTypes[s.format] || "text";
      if (s.format === "date-time") control.step = "1";
      f.kind = "string";
    } else {
      control = document.createElement("textarea");
      control.rows = 2;
      control.spellcheck = false;
      control.placeholder = this.T.asJSON;
      f.kind = "json";
    }
    control.id = id;
    control.dataset.prop = name;
    control.dataset.part = String(n);
    if (required) control.setAttribute("aria-required", "true");
    f.control = control;
    row.append(label, control);
    if (typeof s.description === "string" && s.description !== "") {
      const help = document.createElement("p");
      help.className = "schema-help";
      help.id = id + "-help";
      help.textContent = s.description;
      control.setAttribute("aria-describedby", help.id);
      row.append(help);
    }
    f.error = document.createElement("p");
    f.error.className = "schema-error";
    f.error.setAttribute("aria-live", "polite");
    row.append(f.error);
    return f;
  }

  // fill shows a part's value from the frame in its fields, leaving alone
  // the field the learner is typing in.
  fill(p, value) {
    const v = isObject(value) ? value : {};
    for (const f of p.fields.values()) {
      if (f.control === document.activeElement) continue;
      const has = Object.hasOwn(v, f.name);
      const x = v[f.name];
      const c = f.control;
      if (f.kind === "select") {
        let i = has ? f.choices.findIndex((ch) => same(ch.value, x)) : -1;
        // A value typed in the frame that is not a choice is shown as it
        // is, and the check says why it is wrong.
        const extra = c.querySelector("option[data-extra]");
        if (extra) extra.remove();
        if (has && i < 0) {
          const o = new Option(JSON.stringify(x), "extra");
          o.dataset.extra = "1";
          c.append(o);
          c.value = "extra";
        } else c.value = i < 0 ? "" : String(i);
      } else if (f.kind === "boolean") {
        c.checked = x === true;
        c.indeterminate = !has || typeof x !== "boolean";
      } else if (f.kind === "number") {
        c.value = typeof x === "number" ? String(x) : "";
      } else if (f.kind === "string") {
        const s = typeof x === "string" ? x : has ? JSON.stringify(x) : "";
        c.value = f.schema.format === "date-time" ? localDateTime(s) : s;
      } else {
        c.value = has ? JSON.stringify(x) : "";
      }
    }
  }

  // read is what a field holds, as JSON: {value}, {absent}, or {error}.
  read(f) {
    const c = f.control;
    if (f.kind === "select") {
      if (c.value === "") return { absent: true };
      if (c.value === "extra") return { keep: true };
      return { value: f.choices[Number(c.value)].value };
    }
    if (f.kind === "boolean") return { value: c.checked };
    if (c.value === "") return { absent: true };
    if (f.kind === "number") {
      const x = Number(c.value);
      return isNaN(x) ? { absent: true } : { value: x };
    }
    if (f.kind === "string") return { value: f.schema.format === "date-time" ? isoDateTime(c.value) : c.value };
    try {
      return { value: JSON.parse(c.value) };
    } catch (e) {
      return { error: this.T.notJSON.replace("%s", e.message) };
    }
  }

  // fieldEdited writes one field's edit into the frame.
  fieldEdited(e) {
    const c = e.target;
    if (!c.dataset || c.dataset.prop === undefined || this.off) return;
    const p = this.parts[Number(c.dataset.part)];
    const f = p && p.fields.get(c.dataset.prop);
    if (!f) return;
    if (f.kind === "boolean") c.indeterminate = false;
    const got = this.read(f);
    if (got.error) {
      f.error.textContent = got.error;
      return;
    }
    if (got.keep) return;
    const read = readFrame(this.composer.value, (msg) => this.partsOf(msg).length > 0);
    if (read.error || !read.msg) return this.disable(this.T.unreadable.replace("%s", read.error || "?"));
    let value = at(read.msg, p.path);
    if (!isObject(value)) {
      value = {};
      put(read.msg, p.path, value);
    }
    if (got.absent) delete value[f.name];
    else put(value, [f.name], got.value);
    this.writing = true;
    try {
      this.composer.value = read.write(read.msg);
      this.edited();
    } finally {
      this.writing = false;
    }
    this.checkSoon();
  }

  // checkSoon asks for a check once the typing pauses.
  checkSoon() {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.check(), checkPause);
  }

  // check asks the playground to validate each part's value against its
  // schema, and shows what it found beside the fields.
  check() {
    const read = readFrame(this.composer.value, (msg) => this.partsOf(msg).length > 0);
    if (read.error || !read.msg) return;
    for (const p of this.parts) {
      const value = at(read.msg, p.path);
      const body = JSON.stringify({ schema: p.schema, value: value === undefined ? {} : value, lang: document.documentElement.lang || "en" });
      if (body === p.asked) continue;
      p.asked = body;
      const seq = ++p.seq;
      if (this.checkOff) {
        this.show(p, null, this.T.checkOff);
        continue;
      }
      fetch("/console/schema/check", { method: "POST", headers: { "Content-Type": "application/json" }, body: body })
        .then(async (r) => {
          const answer = await r.json().catch(() => ({ error: r.status + " " + r.statusText }));
          if (seq !== p.seq) return; // a later check is on its way
          if (r.status === 403) {
            this.checkOff = true;
            this.show(p, null, this.T.checkOff);
          } else if (r.status === 422) this.show(p, null, this.T.badSchema.replace("%s", answer.error));
          else if (!r.ok) this.show(p, null, this.T.checkFailed.replace("%s", answer.error || r.status));
          else this.show(p, answer.findings || [], "");
        })
        .catch((e) => {
          if (seq === p.seq) this.show(p, null, this.T.checkFailed.replace("%s", e.message));
        });
    }
  }

  // show puts findings beside their fields, and those of no field (or
  // of a field the form does not show) in the part's status line.
  show(p, findings, note) {
    for (const f of p.fields.values()) {
      f.error.textContent = "";
      f.row.classList.remove("schema-bad");
      f.control.removeAttribute("aria-invalid");
    }
    p.status.className = "schema-status";
    if (findings === null) {
      p.status.textContent = note;
      p.status.classList.add("schema-off");
      return;
    }
    const rest = [];
    for (const x of findings) {
      const f = p.fields.get(x.field);
      if (!f) {
        rest.push((x.at ? x.at + ": " : "") + x.message);
        continue;
      }
      const where = x.at && x.at !== x.field ? x.at + ": " : "";
      f.error.textContent = (f.error.textContent ? f.error.textContent + "; " : "") + where + x.message;
      f.row.classList.add("schema-bad");
      f.control.setAttribute("aria-invalid", "true");
    }
    p.status.textContent = findings.length === 0 ? this.T.valid : rest.join("; ");
    p.status.classList.add(findings.length === 0 ? "schema-ok" : "schema-bad");
  }

  // asksInput says whether a row is an input_required answer whose
  // questions the learner may answer.
  asksInput(r) {
    if (r.dir !== "in" || !/input_required/.test(messageOf(r))) return false;
    const msg = this.msgOf(r);
    return !!(msg && isObject(msg.result) && msg.result.resultType === "input_required");
  }

  // retryFrame is the request an input_required answer answered, sent
  // again as 2026-07-28 has it: a new id, an answer under each question's
  // key in inputResponses, and requestState echoed as it came. Null if
  // the request is not in the transcript.
  retryFrame(r) {
    if (!this.asksInput(r)) return null;
    const result = this.msgOf(r).result;
    const request = this.rows().find((x) => x.n === r.answers && x.dir === "out");
    if (!request) return null;
    // The playground set the request's Content-Length; it sets it again.
    const frame = request.kind === "http" ? request.text.replace(/^content-length:.*\r?\n/gim, "") : request.text;
    const read = readFrame(frame, (msg) => isObject(msg) && typeof msg.method === "string");
    if (read.error || !read.msg) return null;
    const msg = read.msg;
    let last = 0;
    for (const x of this.rows()) {
      const m = x.dir === "out" && this.msgOf(x);
      if (m && typeof m.id === "number" && m.id > last) last = m.id;
    }
    msg.id = last + 1;
    if (!isObject(msg.params)) msg.params = {};
    const answers = {};
    for (const [key, q] of Object.entries(isObject(result.inputRequests) ? result.inputRequests : {})) {
      if (isObject(q)) answers[key] = inputResult(q.method, q.params);
    }
    delete msg.params.inputResponses;
    delete msg.params.requestState;
    if (Object.keys(answers).length > 0) msg.params.inputResponses = answers;
    if (typeof result.requestState === "string") msg.params.requestState = result.requestState;
    return read.write(msg);
  }
}
