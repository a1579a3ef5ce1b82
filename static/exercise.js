// The Check button of an exercise. On a console page with an exercise
// panel, it checks the console's session: console.js announces the
// session's id in a "wire-session" event. On a code exercise's page, it
// grades the program in the learner's workspace and shows each stage as
// the grade streams it, one JSON object per line. An entry module of its
// own, which imports nothing: it hears from console.js only through that
// event on the document.
const data = JSON.parse(document.getElementById("exercise-data").textContent);
const T = data.text;
const lang = document.documentElement.lang === "ru" ? "ru" : "en";
const button = document.getElementById("exercise-check");
const status = document.getElementById("exercise-status");

let session = ""; // the console's session, once console.js has said it

function say(text) { status.textContent = text; }

function li(cls, text) {
  const el = document.createElement("li");
  el.className = cls;
  el.textContent = text;
  return el;
}

async function checkFrames() {
  const list = document.getElementById("exercise-steps");
  if (!session) { say(T.noSession); return; }
  say(T.checking);
  const r = await fetch("/exercises/" + encodeURIComponent(data.id) + "/check", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ session }),
  });
  const res = await r.json();
  if (!r.ok) { say(T.failed + (res.error || r.status)); return; }
  list.replaceChildren();
  for (const s of res.steps) {
    const el = li(s.done ? "step done" : "step todo", (s.done ? "✓ " : "○ ") + (s.name[lang] || s.name.en));
    const detail = s.detail[lang] || s.detail.en;
    if (detail) {
      const d = document.createElement("div");
      d.className = "note";
      d.textContent = detail;
      el.append(d);
    }
    list.append(el);
  }
  // A progress file that could not be written is said either way: a
  // failure is kept too.
  say((res.passed ? T.passed + (res.saved ? " " + T.saved : "") : T.notYet) + (res.problem ? " " + res.problem : ""));
  // For a classroom follower who shares progress (room.js): how it went,
  // and where it stopped.
  const stop = res.steps.find((s) => !s.done);
  const failure = stop ? (stop.name.en || "") + ((stop.detail && stop.detail.en) ? ": " + stop.detail.en : "") : "";
  document.dispatchEvent(new CustomEvent("exercise-checked", { detail: { exercise: data.id, passed: res.passed, failure: failure } }));
}

async function gradeCode() {
  const list = document.getElementById("exercise-stages");
  list.replaceChildren();
  say(T.checking);
  const r = await fetch("/exercises/" + encodeURIComponent(data.id) + "/grade", { method: "POST" });
  if (!r.ok) {
    const res = await r.json().catch(() => ({}));
    say(T.failed + (res.error || r.status));
    return;
  }
  const rows = [];
  const reader = r.body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += decoder.decode(value, { stream: true });
    let nl;
    while ((nl = pending.indexOf("\n")) >= 0) {
      const msg = JSON.parse(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      if (msg.op === "stage") {
        const row = rows[msg.index] || list.appendChild(li("stage", ""));
        rows[msg.index] = row;
        row.className = "stage " + msg.status;
        const label = T.status[msg.status] || msg.status;
        if (msg.status === "running") {
          row.textContent = label + " · " + msg.name + " (" + T.stage.replace("%d", msg.index + 1).replace("%d", msg.total) + ")";
        } else {
          const pre = document.createElement("pre");
          pre.textContent = msg.text;
          row.replaceChildren(pre);
        }
      } else if (msg.op === "done") {
        say((msg.passed ? T.passed + (msg.saved ? " " + T.saved : "") : "") + " " + msg.summary + (msg.problem ? " " + msg.problem : ""));
      }
    }
  }
}

// start listens for the console's session and for the button. A page
// without the button has nothing to check.
function start() {
  document.addEventListener("wire-session", (e) => { session = e.detail; });
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await (data.kind === "frame" ? checkFrames() : gradeCode());
    } catch (err) {
      say(T.failed + err.message);
    } finally {
      button.disabled = false;
    }
  });
}

if (button) start();
