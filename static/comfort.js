// Comfort on every page: a theme (as the system, light or dark), large
// text for a projector, and keyboard shortcuts.
//
// The page loads this file in <head>, as a classic script, neither
// deferred nor a module (a module always waits for the document, and the
// page would flash in the wrong theme), so that the reader's stored
// choices are on <html> before the first paint:
//
//   data-theme="light" | "dark"   (absent: as the system)
//   data-size="large"             (absent: normal text)
//
// wirelab.css, lesson.css and highlight.css read those attributes. The
// rest waits for the document. The words this file shows come from the
// page (the buttons' data-label-* attributes, the <dialog id="shortcuts">),
// so it has no language of its own. It shares nothing with the modules,
// and, being a classic script, keeps its names inside one function, so
// that none of them lands on window.
(function () {
  "use strict";

  const root = document.documentElement;
  const themes = ["system", "light", "dark"]; // the order the theme button goes through
  const themeKey = "wirelab-theme";
  const sizeKey = "wirelab-size";

  // Storage can be refused (a private window, a browser setting): the
  // page then works, and forgets.
  function load(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  }
  function store(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      // Nothing to do: the choice lasts until the page is left.
    }
  }

  // show puts a theme and a text size on <html>, and tells the buttons.
  function show(theme, large) {
    if (theme === "system") delete root.dataset.theme;
    else root.dataset.theme = theme;
    if (large) root.dataset.size = "large";
    else delete root.dataset.size;
    label();
  }

  // shown reads them back: what is on <html> is in force, stored or not.
  function shownTheme() {
    return root.dataset.theme || "system";
  }
  function shownLarge() {
    return root.dataset.size === "large";
  }

  // apply shows the stored choices.
  function apply() {
    const t = load(themeKey);
    show(themes.includes(t) ? t : "system", load(sizeKey) === "large");
  }

  // label says on each button what is in force, in the page's language.
  function label() {
    const t = shownTheme();
    for (const b of document.querySelectorAll('[data-comfort="theme"]')) {
      const text = b.dataset["label" + t[0].toUpperCase() + t.slice(1)];
      if (!text) continue;
      b.setAttribute("aria-label", text);
      b.title = text + " (" + b.dataset.key + ")";
    }
    for (const b of document.querySelectorAll('[data-comfort="size"]')) {
      b.setAttribute("aria-pressed", String(shownLarge()));
    }
  }

  function nextTheme() {
    const t = themes[(themes.indexOf(shownTheme()) + 1) % themes.length];
    store(themeKey, t === "system" ? null : t);
    show(t, shownLarge());
  }

  function toggleSize() {
    const large = !shownLarge();
    store(sizeKey, large ? "large" : null);
    show(shownTheme(), large);
  }

  function toggleList() {
    const list = document.getElementById("shortcuts");
    if (!list) return;
    if (list.open) list.close();
    else list.showModal(); // modal: Escape closes it, focus stays inside
  }

  // follow goes where the first link that matches a selector points.
  function follow(selector) {
    const a = document.querySelector(selector);
    if (a) location.href = a.href;
  }

  const actions = {
    "?": toggleList,
    t: nextTheme,
    f: toggleSize,
    l: () => follow('a[data-key="l"]'),
    c: () => follow('a[data-key="c"]'),
    w: () => follow('a[data-key="w"]'),
    x: () => follow('a[data-key="x"]'),
    "[": () => follow('a[rel~="prev"]'),
    "]": () => follow('a[rel~="next"]'),
  };

  // keyOf names the key pressed as the list does. With another keyboard
  // layout (Russian: "е" where "t" is) e.key is another letter, so a
  // letter or bracket is also recognised by its place, e.code.
  const byPlace = {
    KeyT: "t", KeyF: "f", KeyL: "l", KeyC: "c", KeyW: "w", KeyX: "x",
    BracketLeft: "[", BracketRight: "]",
  };
  function keyOf(e) {
    if (/^[\x21-\x7e]$/.test(e.key)) return e.key.toLowerCase();
    return byPlace[e.code] || e.key;
  }

  // typing tells whether a key goes into a field, where it is text, not
  // a shortcut.
  function typing(el) {
    return el instanceof Element &&
      (el.matches("input, textarea, select") || el.isContentEditable);
  }

  document.addEventListener("keydown", (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
    if (typing(e.target)) return;
    // The keys work where the page lists them: not in an embedded view.
    if (!document.getElementById("shortcuts")) return;
    const act = actions[keyOf(e)];
    if (!act) return;
    e.preventDefault();
    act();
  });

  // Another tab, or the page around an embedded one, changed a choice.
  window.addEventListener("storage", (e) => {
    if (e.key === null || e.key === themeKey || e.key === sizeKey) apply();
  });

  document.addEventListener("DOMContentLoaded", () => {
    label();
    for (const b of document.querySelectorAll('[data-comfort="theme"]')) b.addEventListener("click", nextTheme);
    for (const b of document.querySelectorAll('[data-comfort="size"]')) b.addEventListener("click", toggleSize);
    for (const b of document.querySelectorAll('[data-comfort="keys"]')) b.addEventListener("click", toggleList);
    const list = document.getElementById("shortcuts");
    if (list) {
      // A click on the backdrop lands on the dialog itself, outside its box.
      list.addEventListener("click", (e) => {
        if (e.target === list) list.close();
      });
    }
  });

  apply(); // now, before the first paint
})();
