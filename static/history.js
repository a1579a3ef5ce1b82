// history.js: the frames a console's learner has sent, per method, kept
// across reloads in localStorage (one key per console), and offered again
// in the composer's template list, one group per method.
//
// A frame's method is what it asks for:
//   - a JSON-RPC line (stdio): its "method", as tools/call;
//   - an HTTP request: its method and path, and the JSON-RPC method its
//     body carries, if any, as "POST /mcp tools/call";
//   - a gRPC frame: its first line, as tools.v1.ToolServer/ExecuteTool.
// Each method keeps its last `perMethod` frames, newest first; sending a
// frame again moves it to the front. Each frame remembers its target,
// and only the current target's frames are offered: a stdio line would
// not fit an HTTP server.

export const perMethod = 20; // frames kept for each method
const maxMethods = 50; // methods kept for a console, the least recently used going first
const maxFrame = 16384; // longer frames are not kept: the storage is small
const labelLength = 70; // characters of a frame shown in the list

export class FrameHistory {
  // slug names the console: each console keeps its own history.
  constructor(slug) {
    this.key = "wirelab.history." + slug;
    this.offered = []; // the frames the list offers now, by the number in an option's value
  }

  // load returns the kept history: a list of { method, target, frames },
  // the most recently used method first.
  load() {
    try {
      const h = JSON.parse(localStorage.getItem(this.key) || "[]");
      return Array.isArray(h) ? h.filter((m) => m && typeof m.method === "string" && Array.isArray(m.frames)) : [];
    } catch (e) {
      return []; // storage off or spoiled: the console works without history
    }
  }

  // remember keeps a frame sent to target.
  remember(frame, target) {
    if (!frame.trim() || frame.length > maxFrame) return;
    const method = methodOf(frame);
    const h = this.load();
    let entry = h.find((m) => m.method === method && m.target === target);
    if (entry) h.splice(h.indexOf(entry), 1);
    else entry = { method: method, target: target, frames: [] };
    entry.frames = [frame, ...entry.frames.filter((f) => f !== frame)].slice(0, perMethod);
    h.unshift(entry);
    try {
      localStorage.setItem(this.key, JSON.stringify(h.slice(0, maxMethods)));
    } catch (e) {
      // Storage full or off: the frame is not kept.
    }
  }

  // addTo appends to a <select> one group per method of the target's
  // frames, headed by label ("%s" is the method); an option's value
  // names the frame for frame().
  addTo(select, target, label) {
    this.offered = [];
    for (const m of this.load()) {
      if (m.target !== target) continue;
      const g = document.createElement("optgroup");
      g.label = label.replace("%s", shown(m.method));
      g.dataset.history = "1";
      for (const f of m.frames) {
        g.append(new Option(preview(f), "history:" + this.offered.length));
        this.offered.push(f);
      }
      select.append(g);
    }
  }

  // frame returns the frame an option of addTo names, or null.
  frame(value) {
    const m = /^history:(\d+)$/.exec(value || "");
    return m ? this.offered[Number(m[1])] || null : null;
  }
}

// unnamed are the methods of frames that name none, as methodOf gives
// them and the history keeps them, and as the list shows them in each
// language: kept in English, a frame keeps its group when the page's
// language changes.
const unnamed = {
  en: { "(response or other)": "(response or other)", "(text)": "(text)" },
  ru: { "(response or other)": "(ответ или другое)", "(text)": "(текст)" },
};

// shown is a method as the list shows it, in the page's language.
function shown(method) {
  return (unnamed[document.documentElement.lang] || unnamed.en)[method] || method;
}

// methodOf says what a frame asks for (see the module's comment).
export function methodOf(frame) {
  const text = frame.trim();
  const http = /^([A-Z]+) (\S+) HTTP\/1\.[01]\s*$/m.exec(text.split("\n")[0]);
  if (http) {
    const path = http[2].split("?")[0];
    const body = text.replace(/\r\n/g, "\n").split("\n\n").slice(1).join("\n\n");
    const rpc = rpcMethod(body);
    return http[1] + " " + path + (rpc ? " " + rpc : "");
  }
  const first = text.split("\n")[0].trim();
  if (/^[\w.]+\/\w+$/.test(first)) return first; // a gRPC method
  return rpcMethod(first) || (first.startsWith("{") ? "(response or other)" : "(text)");
}

// rpcMethod is the JSON-RPC method of a message (the first of a batch),
// or "".
function rpcMethod(text) {
  try {
    let msg = JSON.parse(text);
    if (Array.isArray(msg)) msg = msg[0];
    return msg && typeof msg.method === "string" ? msg.method : "";
  } catch (e) {
    return "";
  }
}

// preview is a frame in one short line: an HTTP request's body, or the
// frame, its spaces squeezed.
function preview(frame) {
  const parts = frame.replace(/\r\n/g, "\n").split("\n\n");
  const shown = /^[A-Z]+ \S+ HTTP\/1\.[01]/.test(frame) && parts.length > 1 && parts.slice(1).join(" ").trim() ? parts.slice(1).join(" ") : frame;
  const line = shown.replace(/\s+/g, " ").trim();
  return line.length > labelLength ? line.slice(0, labelLength - 1) + "…" : line;
}
