// The classroom's live side, in the browser: the instructor marks one tab
// as the presenter, and the room's pages follow it. An ES module that the
// consoles (console.js) and the lessons (frames.js) import.
//
//   import { Presenter, Following } from "./presenter.js";
//   // The instructor's tab: a toggle that makes it the presenter.
//   const p = new Presenter(wire, button, () => ({ page: location.pathname, ... }), text, say);
//   p.changed(); // after anything the followers should see
//   // A follower's page: a read-only socket, its status and the Follow switch.
//   const f = new Following("presenter", { text, status, toggle, reset, event, state });
//
// The messages are in playground/wire/doc.go: {"op":"present"} makes a
// tab on the instructor's machine the presenter, {"op":"state"} carries
// its page state to the followers, and /ws?watch=presenter follows
// whoever presents, with {"op":"status"} saying whether anyone does; the
// presenter's own tab hears {"op":"present","on":...}, whether it
// presents now. The state is the page's own business, opaque to the
// engine:
//
//   {page: "/console/mcp" or "/learn/<slug>", target, to (a custom
//    target's, or ""), frame (the composer's text), row (the selected
//    row's index in the session's transcript, or -1), rowAt (that row's
//    time, to find it by if the indexes differ), view ("pretty", "raw",
//    "hex"), frameIndex (the lesson frame in view, or -1), lang, cut
//    (true when frame is only the start of the composer's text)}

import { WireSocket } from "./wire.js";

// stateDelay is how long the presenter's page waits after a change
// before it sends its state: typing sends one state per pause, not one
// per key, and followers still see the typing as it happens.
const stateDelay = 100;

// maxState is the most a state may weigh, as JSON: the engine's limit
// (64 KiB, playground/wire/presenter.go) less room for the envelope.
const maxState = 60 * 1024;

// stateRetry is how long the page waits to send its state again after
// the playground refused one.
const stateRetry = 1000;

// presentingKey remembers, for this tab only (sessionStorage), that it
// presents: a presenter who opens another page goes on presenting there.
const presentingKey = "wirelab.presenting";

// Presenter is the toggle on the instructor's pages that makes the tab
// the room's presenter, and, while it is, sends the page's state on
// every change. The button stays hidden until the playground's hello
// says the tab is on this machine: only such a tab may present.
export class Presenter {
  // wire is the page's WireSocket; button the toggle; stateOf returns
  // the page's state; text has present, presenting and presentHelp; say
  // shows a line to the instructor (why presenting stopped).
  constructor(wire, button, stateOf, text, say) {
    this.wire = wire;
    this.button = button;
    this.stateOf = stateOf;
    this.text = text;
    this.say = say || (() => {});
    this.on = false;
    this.asks = new Set(); // the ids of our present messages, whose refusals are ours
    this.states = new Set(); // and of our latest state messages
    this.timer = 0;
    this.retry = 0;
    this.local = false;
    button.hidden = true;
    button.title = text.presentHelp;
    button.addEventListener("click", () => (this.on ? this.stop() : this.start()));
    this.show();
  }

  // remembered says whether this tab presented on the page before.
  static remembered() {
    try {
      return sessionStorage.getItem(presentingKey) === "1";
    } catch (e) {
      return false;
    }
  }

