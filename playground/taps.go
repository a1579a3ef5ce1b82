package playground

import (
	"net/http"

	"github.com/wirelab/wirelab/playground/wire"
)

// tapsText is the taps page's words, in one language.
type tapsText struct {
	Title   string
	Intro   string
	None    string // no tap has published yet
	How     string // above the command that publishes one
	Tap     string // the column heads
	What    string
	Started string
	Events  string
	State   string
	Live    string
	Ended   string
	Reload  string // the list refreshes itself
	Link    string // the console list's link to the page

	Findings  string // the column head, and its cells: "%d errors, %d warnings"
	Counted   string
	Recorded  string // the state of an opened recording
	Open      string // the form's heading, its help, its field, its button
	OpenHelp  string
	OpenFile  string
	OpenSend  string
	OpenCLI   string // above the command that does the same
	OpenError string // before why a file could not be opened
}

func tapsStrings(l lang) tapsText {
	if l == ru {
		return tapsText{
			Title:   "Tap",
			Intro:   "Здесь видны запущенные wirelab tap, которые публикуют трафик в эту песочницу: ссылка открывает консоль, которая следит за сессией tap вживую, с теми же строками, видами и диаграммой.",
			None:    "Пока ни один tap не публикует сюда.",
			How:     "Запустите tap на этой машине с адресом песочницы:",
			Tap:     "Tap",
			What:    "Перед чем стоит",
			Started: "Начат",
			Events:  "Событий",
			State:   "Состояние",
			Live:    "идёт",
			Ended:   "закончен",
			Reload:  "Список обновляется сам: новый tap появится здесь без перезагрузки.",
			Link:    "Tap: трафик настоящего хоста и сервера через wirelab tap, вживую",

			Findings:  "Находки",
			Counted:   "ошибок: %d, предупреждений: %d",
			Recorded:  "запись, только чтение",
			Open:      "Открыть запись",
			OpenHelp:  "Файл, который пишет wirelab tap --record, откроется здесь только для чтения: в консоли его протокола, с теми же строками, видами и диаграммой, каждая находка wirelab tap check отмечена на своей строке.",
			OpenFile:  "Файл записи (JSONL)",
			OpenSend:  "Открыть",
			OpenCLI:   "То же из терминала:",
			OpenError: "Запись не открылась: ",
		}
	}
	return tapsText{
		Title:   "Taps",
		Intro:   "The running wirelab taps that publish to this playground: a link opens the console that follows the tap's session live, with the same rows, views and diagram.",
		None:    "No tap publishes here yet.",
		How:     "Start one on this machine with the playground's URL:",
		Tap:     "Tap",
		What:    "What it taps",
		Started: "Started",
		Events:  "Events",
		State:   "State",
		Live:    "live",
		Ended:   "ended",
		Reload:  "The list keeps itself current: a new tap appears here without a reload.",
		Link:    "Taps: a real host and server seen through wirelab tap, live",

		Findings:  "Findings",
		Counted:   "%d errors, %d warnings",
		Recorded:  "recording, read only",
		Open:      "Open a recording",
		OpenHelp:  "The file wirelab tap --record writes opens here read only: in its protocol's console, with the same rows, views and diagram, each finding of wirelab tap check marked on its row.",
		OpenFile:  "Recording file (JSONL)",
		OpenSend:  "Open",
		OpenCLI:   "The same from a terminal:",
		OpenError: "The recording did not open: ",
	}
}

// tapRow is one tap as the page lists it.
type tapRow struct {
	wire.TapInfo
	Href string // the console that follows it
	What string // the command line or the upstream
}

// watchable says whether the tap's session can be followed: a live tap,
// or a recording, which stays open; an ended tap's session is gone.
func (r tapRow) watchable() bool { return r.Ended.IsZero() || r.Recorded }

// tapConsole is the console that shows a tap: the console of what its
// messages are, once the check has seen them (an HTTP tap of an MCP
// server opens the MCP console); before that, by what the tap relays: a
// stdio tap's server is most often an MCP server, and the MCP console
// reads its lines as JSON-RPC; HTTP and gRPC taps open their own
// consoles.
func tapConsole(i wire.TapInfo) string {
	switch {
	case i.Speaks != "" && i.Protocol != "grpc":
		return i.Speaks
	case i.Protocol == "http":
		return "http"
	case i.Protocol == "grpc":
		return "grpc"
	}
	return "mcp"
}

// tapHref is the console that follows the tap.
func tapHref(i wire.TapInfo) string {
	return "/console/" + tapConsole(i) + "?watch=" + i.ID
}

// tapsView is the taps page.
type tapsView struct {
	pageView
	T       tapsText
	Rows    []tapRow
	Example string // the command that starts a tap publishing here
	// Open is the command that opens a recording here; CanOpen says
	// whether this page's reader may (a page on this machine), and
	// Problem why the last file did not open.
	Open    string
	CanOpen bool
	Problem string
}

// tapsPage serves /taps: the taps publishing to hub now, the recordings
// open, and the taps that ended lately. A nil hub has none, for a test
// of the pages alone.
func tapsPage(hub *wire.Hub) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		showTaps(w, r, hub, http.StatusOK, "")
	}
}

// showTaps shows the taps page, with why a recording did not open when
// problem is not "".
func showTaps(w http.ResponseWriter, r *http.Request, hub *wire.Hub, status int, problem string) {
	v := viewFor(w, r)
	v.Path = "/taps" // a refused form is answered at /taps/open, but the page is /taps
	tv := tapsView{pageView: v, T: tapsStrings(v.Lang), Problem: problem, CanOpen: hub != nil && wire.IsLocalPeer(r),
		Example: "wirelab tap --playground http://" + r.Host + " -- wirelab server mcp",
		Open:    "wirelab tap open FILE --playground http://" + r.Host}
	if hub != nil {
		for _, i := range hub.Taps() {
			what := i.Command
			if what == "" {
				what = i.Upstream
			}
			if what == "" {
				what = i.Name
			}
			tv.Rows = append(tv.Rows, tapRow{TapInfo: i, What: what, Href: tapHref(i)})
		}
	}
	tv.Styles = append(tv.Styles, "/static/console.css") // the taps' own styles are the consoles'
	tv.Scripts = append(tv.Scripts, "/static/taps.js")
	show(w, r, status, tapsList(tv))
}
