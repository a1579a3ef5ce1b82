// The five-wires page's verdict (static/fivewires.js imports it): which
// column, if any, may be called the fastest on the wire.
//
// A column's calls are spread out by noise (a garbage collection, the
// scheduler, another program on the machine), and on loopback the whole
// spread is often a fraction of a millisecond. A smaller median alone
// says little when the two spreads overlap: run again, and the order may
// flip. So a column is crowned only when even its slowest measured call
// beat every other column's fastest; otherwise it is too close to call,
// and the page says which column came within reach.

// verdict takes the columns that finished, each {name, median, min, max}
// (the median, fastest and slowest of its measured calls, in any one
// unit), and returns one of
//
//   {kind: "none"}                    no column finished
//   {kind: "alone", best}             one did: there is nothing to compare
//   {kind: "fastest", best, next}     best's slowest call beat the fastest
//                                     call of every other column; next is
//                                     the column whose fastest came closest
//   {kind: "close", best, rival}      best has the smallest median, but
//                                     rival's fastest call was as fast as
//                                     best's slowest, or faster
//
// where best, next and rival are the columns as given.
export function verdict(columns) {
  if (columns.length === 0) return { kind: "none" };
  const byMedian = columns.slice().sort((a, b) => a.median - b.median);
  const best = byMedian[0];
  if (columns.length === 1) return { kind: "alone", best: best };
  // The other column that came closest to best: the one whose fastest
  // call was fastest.
  const others = byMedian.slice(1);
  const next = others.reduce((a, b) => (b.min < a.min ? b : a));
  if (best.max < next.min) return { kind: "fastest", best: best, next: next };
  return { kind: "close", best: best, rival: next };
}
