// A sequence diagram of a transcript (static/transcript.js): the learner
// on the left, one lifeline per server the transcript spoke to, and one
// arrow per message, in the order they crossed, with the time since the
// first one. Drawn as SVG text, and written as mermaid text for people
// who keep their diagrams in markdown.
(function () {
  "use strict";

  const you = "you";
  const top = 48; // room for the participants' names
  const step = 30; // one message
  const gap = 260; // between lifelines
  const left = 90; // room for the times

  function esc(s) {
    return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  // lane names the server a row went to or came from.
  function lane(row) {
    return row.to ? row.target + " " + row.to : row.target || "playground";
  }

  function clip(s, n) {
    s = String(s);
    return s.length > n ? s.slice(0, n - 1) + "…" : s;
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
  // sets a colour of its own (opts.color, opts.background).
  function svg(rows, opts) {
    opts = opts || {};
    const ms = messages(rows);
    const lanes = [you];
    for (const r of ms) if (r.dir !== "note" && !lanes.includes(lane(r))) lanes.push(lane(r));
    const x = (name) => left + lanes.indexOf(name) * gap;
    const width = left + (lanes.length - 1) * gap + 140;
    const height = top + ms.length * step + 24;
    const t0 = ms.length > 0 ? ms.find((r) => r.ms)?.ms || 0 : 0;
    const style = opts.color ? ` style="color:${esc(opts.color)};background:${esc(opts.background || "transparent")}"` : "";
    const out = [];
    out.push(`<svg xmlns="http://www.w3.org/2000/svg" class="sequence" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="ui-monospace, Menlo, Consolas, monospace" font-size="12"${style}>`);
    if (opts.background) out.push(`<rect width="100%" height="100%" fill="${esc(opts.background)}"/>`);
    out.push(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs>`);
    for (const name of lanes) {
      out.push(`<text x="${x(name)}" y="20" text-anchor="middle" font-weight="bold" fill="currentColor">${esc(clip(name, 34))}</text>`);
      out.push(`<line x1="${x(name)}" y1="28" x2="${x(name)}" y2="${height - 8}" stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="4 3"/>`);
    }
    ms.forEach((r, i) => {
      const y = top + i * step + 14;
      const t = r.ms && t0 ? "+" + (r.ms - t0).toFixed(1) + " ms" : "";
      out.push(`<text x="4" y="${y + 4}" fill="currentColor" fill-opacity="0.6">${esc(t)}</text>`);
      if (r.dir === "note") {
        out.push(`<text x="${left + 8}" y="${y + 4}" font-style="italic" fill="currentColor" fill-opacity="0.75">${esc(clip("· " + r.summary, 90))}</text>`);
        return;
      }
      const from = r.dir === "out" ? x(you) : x(lane(r));
      const to = r.dir === "out" ? x(lane(r)) : x(you);
      const dash = r.dir === "in" ? ` stroke-dasharray="6 3"` : "";
      const color = r.kind === "refused" || /error|isError|grpc-status [1-9]| [45]\d\d /.test(r.summary || "") ? ` class="bad"` : "";
      out.push(`<line${color} x1="${from}" y1="${y + 6}" x2="${to}" y2="${y + 6}" stroke="currentColor" marker-end="url(#arrow)"${dash}/>`);
      out.push(`<text x="${(from + to) / 2}" y="${y}" text-anchor="middle" fill="currentColor">${esc(clip(label(r), 44))}</text>`);
    });
    out.push(`</svg>`);
    return out.join("\n");
  }

  // mermaid returns the same diagram as mermaid's sequenceDiagram text.
  function mermaid(rows) {
    const ms = messages(rows);
    const names = new Map([[you, "you"]]);
    const lines = ["sequenceDiagram", "  participant you"];
    for (const r of ms) {
      if (r.dir === "note" || names.has(lane(r))) continue;
      const id = "s" + names.size;
      names.set(lane(r), id);
      lines.push(`  participant ${id} as ${lane(r).replace(/[;#]/g, " ")}`);
    }
    // Mermaid reads ";" and "#" specially in message text.
    const text = (s) => String(s).replace(/[;#]/g, " ").replace(/\s+/g, " ").trim();
    for (const r of ms) {
      if (r.dir === "note") {
        lines.push(`  Note over you: ${text(r.summary)}`);
      } else if (r.dir === "out") {
        lines.push(`  you->>${names.get(lane(r))}: ${text(label(r))}`);
      } else {
        lines.push(`  ${names.get(lane(r))}-->>you: ${text(label(r))}`);
      }
    }
    return lines.join("\n") + "\n";
  }

  window.WireSequence = { svg: svg, mermaid: mermaid };
})();
