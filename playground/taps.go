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
}

func tapsStrings(l lang) tapsText {
	if l == ru {
		return tapsText{
			Title:   "Отводы",
			Intro:   "Здесь видны запущенные wirelab tap, которые публикуют трафик в эту песочницу: ссылка открывает консоль, которая следит за сеансом отвода вживую, с теми же строками, видами и диаграммой.",
			None:    "Пока ни один отвод не публикует сюда.",
			How:     "Запустите отвод на этой машине с адресом песочницы:",
			Tap:     "Отвод",
			What:    "Что отводит",
			Started: "Начат",
			Events:  "Событий",
			State:   "Состояние",
			Live:    "идёт",
			Ended:   "закончен",
			Reload:  "Список обновляется сам: новый отвод появится здесь без перезагрузки.",
			Link:    "Отводы: трафик настоящего хоста и сервера через wirelab tap, вживую",
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
	}
}

// tapRow is one tap as the page lists it.
type tapRow struct {
	wire.TapInfo
	Href string // the console that follows it
	What string // the command line or the upstream
}

// tapConsole is the console that shows a tap's protocol: a stdio tap's
// server is most often an MCP server, and the MCP console reads its
// lines as JSON-RPC; HTTP and gRPC taps open their own consoles.
func tapConsole(protocol string) string {
	switch protocol {
	case "http":
		return "http"
	case "grpc":
		return "grpc"
	}
	return "mcp"
}

// tapsPage serves /taps: the taps publishing to hub now and those that
// ended lately. A nil hub has none, for a test of the pages alone.
func tapsPage(hub *wire.Hub) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v := viewFor(w, r)
		var rows []tapRow
		if hub != nil {
			for _, i := range hub.Taps() {
				what := i.Command
				if what == "" {
					what = i.Upstream
				}
				if what == "" {
					what = i.Name
				}
				rows = append(rows, tapRow{TapInfo: i, What: what,
					Href: "/console/" + tapConsole(i.Protocol) + "?watch=" + i.ID})
			}
		}
		example := "wirelab tap --playground http://" + r.Host + " -- wirelab server mcp"
		v.Scripts = append(v.Scripts, "/static/taps.js")
		show(w, r, http.StatusOK, tapsList(v, tapsStrings(v.Lang), rows, example))
	}
}
