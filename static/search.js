// Search over the lessons, on the course map. The page carries the index
// of every section of its language (#search-index, made by the server);
// this module searches it as the learner types and lists the sections
// that hold every word typed, best first, each with a line of its text.
// Nothing goes over the network. An entry module that imports nothing.
const index = JSON.parse(document.getElementById("search-index").textContent);
const T = JSON.parse(document.getElementById("search-text").textContent);
const form = document.querySelector(".course-search");
const input = document.getElementById("course-search");
const status = document.getElementById("search-status");
const list = document.getElementById("search-results");

// maxResults keeps the list short enough to read; more words narrow it.
const maxResults = 20;
// snippetChars is how much text a result shows around the first word.
const snippetChars = 160;

// fold makes text comparable: lower case, and ё read as е, since
// Russian text often writes one for the other.
const fold = (s) => s.toLowerCase().replaceAll("ё", "е");

const entries = index.map((e) => ({
  ...e,
  title: fold(e.title),
  heading: fold(e.heading),
  text: fold(e.text),
  shown: e,
}));

// score ranks an entry for the words, or gives 0 when a word is missing:
// a word in the lesson's title weighs most, then in the heading, then
// each time it appears in the text.
function score(e, words) {
  let total = 0;
  for (const w of words) {
    const inTitle = e.title.includes(w), inHeading = e.heading.includes(w);
    const inText = e.text.split(w).length - 1;
    if (!inTitle && !inHeading && !inText) return 0;
    total += (inTitle ? 10 : 0) + (inHeading ? 5 : 0) + Math.min(inText, 5);
  }
  return total;
}

// snippet is a piece of the text around the first word found, with the
// word marked.
function snippet(text, words) {
  const folded = fold(text);
  let at = -1, word = "";
  for (const w of words) {
    const i = folded.indexOf(w);
    if (i >= 0 && (at < 0 || i < at)) { at = i; word = w; }
  }
  const p = document.createElement("p");
  p.className = "search-snippet";
  if (at < 0) {
    p.textContent = text.slice(0, snippetChars) + (text.length > snippetChars ? "…" : "");
    return p;
  }
  const start = Math.max(0, at - snippetChars / 2);
  const end = Math.min(text.length, at + word.length + snippetChars / 2);
  const mark = document.createElement("mark");
  mark.textContent = text.slice(at, at + word.length);
  p.append((start > 0 ? "…" : "") + text.slice(start, at), mark, text.slice(at + word.length, end) + (end < text.length ? "…" : ""));
  return p;
}

function show() {
  const words = fold(input.value).split(/\s+/).filter((w) => w.length > 0);
  list.replaceChildren();
  if (words.length === 0 || words.join("").length < 2) {
    status.textContent = "";
    return;
  }
  const found = [];
  for (const e of entries) {
    const s = score(e, words);
    if (s > 0) found.push({ e, s });
  }
  found.sort((a, b) => b.s - a.s);
  status.textContent = found.length === 0 ? T.noResults : T.results.replace("%d", found.length);
  for (const { e } of found.slice(0, maxResults)) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = "/learn/" + e.shown.lesson + (e.shown.id ? "#" + e.shown.id : "");
    a.className = "search-result";
    const where = document.createElement("span");
    where.className = "search-lesson";
    where.textContent = e.shown.title;
    a.append(where);
    if (e.shown.heading) {
      const h = document.createElement("span");
      h.className = "search-heading";
      h.textContent = e.shown.heading;
      a.append(" › ", h);
    }
    li.append(a, snippet(e.shown.text, words));
    list.append(li);
  }
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  // Enter goes to the best result.
  const first = list.querySelector("a");
  if (first) location.href = first.href;
});
input.addEventListener("input", show);
show();