  // heard takes one message from the playground, and says whether it was
  // the presenter's own business (a refusal of present or state), which
  // the page should not show as a row of its transcript.
  heard(msg) {
    if (msg.op === "hello") {
      this.local = msg.local === true && !msg.watching;
      this.button.hidden = !this.local;
      // A new socket is a new session: present again, if this tab did.
      if (this.local && (this.on || Presenter.remembered())) this.start();
      return false;
    }
    if (msg.op === "closed") {
      // The presenter's followers wait; a new socket presents again.
      if (this.on) setTimeout(() => this.wire.connect(), 1000);
      return false;
    }
    if (msg.op === "present") {
      // The playground says whether this tab presents: off when the
      // instructor made another tab the presenter.
      if (!msg.on && this.on) this.set(false);
      return true;
    }
    if (msg.op === "error" && this.asks.has(msg.id)) {
      this.asks.delete(msg.id);
      this.set(false);
      this.say(msg.message);
      return true;
    }
    if (msg.op === "error" && this.states.has(msg.id)) {
      // A state refused (sent too fast for the playground's frame
      // rate, say) is not news for the page: the state goes again a
      // little later, as it is then.
      this.states.delete(msg.id);
      if (!this.retry) {
        this.retry = setTimeout(() => {
          this.retry = 0;
          this.sendState();
        }, stateRetry);
      }
      return true;
    }
    return false;
  }

  start() {
    this.set(true);
    this.asks.add(this.wire.send({ op: "present" }));
    this.sendState();
  }

  stop() {
    this.set(false);
    this.wire.send({ op: "present", on: false });
  }

  set(on) {
    this.on = on;
    try {
      if (on) sessionStorage.setItem(presentingKey, "1");
      else sessionStorage.removeItem(presentingKey);
    } catch (e) {
      // Storage off: presenting ends with the page.
    }
    this.show();
  }

  show() {
    this.button.setAttribute("aria-pressed", String(this.on));
    this.button.textContent = this.on ? this.text.presenting : this.text.present;
    this.button.classList.toggle("presenting", this.on);
  }

  // changed says the page's state changed: it goes to the followers a
  // little later, once, however many changes come in between.
  changed() {
    if (!this.on || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = 0;
      this.sendState();
    }, stateDelay);
  }

  sendState() {
    if (!this.on) return;
    const state = this.stateOf();
    // The playground relays a state of at most 64 KiB: a frame longer
    // than fits goes cut, marked so, rather than not at all.
    while (typeof state.frame === "string" && state.frame.length > 0 && new TextEncoder().encode(JSON.stringify(state)).length > maxState) {
      state.frame = state.frame.slice(0, Math.floor(state.frame.length / 2));
      state.cut = true;
    }
    this.states.add(this.wire.send({ op: "state", state: state }));
    // Only the latest few could still be refused; the set stays small.
    if (this.states.size > 64) this.states.delete(this.states.values().next().value);
  }
}

// reconnectDelays are the waits before each try to open a follower's
// socket again: quick at first (a slow follower dropped by the engine
// comes straight back), then no more often than every ten seconds.
const reconnectDelays = [500, 1000, 2000, 5000, 10000];

// Following is a follower's end: the read-only socket at
// /ws?watch=<watch>, the status line, and the Follow switch. watch is
// "presenter" (whoever presents now), "instructor" (the presenter of a
// classroom this wirelab follows, wirelab serve --follow) or a session's
// id. parts: text (the strings, see followText in
// playground/console_text.go), status (the line that says how it goes),
// missing (true when the page was served for a session that is not there),
// toggle (the Follow checkbox), and the page's own handlers: reset() when
// a session's history is about to come again, event(msg) for every event
// and refusal, state(state) for the presenter's state while the switch
// is on.
export class Following {
  constructor(watch, parts) {
    this.watch = watch;
    this.parts = parts;
    this.T = parts.text;
    this.latest = null; // the presenter's last state, applied or not
    this.tries = 0;
    this.over = false; // nothing to reconnect to: no such session, or it ended
    this.wire = new WireSocket("/ws?watch=" + encodeURIComponent(watch));
    this.wire.listen((msg) => this.heard(msg));
    this.how = ["", ""]; // what the status line says of the connection: text, state
    if (parts.toggle) {
      parts.toggle.checked = true;
      parts.toggle.addEventListener("change", () => {
        this.show();
        if (this.following() && this.latest) parts.state(this.latest);
      });
    }
    this.say(this.T.connecting, "connecting");
    // A page served for a session that is not there says so at once.
    if (parts.missing) this.missing();
    else this.wire.connect();
  }

