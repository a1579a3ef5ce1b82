// The taps page (/taps) keeps itself current: every refreshEvery it asks
// the server for the page again and, when the list of taps changed (a
// tap started, ended or recorded more), puts the new list in place of
// the old one. A tap that starts after the page opened appears without
// a reload. An entry module.

// refreshEvery is how often the page asks: a tap started by hand shows
// up before the reader looks back at the page; one small GET each time.
const refreshEvery = 2000;

const list = document.querySelector("#taps-live");
if (list) {
  setInterval(refresh, refreshEvery);
}

// refresh fetches the page and swaps the list in when it changed. A
// hidden tab skips its turn; a failed fetch (the playground stopped)
// leaves the list as it was and tries again next time.
async function refresh() {
  if (document.hidden) {
    return;
  }
  try {
    const res = await fetch(location.pathname + location.search, { headers: { Accept: "text/html" } });
    if (!res.ok) {
      return;
    }
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const fresh = doc.querySelector("#taps-live");
    if (fresh && fresh.innerHTML !== list.innerHTML) {
      list.innerHTML = fresh.innerHTML;
    }
  } catch {
    // the next turn tries again
  }
}
