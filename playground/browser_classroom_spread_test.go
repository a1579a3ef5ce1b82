package playground

import (
	"fmt"
	"testing"

	"github.com/wirelab/wirelab/internal/classroom"
	"github.com/wirelab/wirelab/playground/wire"
)

// TestBrowserClassroomSpread: the dashboard of a room spread over two
// playgrounds, as the instructor's browser shows it: a column says
// which playground each follower is on, and a follower who joins the
// other playground appears in it live, from the stream, with the cells
// the page drew first.
func TestBrowserClassroomSpread(t *testing.T) {
	tab := openBrowser(t)
	bus := wire.NewLocalBus()
	othersA := classroom.NewOthers(nil)
	a, _ := spreadPlayground(t, bus, classroom.New(&classroom.Options{Code: classroomCode}), othersA)
	b, _ := spreadPlayground(t, bus, classroom.New(&classroom.Options{Code: classroomCode}), classroom.NewOthers(nil))
	b.follower(t, "Grace")
	tab.base = b.local.URL
	tab.open("/classroom?lang=en")

	const rows = `[...document.querySelectorAll("#classroom-followers tr")].map(r => [...r.cells].map(c => c.textContent.trim()).join(" | ")).join("\n")`
	tab.expect("the page draws Grace, on this one, with the column for it",
		`document.querySelector(".followers thead").textContent.includes("Playground") && `+rows+`.startsWith("1 | Grace | this one | ")`, rows)
	a.follower(t, "Ada")
	tab.waitUntil("Ada, who joined the other playground, appears live, on it",
		fmt.Sprintf(`(() => { const r = %s.split("\n"); return r.length === 2 && r[1].startsWith("1 | Ada | ") && r[1].includes(%s) && document.querySelectorAll("#classroom-followers tr:last-child td").length === 6; })()`,
			rows, jsString(othersA.Instance())), rows)
}
