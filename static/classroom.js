// The instructor's dashboard (/classroom): the table of followers, kept
// live from the room's stream (/classroom/events, one JSON object per
// event: {connected, followers: [...], spread}, sent at every change and
// every few seconds; spread when the room spans playgrounds, each row
// then saying which in "where"), and the "write a session log" button. An entry module
// that imports nothing; its words come from the page's data, in the
// page's language. It builds the same rows as followerLine in
// playground/classroom.templ.
const T = JSON.parse(document.getElementById("classroom-data").textContent);
const body = document.getElementById("classroom-followers");
const count = document.getElementById("classroom-count");
const status = document.getElementById("classroom-status");
const logButton = document.getElementById("classroom-log");
const logStatus = document.getElementById("classroom-log-status");

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cell(...children) {
  const td = el("td");
  td.append(...children);
  return td;
}

// row is one follower's line of the table; spread adds the playground
// it is on.
function row(f, spread) {
  const tr = el("tr", f.connected ? "" : "away");
  const page = f.own ? el("span", "note", f.page) : f.page ? el("code", "", f.page) : "";
  const seen = f.seen + (f.connected ? "" : " (" + T.away + ")");
  const progress = el("td");
  if (!f.share) {
    progress.append(el("span", "note", T.notShared));
  } else {
    if (f.passed.length === 0) {
      progress.append(el("span", "note", T.passedNone));
    } else {
      const ul = el("ul", "passed");
      for (const p of f.passed) ul.append(el("li", "", p));
      progress.append(ul);
    }
    if (f.failed) {
      const p = el("p", "failure", T.failed);
      p.append(el("strong", "", f.failed), ": " + f.failure);
      progress.append(p);
    }
  }
  tr.append(cell(String(f.seat)), cell(f.name));
  if (spread) {
    const where = cell(f.where || "");
    where.className = "where";
    tr.append(where);
  }
  tr.append(cell(page), cell(seen), progress);
  return tr;
}

function show(room) {
  if (room.followers.length === 0) {
    const tr = el("tr", "nobody");
    const td = el("td", "", T.nobody);
    td.colSpan = room.spread ? 6 : 5;
    tr.append(td);
    body.replaceChildren(tr);
  } else {
    body.replaceChildren(...room.followers.map((f) => row(f, room.spread)));
  }
  count.textContent = T.connected.replace("%d", room.connected).replace("%d", room.followers.length);
}

// The stream reconnects by itself (EventSource does); the page says so
// meanwhile, and "live" again once an event arrives.
const events = new EventSource("/classroom/events");
events.onmessage = (e) => {
  status.textContent = "· " + T.live;
  show(JSON.parse(e.data));
};
events.onerror = () => {
  status.textContent = "· " + T.reconnect;
};

logButton.addEventListener("click", async () => {
  logButton.disabled = true;
  try {
    const r = await fetch("/classroom/log", { method: "POST" });
    const res = await r.json();
    logStatus.textContent = r.ok ? T.written + res.path : T.logFailed + (res.error || r.status);
  } catch (err) {
    logStatus.textContent = T.logFailed + err.message;
  } finally {
    logButton.disabled = false;
  }
});
