// The gRPC console's parts that know what a server declares: its methods
// as templates (each with a request whose fields are at their zero
// values), its bytes fields in the composer, and, for the learner's own
// server (custom-grpc), how the connection is secured and where the
// descriptors come from when the server has no reflection.
//
// What the server declares comes from POST /console/grpc/descriptors
// (playground/grpcupload.go): by reflection, or from .proto files or a
// protoset uploaded here. The custom target's "to" carries the options,
// as grpcurl spells them, so that they can be read and typed too:
//
//   localhost:9443 -cacert /home/me/ca.pem -proto upload:0a1b2c3d4e5f6071
//   localhost:9443 -cacert ca.pem -cert me.pem -key me-key.pem
//
// A client certificate (mutual TLS) is two files, the certificate and its
// private key, as grpcurl takes them; pasted here, both go in one upload
// (kind "cert") that -cert and -key both name. The playground holds the
// key in memory only and never shows it again; the textarea is emptied
// once it is uploaded.
//
// A bytes field is base64 text in ProtoJSON. A server that carries JSON
// in one (wirelab's own ExecuteTool has bytes arguments) is easier to
// call with the JSON itself: the composer accepts a JSON object or array
// there, shows the base64 of its bytes under the frame, and sends that.

// splitWords splits a "to" into words as a shell would, for the quoting
// the playground reads (single and double quotes, backslashes).
export function splitWords(line) {
  const words = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word += line.slice(i + 1, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const quote = (w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : "'" + w.replaceAll("'", "'\\''") + "'");

// parseTo reads a custom-grpc "to": the address and the options.
export function parseTo(to) {
  const words = splitWords(to || "");
  const p = { addr: words[0] || "", tls: false, cacert: "", servername: "", cert: "", key: "", descriptors: [], other: [] };
  for (let i = 1; i < words.length; i++) {
    const flag = "-" + words[i].replace(/^-+/, "");
    const takes = ["-cacert", "-cert", "-key", "-servername", "-proto", "-protoset", "-import-path"].includes(flag);
    const v = takes && i + 1 < words.length ? words[++i] : "";
    if (flag === "-tls") p.tls = true;
    else if (flag === "-plaintext") p.tls = false;
    else if (flag === "-cacert") [p.tls, p.cacert] = [true, v];
    else if (flag === "-servername") [p.tls, p.servername] = [true, v];
    else if (flag === "-cert") [p.tls, p.cert] = [true, v];
    else if (flag === "-key") [p.tls, p.key] = [true, v];
    else if (flag === "-proto" || flag === "-protoset" || flag === "-import-path") p.descriptors.push(flag, v);
    else p.other.push(words[i]);
  }
  return p;
}

// formatTo writes a "to" back from what parseTo read.
export function formatTo(p) {
  const words = [p.addr];
  if (p.cacert) words.push("-cacert", p.cacert);
  else if (p.tls) words.push("-tls");
  if (p.servername) words.push("-servername", p.servername);
  if (p.cert) words.push("-cert", p.cert);
  if (p.key) words.push("-key", p.key);
  words.push(...p.descriptors, ...p.other);
  return words.filter((w) => w !== "").map(quote).join(" ");
}

// ---- bytes fields

// isBase64 says whether ProtoJSON reads text as bytes: base64, standard
// or URL-safe, padded or not.
function isBase64(text) {
  const bare = text.replace(/={1,2}$/, "");
  return /^[A-Za-z0-9+/_-]*$/.test(bare) && bare.length % 4 !== 1 && (bare.length === text.length || text.length % 4 === 0);
}

function toBase64(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function fromBase64(text) {
  try {
    const bin = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch (e) {
    return null;
  }
}

// encodeBytes walks a request along its message's shape: a JSON object or
// array in a bytes field becomes the base64 of its JSON text, and every
// such change is listed in sent; anything else in a bytes field that is
// not base64 text is a problem. It returns the request, changed in place.
function encodeBytes(value, shape, path, sent, problems) {
  if (!shape || !shape.fields || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  for (const [name, field] of Object.entries(shape.fields)) {
    if (!(name in value)) continue;
    const here = path ? path + "." + name : name;
    const one = (v, where) => {
      if (field.kind === "bytes") {
        if (v !== null && typeof v === "object") {
          const json = JSON.stringify(v);
          const b64 = toBase64(json);
          sent.push({ path: where, json: json, base64: b64 });
          return b64;
        }
        if (typeof v === "string" && !isBase64(v)) problems.push({ path: where, value: v, notBase64: true });
        else if (typeof v !== "string" && v !== null) problems.push({ path: where, value: v });
        else if (typeof v === "string" && v !== "") sent.push({ path: where, base64: v, holds: fromBase64(v) });
        return v;
      }
      if (field.message) encodeBytes(v, field.message, where, sent, problems);
      return v;
    };
    const v = value[name];
    if (field.map && v && typeof v === "object") {
      for (const k of Object.keys(v)) v[k] = one(v[k], here + "[" + JSON.stringify(k) + "]");
    } else if (field.repeated && Array.isArray(v)) {
      value[name] = v.map((x, i) => one(x, here + "[" + i + "]"));
    } else {
      value[name] = one(v, here);
    }
  }
  return value;
}

// splitFrame reads a gRPC frame as the playground does: the method, then
// header lines, then the JSON; head is the method and the header lines.
function splitFrame(frame) {
  const lines = frame.trim().split("\n");
  let i = 1;
  while (i < lines.length && /^[^\s:{"]+:\s*.*$/.test(lines[i])) i++;
  return { method: lines[0].trim().replace(/^\//, ""), head: lines.slice(0, i), body: lines.slice(i).join("\n").trim() };
}

// ---- the panel

// GRPCPanel is the gRPC console's knowledge of what a server declares,
// and the controls of the learner's own server. opts: text (the page's
// strings, data.text.grpc), to (the custom target's input), target (a
// function that returns the current target), targetSelect (the target's
// <select>), changed (called when the templates or the "to" have
// changed).
export class GRPCPanel {
  constructor(opts) {
    this.T = opts.text;
    this.to = opts.to;
    this.target = opts.target;
    this.changed = opts.changed;
    this.described = {}; // target key -> the methods it declares
    this.asked = ""; // the key last asked about
    const $ = (id) => document.getElementById(id);
    this.el = {
      own: $("grpc-own"), security: $("grpc-security"), cafile: $("grpc-cafile"), capem: $("grpc-capem"), servername: $("grpc-servername"),
      clientLabel: $("grpc-client-label"), client: $("grpc-client"), certfile: $("grpc-certfile"), keyfile: $("grpc-keyfile"), certpem: $("grpc-certpem"),
      files: $("grpc-files"), describe: $("grpc-describe"), status: $("grpc-status"), bytes: $("grpc-bytes"),
    };
    // What the targets declare is asked once the page has restored its
    // target and "to", and again when either changes.
    const again = () => {
      this.readTo();
      this.describe();
    };
    opts.targetSelect.addEventListener("change", again);
    this.to.addEventListener("change", again);
    queueMicrotask(again);
    if (!this.el.own) return; // a follower's page: no controls
    const rewrite = () => {
      this.writeTo();
      this.describe();
    };
    this.el.security.addEventListener("change", () => {
      this.showControls();
      rewrite();
    });
    this.el.cafile.addEventListener("change", rewrite);
    this.el.servername.addEventListener("change", rewrite);
    this.el.capem.addEventListener("change", () => this.pasteCA());
    this.el.client.addEventListener("change", () => {
      this.showControls();
      rewrite();
    });
    this.el.certfile.addEventListener("change", rewrite);
    this.el.keyfile.addEventListener("change", rewrite);
    this.el.certpem.addEventListener("change", () => this.pasteCert());
    this.el.files.addEventListener("change", () => this.upload());
    this.el.describe.addEventListener("click", () => this.describe(true));
  }

  // key is what the current target's methods are kept under.
  key() {
    const t = this.target();
    return t === "custom-grpc" ? "custom-grpc " + this.to.value.trim() : t;
  }

  // methods are the current target's declared methods, if known.
  methods() {
    return this.described[this.key()] || [];
  }

  // readTo sets the controls from the "to", as typed or restored.
  readTo() {
    if (!this.el.own) return;
    const p = parseTo(this.to.value);
    const pasted = p.cacert.startsWith("upload:");
    this.el.security.value = !p.tls ? "plaintext" : pasted ? "pasted" : p.cacert ? "cafile" : "system";
    if (!pasted) this.el.cafile.value = p.cacert;
    this.el.servername.value = p.servername;
    const certPasted = p.cert.startsWith("upload:");
    this.el.client.value = !p.cert && !p.key ? "none" : certPasted ? "pasted" : "files";
    if (!certPasted) [this.el.certfile.value, this.el.keyfile.value] = [p.cert, p.key];
    this.showControls();
  }

  showControls() {
    const s = this.el.security.value;
    this.el.cafile.hidden = s !== "cafile";
    this.el.capem.hidden = s !== "pasted";
    this.el.servername.hidden = s === "plaintext";
    const c = this.el.client.value;
    this.el.clientLabel.hidden = s === "plaintext";
    this.el.certfile.hidden = this.el.keyfile.hidden = s === "plaintext" || c !== "files";
    this.el.certpem.hidden = s === "plaintext" || c !== "pasted";
  }

  // writeTo puts the controls' choices into the "to"; uploaded names
  // the uploads just made: {ca, cert}.
  writeTo(uploaded) {
    const up = uploaded || {};
    const p = parseTo(this.to.value);
    const s = this.el.security.value;
    p.tls = s !== "plaintext";
    p.cacert = s === "cafile" ? this.el.cafile.value.trim() : s === "pasted" ? up.ca || (p.cacert.startsWith("upload:") ? p.cacert : "") : "";
    p.servername = p.tls ? this.el.servername.value.trim() : "";
    // A client certificate is grpcurl's -cert and -key; a pasted one is
    // one upload, named by both.
    const c = p.tls ? this.el.client.value : "none";
    const held = p.cert.startsWith("upload:") ? p.cert : "";
    const pasted = c === "pasted" ? up.cert || held : "";
    p.cert = c === "files" ? this.el.certfile.value.trim() : pasted;
    p.key = c === "files" ? this.el.keyfile.value.trim() : pasted;
    this.to.value = formatTo(p);
    this.changed();
  }

  say(text, bad) {
    if (!this.el.status) return;
    this.el.status.textContent = text;
    this.el.status.className = "check grpc-status " + (bad ? "bad" : "ok");
  }

  // post sends a request to the descriptors' route and returns its JSON
  // answer, throwing its error.
  async post(body, json) {
    const r = await fetch("/console/grpc/descriptors", json ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) } : { method: "POST", body: body });
    const answer = await r.json().catch(() => ({ error: r.status + " " + r.statusText }));
    if (!r.ok || answer.error) throw new Error(answer.error || r.statusText);
    return answer;
  }

  // pasteCA uploads the pasted CA and names it in the "to".
  async pasteCA() {
    const pem = this.el.capem.value.trim();
    if (pem === "") return;
    const form = new FormData();
    form.append("kind", "ca");
    form.append("file", new Blob([pem]), "pasted-ca.pem");
    try {
      const answer = await this.post(form);
      this.writeTo({ ca: answer.upload });
      this.describe();
    } catch (e) {
      this.say(e.message, true);
    }
  }

  // pasteCert uploads the pasted client certificate and its key, names
  // the upload in the "to" as -cert and -key, and empties the textarea:
  // the key stays in the playground's memory, not on the page.
  async pasteCert() {
    const pem = this.el.certpem.value.trim();
    if (pem === "") return;
    const form = new FormData();
    form.append("kind", "cert");
    form.append("file", new Blob([pem]), "pasted-cert.pem");
    try {
      const answer = await this.post(form);
      this.el.certpem.value = "";
      this.writeTo({ cert: answer.upload });
      this.say(answer.source);
      this.describe();
    } catch (e) {
      this.say(e.message, true);
    }
  }

  // upload sends the chosen .proto files (or one protoset) and names them
  // in the "to".
  async upload() {
    const files = [...this.el.files.files];
    if (files.length === 0) return;
    const kind = files.every((f) => /\.proto$/i.test(f.name)) ? "proto" : "protoset";
    const form = new FormData();
    form.append("kind", kind);
    for (const f of files) form.append("file", f, f.name);
    this.say(this.T.uploading);
    try {
      const answer = await this.post(form);
      const p = parseTo(this.to.value);
      p.descriptors = ["-" + kind, answer.upload];
      this.to.value = formatTo(p);
      this.learn(this.key(), answer);
      this.changed();
    } catch (e) {
      this.say(e.message, true);
    }
    this.el.files.value = "";
  }

  // describe asks what the current target declares, once per target
  // and "to" unless again.
  async describe(again) {
    const t = this.target();
    if (!/grpc/.test(t) || (t === "custom-grpc" && parseTo(this.to.value).addr === "")) return;
    const key = this.key();
    if (!again && (this.described[key] || this.asked === key)) return;
    this.asked = key;
    if (t === "custom-grpc") this.say(this.T.asking);
    try {
      const answer = await this.post({ target: t, to: t === "custom-grpc" ? this.to.value.trim() : "" }, true);
      this.learn(key, answer);
      this.changed();
    } catch (e) {
      if (t === "custom-grpc" && this.key() === key) this.say(e.message, true);
    }
  }

  // learn keeps what a target declares, and says it.
  learn(key, answer) {
    const methods = [];
    for (const s of answer.services || []) methods.push(...s.methods);
    this.described[key] = methods;
    if (key.startsWith("custom-grpc")) {
      const text = methods.length === 0 ? this.T.noMethods : this.T.methods.replace("%d", methods.length).replace("%s", answer.source);
      this.say(answer.security ? text + " · " + answer.security : text);
    }
  }

  // addTemplates offers the current target's declared methods in the
  // template list, each as "d:N".
  addTemplates(select) {
    // The playground's own server has templates written for it, with
    // arguments its tools accept; its declared methods serve the checks.
    if (this.target() !== "custom-grpc") return;
    const methods = this.methods();
    if (methods.length === 0) return;
    const g = document.createElement("optgroup");
    g.label = this.T.declared;
    methods.forEach((m, i) => g.append(new Option(m.method + (m.serverStreaming ? " (stream)" : ""), "d:" + i)));
    select.append(g);
  }

  // templateFrame is the frame of a declared method's template, or null
  // for a value that is not one.
  templateFrame(value) {
    if (!value.startsWith("d:")) return null;
    const m = this.methods()[Number(value.slice(2))];
    return m ? m.frame : null;
  }

  // shapeOf is the request's shape of a method, if it is declared.
  shapeOf(method) {
    const m = this.methods().find((x) => x.method === method);
    return m ? m.input : null;
  }

  // plan reads a frame's bytes fields: the frame to send, what is sent
  // for each, and the problems.
  plan(frame) {
    const call = splitFrame(frame);
    const shape = this.shapeOf(call.method);
    if (!shape || call.body === "") return { frame: frame, sent: [], problems: [] };
    let value;
    try {
      value = JSON.parse(call.body);
    } catch (e) {
      return { frame: frame, sent: [], problems: [] };
    }
    const sent = [];
    const problems = [];
    encodeBytes(value, shape, "", sent, problems);
    const changed = sent.some((s) => s.json !== undefined);
    return { frame: changed ? call.head.join("\n") + "\n" + JSON.stringify(value) : frame, sent: sent, problems: problems };
  }

  // check says what is wrong with the frame's bytes fields, or "".
  check(frame) {
    const p = this.plan(frame).problems[0];
    if (!p) return "";
    if (p.notBase64) return this.T.bytesNotBase64.replace("%s", p.path).replace("%s", JSON.stringify(p.value));
    return this.T.bytesField.replace("%s", p.path);
  }

  // encode is the frame to send: JSON in bytes fields made base64.
  encode(frame) {
    return this.plan(frame).frame;
  }

  // preview shows, under the composer, the base64 each bytes field will
  // carry.
  preview(frame) {
    if (!this.el.bytes) return;
    const lines = [];
    for (const s of /grpc/.test(this.target()) ? this.plan(frame).sent : []) {
      if (s.json !== undefined) lines.push(this.T.bytesSent.replace("%s", s.path) + "\n  " + s.base64);
      else if (s.holds) lines.push(this.T.bytesAsBase64.replace("%s", s.path) + " " + s.holds);
    }
    this.el.bytes.textContent = lines.join("\n");
    this.el.bytes.hidden = lines.length === 0;
  }
}

// grpcurlTarget is a custom-grpc "to" as grpcurl's flags and address. An
// upload has no path to give grpcurl: a name stands in for the file.
export function grpcurlTarget(to) {
  const p = parseTo(to);
  const file = (v, stand) => (v.startsWith("upload:") ? stand : v);
  const flags = [];
  if (!p.tls) flags.push("-plaintext");
  if (p.cacert) flags.push("-cacert " + quote(file(p.cacert, "ca.pem")));
  if (p.servername) flags.push("-servername " + quote(p.servername));
  // A pasted client certificate holds the certificate and its key in one
  // text: saved as client.pem, it is grpcurl's -cert and -key both.
  if (p.cert) flags.push("-cert " + quote(file(p.cert, "client.pem")));
  if (p.key) flags.push("-key " + quote(file(p.key, "client.pem")));
  for (let i = 0; i + 1 < p.descriptors.length; i += 2) {
    const stand = p.descriptors[i] === "-protoset" ? "your.protoset" : "your.proto";
    flags.push(p.descriptors[i] + " " + quote(file(p.descriptors[i + 1], stand)));
  }
  return { flags: flags, addr: p.addr };
}
