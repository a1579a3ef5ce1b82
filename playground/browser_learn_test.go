package playground

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/wirelab/wirelab/exercises/progress"
)

// mapDump describes the course map for a failure message.
const mapDump = `[...document.querySelectorAll(".map-lesson")].map(l => l.id + (l.classList.contains("next") ? " (next)" : "")).join("\n")`

// TestBrowserCourseMap opens /learn/ in a real browser with some
// progress: the lesson to take next stands out and says so, each
// exercise shows its state, a lesson's goals are its link's tooltip and
// are shown below it, and the next lesson's link leads to the lesson.
func TestBrowserCourseMap(t *testing.T) {
	store := progress.NewStore(filepath.Join(t.TempDir(), "progress.json"))
	err := store.Update(func(st *progress.State) error {
		for _, id := range []string{"frames-stdio-errors", "stdio-server", "stdio-client"} {
			st.Pass(id, time.Unix(0, 0))
		}
		st.SetExercise("frames-http-auth", progress.Exercise{HintsShown: 1})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b := openBrowserWith(t, store)
	b.open("/learn/")
	b.expect("the http lesson is the one marked next, and only it",
		`[...document.querySelectorAll(".map-lesson.next")].map(l => l.id).join() === "lesson-http"`, mapDump)
	b.expect("the mark says so, in a visible line",
		`document.querySelector("#lesson-http .map-next").offsetHeight > 0 && document.querySelector("#lesson-http .map-next").innerText === "Take this one next"`, mapDump)
	b.expect("the next lesson has a border of its own",
		`getComputedStyle(document.querySelector("#lesson-http")).borderTopWidth !== getComputedStyle(document.querySelector("#lesson-grpc")).borderTopWidth`, mapDump)
	b.expect("each exercise shows its state",
		`document.querySelector('#lesson-stdio a[href="/exercises/stdio-server"]').dataset.state === "passed" &&
		 document.querySelector('#lesson-http a[href="/exercises/frames-http-auth"]').dataset.state === "tried" &&
		 document.querySelector('#lesson-grpc-production a[href="/exercises/grpc-server"]').dataset.state === "not-started"`, mapDump)
	b.expect("a lesson's time shows beside its title",
		`document.querySelector("#lesson-grpc .lesson-time").innerText === "25 min"`, mapDump)
	b.expect("its goals are its link's tooltip and are shown below it",
		`document.querySelector("#lesson-grpc > a").title.startsWith("• Send an ExecuteTool call") &&
		 document.querySelector("#lesson-grpc .map-goals").offsetHeight > 0`, mapDump)
	b.clickAndLoad("#lesson-http > a")
	b.expect("the link leads to the lesson", `location.pathname === "/learn/http" && document.querySelector(".lesson-intro") !== null`, `location.href`)

	b.open("/learn/?lang=ru")
	b.expect("the Russian map says it in Russian",
		`document.querySelector("#lesson-http .map-next").innerText === "Следующий урок" && document.querySelector("#lesson-grpc .lesson-time").innerText === "25 мин"`, mapDump)
}

// searchDump describes the search's results for a failure message.
const searchDump = `document.getElementById("search-status").innerText + "\n" +
	[...document.querySelectorAll("#search-results a")].map(a => a.getAttribute("href") + " " + a.innerText).join("\n")`

// TestBrowserSearch types into the search box of the course map: a
// word from a lesson's text finds its section, in the page's language;
// every word must be there; a word from nowhere finds nothing and says
// so; Enter goes to the best result. No request leaves the page while
// it searches, and the module puts nothing on window.
func TestBrowserSearch(t *testing.T) {
	b := openBrowser(t)
	b.open("/learn/")
	b.waitUntil("the search box is there", `document.getElementById("course-search") !== null`, `document.body.innerText`)
	// The browser asks for /favicon.ico by itself, whenever it likes.
	const resources = `performance.getEntriesByType("resource").map(e => e.name).filter(n => !n.endsWith("/favicon.ico")).join("\n")`
	before := b.text(resources)

	b.click("#course-search")
	b.keys("trailers")
	b.expect("a word from the gRPC lesson finds it first",
		`document.querySelector("#search-results a")?.getAttribute("href").startsWith("/learn/grpc")`, searchDump)
	b.expect("the result shows the word marked in a line of its text",
		`document.querySelector("#search-results .search-snippet mark")?.innerText.toLowerCase() === "trailers"`, searchDump)
	b.expect("the status counts the places", `/^\d+ places found$/.test(document.getElementById("search-status").innerText)`, searchDump)

	b.text(`(() => { const i = document.getElementById("course-search"); i.value = ""; i.dispatchEvent(new Event("input")); return ""; })()`)
	b.keys("PKCE verifier")
	b.expect("two words find only sections with both",
		`[...document.querySelectorAll("#search-results a")].length > 0 &&
		 [...document.querySelectorAll("#search-results li")].every(li => /pkce/i.test(li.innerText) || li.querySelector("a").getAttribute("href").includes("#"))`, searchDump)
	b.expect("the best of them is in the authorization lessons",
		`/^\/learn\/mcp-(authorization|transports)/.test(document.querySelector("#search-results a").getAttribute("href"))`, searchDump)

	b.text(`(() => { const i = document.getElementById("course-search"); i.value = "zqxj"; i.dispatchEvent(new Event("input")); return ""; })()`)
	b.expect("a word from nowhere finds nothing, and says so",
		`document.querySelectorAll("#search-results li").length === 0 && document.getElementById("search-status").innerText === "Nothing found."`, searchDump)
	if after := b.text(resources); after != before {
		t.Errorf("searching made requests:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if added := b.text(globalsAdded); added != "" {
		t.Errorf("search.js put on window: %s", added)
	}

	b.open("/learn/?lang=ru")
	b.click("#course-search")
	b.keys("трейлеры")
	b.expect("a Russian word finds the Russian lesson's section",
		`document.querySelector("#search-results a")?.getAttribute("href").startsWith("/learn/grpc") &&
		 document.getElementById("search-status").innerText.startsWith("Найдено мест: ")`, searchDump)
	ctx, cancel := context.WithTimeout(b.ctx, browserWait)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(cdppage.LoadEventFired, nil, chromedp.KeyEvent("\r"))); err != nil {
		t.Fatalf("pressing Enter in the search box and waiting for the lesson: %v%s", err, b.consoleText())
	}
	b.expect("Enter goes to the best result", `location.pathname === "/learn/grpc"`, `location.href`)
	if c := b.consoleText(); c != "" {
		t.Errorf("the pages complained:%s", c)
	}
}
