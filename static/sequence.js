// A sequence diagram of a transcript (static/transcript.js): the learner
// on the left, one lifeline per server the transcript spoke to, and one
// arrow per message, in the order they crossed, with the time since the
// first one. Drawn as SVG text, and written as mermaid text for people
// who keep their diagrams in markdown.
//
// Every text is cut to the room it has, so that nothing runs into the
// next lane or the next text; the whole of it is in a <title> beside it,
// shown on hover. In the page the diagram is sized in rem, so that it
// grows with the large-text mode like the rest of the page.
//
// An ES module, imported by the consoles and a lesson's frames:
//
//   import * as sequence from "./sequence.js";
//   diagram.innerHTML = sequence.svg(transcript.rows, { you: "you" });
import { shortTo } from "./transcript.js";

const font = 12; // px, monospace
const charWidth = font * 0.6; // px: a monospace character is about 0.6 em wide
const top = 48; // room for the participants' names
const step = 30; // one message
const minGap = 200; // between lifelines, px
const maxGap = 420; // a wider gap makes the diagram hard to follow; longer labels are cut
const pad = 12; // px kept clear on each side of a text

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

// lane names the server a row went to or came from.
function lane(row) {
  return row.to ? row.target + " " + row.to : row.target || "playground";
}

// laneName is a lane's name as shown: a custom target's "to" short.
function laneName(row) {
  return row.to ? row.target + " " + shortTo(row.target, row.to) : lane(row);
}

// fit cuts s to the characters that fit in px.
function fit(s, px) {
  s = String(s);
  const n = Math.max(1, Math.floor(px / charWidth + 1e-9)); // 1e-9: 37 * 7.2 is 266.40000000000003
  return s.length > n ? s.slice(0, n - 1).trimEnd() + "…" : s;
}

function width(s) {
  return String(s).length * charWidth;
}

// text is an SVG text cut to px, with the whole of it (or whole, what
// s stands for) as its title when that is not what is shown.
function text(attrs, s, px, whole) {
  const shown = fit(s, px);
  whole = whole === undefined ? String(s) : whole;
  const title = shown === whole ? "" : `<title>${esc(whole)}</title>`;
  return `<text ${attrs}>${title}${esc(shown)}</text>`;
}

function messages(rows) {
  return rows.filter((r) => (r.dir === "out" || r.dir === "in" || r.dir === "note") && !r.old);
}

function label(r) {
  let s = r.summary || r.kind;
  if (r.latency !== undefined && r.latency !== null) s += " · " + r.latency.toFixed(1) + " ms";
  return s;
}

// svg returns the diagram as a standalone SVG document. Lines and text
// use currentColor, so the diagram takes the page's colours; an export
// sets a colour of its own (opts.color, opts.background) and is sized
// in px, for programs that do not read rem. opts.you names the
// learner's lifeline in the page's language.
export function svg(rows, opts) {
  opts = opts || {};
  const you = opts.you || "you";
  const ms = messages(rows);
  const lanes = [""]; // the learner's lane is "": no server is called that
  const names = [you];
  for (const r of ms) {
    if (r.dir === "note" || lanes.includes(lane(r))) continue;
    lanes.push(lane(r));
    names.push(laneName(r));
  }
  const t0 = ms.find((r) => r.ms)?.ms || 0;
  const times = ms.map((r) => (r.ms && t0 ? "+" + (r.ms - t0).toFixed(1) + " ms" : ""));
  // The times' column is as wide as the longest time, and the gap
  // between lifelines as wide as the longest label needs, per lane it
  // spans, within minGap and maxGap.
  const left = Math.max(90, Math.max(0, ...times.map(width)) + 2 * pad);
  let need = Math.max(0, ...names.map(width)) + 2 * pad;
  for (const r of ms) {
    if (r.dir !== "note") need = Math.max(need, (width(label(r)) + 2 * pad) / Math.max(1, lanes.indexOf(lane(r))));
  }
  const gap = Math.ceil(Math.min(maxGap, Math.max(minGap, need)));
  const x = (name) => left + lanes.indexOf(name) * gap;
  const w = left + (lanes.length - 1) * gap + gap / 2;
  const h = top + ms.length * step + 24;
  const style = opts.color
    ? ` style="color:${esc(opts.color)};background:${esc(opts.background || "transparent")}"`
    : ` style="width:${w / 16}rem;height:${h / 16}rem"`;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="sequence" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="${font}"${style}>`);
  if (opts.background) out.push(`<rect width="100%" height="100%" fill="${esc(opts.background)}"/>`);
  out.push(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>`);
  lanes.forEach((name, i) => {
    out.push(text(`class="lane" x="${x(name)}" y="20" text-anchor="middle" font-weight="bold" fill="currentColor"`, names[i], gap - 2 * pad, i === 0 ? names[0] : name));
    out.push(`<line x1="${x(name)}" y1="28" x2="${x(name)}" y2="${h - 8}" stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="4 3"/>`);
  });
  ms.forEach((r, i) => {
    const y = top + i * step + 14;
    out.push(`<text class="time" x="4" y="${y + 4}" fill="currentColor" fill-opacity="0.6">${esc(times[i])}</text>`);
    if (r.dir === "note") {
      out.push(text(`class="note" x="${left + 8}" y="${y + 4}" font-style="italic" fill="currentColor" fill-opacity="0.75"`, "· " + r.summary, w - left - 8 - pad));
      return;
    }
    const from = r.dir === "out" ? x("") : x(lane(r));
    const to = r.dir === "out" ? x(lane(r)) : x("");
    const dash = r.dir === "in" ? ` stroke-dasharray="6 3"` : "";
    const color = r.kind === "refused" || /error|isError|grpc-status [1-9]| [45]\d\d /.test(r.summary || "") ? ` class="bad"` : "";
    out.push(`<line${color} x1="${from}" y1="${y + 6}" x2="${to}" y2="${y + 6}" stroke="currentColor" marker-end="url(#arrow)"${dash}/>`);
    out.push(text(`class="label" x="${(from + to) / 2}" y="${y}" text-anchor="middle" fill="currentColor"`, label(r), Math.abs(to - from) - 2 * pad));
  });
  out.push(`</svg>`);
  return out.join("\n");
}

// mermaid returns the same diagram as mermaid's sequenceDiagram text;
// opts.you names the learner, as in svg.
export function mermaid(rows, opts) {
  const you = (opts && opts.you) || "you";
  const ms = messages(rows);
  const names = new Map([["", "you"]]);
  // Mermaid reads ";" and "#" specially in names and message text.
  const clean = (s) => String(s).replace(/[;#]/g, " ").replace(/\s+/g, " ").trim();
  const lines = ["sequenceDiagram", you === "you" ? "  participant you" : `  participant you as ${clean(you)}`];
  for (const r of ms) {
    if (r.dir === "note" || names.has(lane(r))) continue;
    const id = "s" + names.size;
    names.set(lane(r), id);
    lines.push(`  participant ${id} as ${clean(lane(r))}`);
  }
  for (const r of ms) {
    if (r.dir === "note") {
      lines.push(`  Note over you: ${clean(r.summary)}`);
    } else if (r.dir === "out") {
      lines.push(`  you->>${names.get(lane(r))}: ${clean(label(r))}`);
    } else {
      lines.push(`  ${names.get(lane(r))}-->>you: ${clean(label(r))}`);
    }
  }
  return lines.join("\n") + "\n";
}
