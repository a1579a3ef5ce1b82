// A follower's part in the classroom (wirelab serve --classroom), on the
// pages of a browser on another machine: it tells the instructor's
// dashboard which page it is on, every seenEvery, and, only if the reader
// ticks "share my progress with the instructor", the results of the
// frame exercises it checks. An ES module that the consoles (console.js)
// and the lessons (frames.js) import.
//
//   import { Room, isLoopbackName } from "./room.js";
//   const room = new Room(bar); // the .room-bar element, hidden until the classroom answers
//
// The endpoints are the classroom's (internal/classroom): POST
// /classroom/seen {"page"}, POST /classroom/progress {"share"} and, when
// sharing, {"exercise","passed","failure"}. A playground that is not a
// classroom answers 404: the bar stays hidden and the pings stop.

// seenEvery is how often a follower's page says it is still there: often
// enough for the dashboard's "last seen" to mean "now", rarely enough to
// cost nothing with a room of pages.
const seenEvery = 10000;

// shareKey remembers the reader's choice to share progress, on this
// browser, for every page (localStorage).
const shareKey = "wirelab.shareProgress";

// isLoopbackName says whether a page's host name is this machine's own:
// a page opened there is the instructor's, not a follower's.
export function isLoopbackName(host) {
  return host === "localhost" || host === "[::1]" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

// Room is the follower's bar: the share checkbox in it, the pings and
// the exercise results. The bar holds an <input type="checkbox"
// class="room-share">.
export class Room {
  constructor(bar) {
    this.bar = bar;
    this.share = bar.querySelector(".room-share");
    this.timer = 0;
    this.share.checked = sharing();
    this.share.addEventListener("change", () => {
      try {
        localStorage.setItem(shareKey, this.share.checked ? "1" : "0");
      } catch (e) {
        // Storage off: the choice lasts as long as the page.
      }
      post("/classroom/progress", { share: this.share.checked });
    });
    // A frame exercise's Check (exercise.js) says how it went.
    document.addEventListener("exercise-checked", (e) => this.checked(e.detail));
    this.seen();
  }

  // seen tells the classroom where the reader is, and shows the bar once
  // the classroom has answered.
  async seen() {
    const status = await post("/classroom/seen", { page: location.pathname });
    // Not a classroom (404), or not a follower of it (401, 403): no
    // bar, no pings.
    if (status === 404 || status === 401 || status === 403) return;
    if (status >= 200 && status < 300 && this.bar.hidden) {
      this.bar.hidden = false;
      // The classroom keeps a follower's choice in memory only: say it
      // again on every page, in case the instructor's wirelab restarted.
      if (this.share.checked) post("/classroom/progress", { share: true });
    }
    this.timer = setTimeout(() => this.seen(), seenEvery);
  }

  // checked sends a frame exercise's result, if the reader shares.
  checked(result) {
    if (!this.share.checked || !result) return;
    post("/classroom/progress", { exercise: result.exercise, passed: result.passed, failure: result.failure || "" });
  }
}

function sharing() {
  try {
    return localStorage.getItem(shareKey) === "1";
  } catch (e) {
    return false;
  }
}

// post sends JSON and returns the answer's status, or 0 when there was
// none.
async function post(path, body) {
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    return r.status;
  } catch (e) {
    return 0;
  }
}