  // following says whether the Follow switch is on.
  following() {
    return !this.parts.toggle || this.parts.toggle.checked;
  }

  // pause turns the switch off: the reader took a step of their own.
  pause() {
    if (this.parts.toggle && this.parts.toggle.checked) {
      this.parts.toggle.checked = false;
      this.show();
    }
  }

  // say says how the connection goes.
  say(text, state) {
    this.how = [text, state];
    this.show();
  }

  // show puts on the status line how the connection goes, or, while it
  // is live and the reader does not follow, that they read at their own
  // pace.
  show() {
    const status = this.parts.status;
    if (!status) return;
    const [text, state] = this.how[1] === "live" && !this.following() ? [this.T.paused, "paused"] : this.how;
    status.textContent = text;
    status.dataset.state = state;
  }

  heard(msg) {
    switch (msg.op) {
      case "hello":
        this.tries = 0;
        this.parts.reset();
        // A presenter's follower hears next whether anyone presents; a
        // session's follower is live at once.
        if (msg.presenter) this.say(this.T.waiting, "waiting");
        else this.say(this.T.live, "live");
        return;
      case "status":
        if (msg.status === "waiting") this.say(this.T.waiting, "waiting");
        else if (msg.status === "ended") this.say(this.T.endedNext, "ended");
        // The playground's own link to the presenter (a wirelab that
        // follows a classroom) is down for now, and it tries again.
        else if (msg.status === "reconnecting") this.say(this.T.reconnecting, "reconnecting");
        else if (msg.status === "live") {
          // The presenter's history comes next, from its start.
          this.parts.reset();
          this.say(this.T.live, "live");
        }
        return;
      case "state":
        this.latest = msg.state || {};
        if (this.following()) this.parts.state(this.latest);
        return;
      case "closed":
        return this.closed(msg);
    }
    if (msg.op === "event" && msg.kind === "session-end" && this.watch !== "presenter") {
      this.over = true;
      this.say(this.T.ended, "ended");
    }
    this.parts.event(msg);
  }

  // closed finds out why the socket closed, and opens it again unless
  // there is nothing to follow.
  async closed(msg) {
    if (this.over) return;
    if (!msg.opened) {
      // The upgrade was refused, and a page cannot read why from a
      // WebSocket, nor ask for the socket without one (the playground
      // wants the Origin only an upgrade carries). It asks for itself
      // again instead: the page answers 404 for a session the playground
      // does not have, and a classroom sends a follower who has not
      // joined to its join page.
      let r = null;
      try {
        r = await fetch(location.href, { method: "HEAD" });
      } catch (e) {
        r = null;
      }
      if (r && r.status === 404) return this.missing();
      if (r && (r.status === 401 || (r.redirected && new URL(r.url).pathname === "/join"))) {
        this.over = true;
        this.say(this.T.joinFirst, "join");
        return;
      }
    }
    this.say(this.T.reconnecting, "reconnecting");
    const wait = reconnectDelays[Math.min(this.tries, reconnectDelays.length - 1)];
    this.tries++;
    setTimeout(() => this.wire.connect(), wait);
  }

  // missing says there is no such session, and stops.
  missing() {
    this.over = true;
    this.say(this.T.noSession, "no-session");
  }
}

// followURL is the address of the follower's page for the presenter's
// page, or "" for a page that has no follower's view: a console is
// followed at ?watch=, a lesson at ?follow=.
export function followURL(page, watch) {
  if (typeof page !== "string") return "";
  if (/^\/console\/[\w-]+$/.test(page)) return page + "?watch=" + encodeURIComponent(watch);
  if (/^\/learn\/[\w-]+$/.test(page)) return page + "?follow=" + encodeURIComponent(watch);
  return "";
}

// goesWith says whether a follower of watch goes where its presenter
// goes: a named presenter, who may open another page, yes; a session,
// which is one page, no.
export function goesWith(watch) {
  return watch === "presenter" || watch === "instructor";
}
