package playground

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/mcp"
)

// The five-wires page makes one call, word_count with the text "read the
// wire", over the five protocols side by side, so that a reader can see
// what each one wraps around the same request and the same answer.
//
//	GET /five-wires   the page (?lang=en|ru, as the lessons)
//
// The frames are written here, in Go, and shown in the page for the
// reader to edit; static/fivewires.js sends them to the hub (/ws) and
// shows every byte that crossed, with the time it took.
//
// A timing shown to learners is honest: the same work measured, its
// spread shown. So a Run makes each column's call 1+fiveWiresRuns times,
// one after another: the first call is shown on its own (it may start a
// stdio server or open a gRPC connection, which is worth seeing but is
// not the call), and the page shows the median of the rest with the
// fastest and the slowest of them. Beside the times is what one call
// costs from nothing: its round trips and bytes, handshake included (all
// of MCP's session; the gRPC call that opened the connection). The page
// crowns no column on a difference the spread can undo: a column is the
// fastest only when its slowest call beat every other column's fastest
// (static/verdict.js).

// fiveWiresRuns is how many calls a column measures after its first. Ten
// keep a Run of all five columns within a second or two on loopback,
// while a median of ten is not moved by one slow call (a garbage
// collection, a busy scheduler), and one such call still shows in the
// spread. The page reads it from #five-wires[data-runs].
const fiveWiresRuns = 10

// fiveWiresArgs are the call's arguments, the same on every wire.
const fiveWiresArgs = `{"text":"read the wire"}`

// fiveWiresSession stands in a frame for the Mcp-Session-Id that
// initialize returns; the page puts the real id in its place, as the
// golden transcripts of package mcp do the other way round.
const fiveWiresSession = "SESSION"

// wireColumn is one column of the page: a protocol, the hub target that
// reaches its server, and the frames that make the call there.
type wireColumn struct {
	Slug   string // the column's id and the key of its texts: stdio, http, grpc, mcp, a2a
	Name   string // the protocol, as the column's heading names it
	Target string // the hub's target
	// Before are sent first and After last, one after another, and are
	// not measured: MCP's session lifecycle around its call. Each call
	// of a Run has a lifecycle of its own, so that the call goes exactly
	// as written: "The request ID MUST NOT have been previously used by
	// the requestor within the same session", and the frame's id is 2.
	Before []wireStep
	Call   string // the measured frame: the call itself
	After  []wireStep
	// Era is the revision of the protocol the frames above speak, when the
	// column can speak another too: Eras are the others, each with frames
	// of its own, and the page offers the choice, this one first. "" and
	// none for a protocol the page speaks one way.
	Era  string
	Eras []wireEra
}

// wireEra is a revision a column may speak, and the frames that make the
// call in it.
type wireEra struct {
	Era    string
	Before []wireStep
	Call   string
	After  []wireStep
}

// frames are every set of frames the column has, its own first.
func (c wireColumn) frames() []wireEra {
	return append([]wireEra{{Era: c.Era, Before: c.Before, Call: c.Call, After: c.After}}, c.Eras...)
}

// key is the key of a set of frames' texts (Adds, Notes, CostWhat) and
// the start of its ids in the page: the column's slug for its own
// frames, and for another revision's the slug and the revision, as in
// "mcp-2026-07-28".
func (c wireColumn) key(e wireEra) string {
	if e.Era == c.Era {
		return c.Slug
	}
	return c.Slug + "-" + e.Era
}

// wireStep is one exchange of a column that is not the call.
type wireStep struct {
	Name  string // what it is, e.g. "initialize"
	Frame string
}

// fiveWiresColumns writes the five frames for the servers in t. A server
// that is not running still gets its frame, without a Host line: the page
// shows it, and the playground's refusal when it is sent.
func fiveWiresColumns(t wire.Targets) []wireColumn {
	httpHost, httpPath := fiveWiresBase(t.HTTPURL, "/")
	mcpHost, mcpPath := fiveWiresBase(t.MCPURL, mcp.Endpoint)
	a2aHost, a2aPath := fiveWiresBase(t.A2AURL, a2a.Endpoint)

	// MCP's requests after initialize carry the session, and the revision
	// initialize agreed on: "the client MUST include the
	// MCP-Protocol-Version: <protocol-version> HTTP header on all
	// subsequent requests".
	mcpPost := []string{"Accept: application/json, text/event-stream", "Content-Type: application/json"}
	inSession := []string{"Mcp-Session-Id: " + fiveWiresSession, "MCP-Protocol-Version: 2025-11-25"}
	// In revision 2026-07-28 there is no session: the call carries in its
	// _meta what initialize would have agreed, and its headers repeat
	// what a gateway routes on, the revision, the method and the tool.
	standAlone := []string{"MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/call", "Mcp-Name: word_count"}

	return []wireColumn{
		{Slug: "stdio", Name: "stdio", Target: "stdio",
			// On a pipe, answers come back as lines in the order the server
			// writes them; the id is how the page knows the answer is this
			// call's.
			Call: `{"id":1,"name":"word_count","args":` + fiveWiresArgs + `}`},
		{Slug: "http", Name: "HTTP", Target: "http",
			Call: fiveWiresRequest("POST", path.Join(httpPath, "execute"), httpHost,
				[]string{"Content-Type: application/json"},
				`{"name":"word_count","args":`+fiveWiresArgs+`}`)},
		{Slug: "grpc", Name: "gRPC", Target: "grpc",
			// arguments is a bytes field, and ProtoJSON writes bytes in
			// base64: the JSON object is inside, encoded.
			Call: "tools.v1.ToolServer/ExecuteTool\n" +
				`{"toolName":"word_count","arguments":"` + base64.StdEncoding.EncodeToString([]byte(fiveWiresArgs)) + `"}`},
		{Slug: "mcp", Name: "MCP", Target: "mcp-http",
			Before: []wireStep{
				{"initialize", fiveWiresRequest("POST", mcpPath, mcpHost, mcpPost,
					`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"five-wires","version":"1"}}}`)},
				{"notifications/initialized", fiveWiresRequest("POST", mcpPath, mcpHost, slices.Concat(mcpPost, inSession),
					`{"jsonrpc":"2.0","method":"notifications/initialized"}`)},
			},
			Call: fiveWiresRequest("POST", mcpPath, mcpHost, slices.Concat(mcpPost, inSession),
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"word_count","arguments":`+fiveWiresArgs+`}}`),
			// Every call opens a session; DELETE ends it, so that calls do
			// not pile sessions up on the server.
			After: []wireStep{
				{"DELETE", fiveWiresRequest("DELETE", mcpPath, mcpHost, inSession, "")},
			},
			Era: mcp.LegacyVersion,
			Eras: []wireEra{{Era: mcp.ModernVersion,
				Call: fiveWiresRequest("POST", mcpPath, mcpHost, slices.Concat(mcpPost, standAlone),
					`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"word_count","arguments":`+fiveWiresArgs+
						`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"five-wires","version":"1"}}}}`)}}},
		{Slug: "a2a", Name: "A2A", Target: "a2a",
			// The agent reads its skill from the text: "count" is word_count.
			Call: fiveWiresRequest("POST", a2aPath, a2aHost,
				[]string{"A2A-Version: 1.0", "Content-Type: application/json"},
				`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"count read the wire"}]}}}`)},
	}
}

// fiveWiresBase splits a server's base URL into the host a request
// names and the path it starts from; an empty URL (no server) gives no
// host and the protocol's usual path.
func fiveWiresBase(base, usual string) (host, p string) {
	u, err := url.Parse(base)
	if err != nil || base == "" {
		return "", usual
	}
	if u.Path == "" {
		return u.Host, usual
	}
	return u.Host, u.Path
}

// fiveWiresRequest writes an HTTP/1.1 request as it goes on the wire,
// but with LF line ends, which the playground makes CRLF: the request
// line, Host, the headers, Content-Length when there is a body, a blank
// line, the body. The length is the body's own, so the playground has
// nothing to fix.
func fiveWiresRequest(method, target, host string, headers []string, body string) string {
	lines := []string{method + " " + target + " HTTP/1.1"}
	if host != "" {
		lines = append(lines, "Host: "+host)
	}
	lines = append(lines, headers...)
	if body != "" {
		lines = append(lines, "Content-Length: "+strconv.Itoa(len(body)))
	}
	return strings.Join(lines, "\n") + "\n\n" + body
}

// fiveWiresSite serves the five-wires page, whose columns come from the
// targets.
type fiveWiresSite struct {
	columns []wireColumn
}

// page is /five-wires.
func (f *fiveWiresSite) page(w http.ResponseWriter, r *http.Request) {
	v := viewFor(w, r)
	// "course" keeps the course's look; fivewires.css widens the page
	// for five columns.
	v.Class = "course fivewires-page"
	v.Styles = append(v.Styles, "/static/fivewires.css")
	// The page's entry module, which imports wire.js and verdict.js.
	v.Scripts = append(v.Scripts, "/static/fivewires.js")
	show(w, r, http.StatusOK, fiveWiresPage(v, fiveWiresWordsFor(v.Lang), f.columns))
}

// fiveWiresWords is every string of the five-wires page, in one
// language. The page's script takes the ones it writes from data-
// attributes of the page.
type fiveWiresWords struct {
	Title   string
	Intro   string // what the reader is looking at
	Measure string // what the numbers are, and how many calls make them
	RunAll  string
	Run     string
	Frame   string // the label of a column's frame
	// Lifecycle is the title of MCP's folded exchanges around its call.
	Lifecycle string
	// Era labels the choice of a column that can speak two revisions of
	// its protocol (MCP), and EraNames name the revisions in it.
	Era       string
	EraNames  map[string]string
	Sent      string // what went out
	Back      string // what came back
	OnWire    string // the latency the playground measured
	OnWireHow string
	Page      string // the latency the page measured
	PageHow   string
	Spread    string // the title of the fastest–slowest range under a median
	Runs      string // under the numbers: what the median is of
	LastCall  string // the heading of the bytes shown: the last call's
	// Warm is the label of the first call, which is not measured, before
	// its two times, each followed by WarmOnWire and WarmPage.
	Warm       string
	WarmOnWire string
	WarmPage   string
	WarmBytes  string // the folded bytes of the first call
	// What the first call included, as the page can tell: a stdio server
	// it started or found running, a gRPC connection it opened or found
	// open, or, on the HTTP wires, nothing to start.
	WarmStarted string
	WarmRunning string
	WarmDialed  string
	WarmKept    string
	WarmCold    string
	CallOf      string // "call {i} of {n}", before the error of a call that failed
	BytesOut    string
	BytesIn     string
	// Cost is the heading of the whole cost of one call, RoundTrips its
	// count of exchanges, and CostWhat, by column, what the cost counts.
	Cost       string
	RoundTrips string
	CostWhat   map[string]string
	Bytes      string // the units after a size and a time
	Ms         string
	Us         string
	Running    string
	Fastest    string // marks the fastest column
	// Done, then DoneNext, say which column is the fastest and that its
	// slowest call beat the next column's fastest; TooClose, then
	// TooCloseRival, that the smallest median's slowest call did not. The
	// script fills {name}, {median}, {min} and {max} with a column's.
	Done          string
	DoneNext      string
	TooClose      string
	TooCloseRival string
	Alone         string            // only one column answered: {name}
	NoneDone      string            // no column answered
	Closed        string            // the websocket closed during a call
	NoAnswer      string            // nothing matched in time
	Exited        string            // the stdio server ended before answering
	NoSession     string            // initialize answered without Mcp-Session-Id
	Adds          map[string]string // by column: what the framing adds
	Notes         map[string]string // by column: what to know about its numbers
}

// fiveWiresWordsFor returns the page's strings in l. One table for both
// languages, so that a string added to one is visibly missing from the
// other.
func fiveWiresWordsFor(l lang) fiveWiresWords {
	// Both languages say the number of measured calls with words that
	// agree with any number above one, so that changing fiveWiresRuns
	// changes no word around it.
	n := strconv.Itoa(fiveWiresRuns)
	switch l {
	case ru:
		return fiveWiresWords{
			Title: "Пять проводов, один вызов",
			Intro: "Здесь один и тот же вызов инструмента, word_count с текстом «read the wire», сделан по пяти протоколам рядом. " +
				"Инструмент один, и ответ один: 3 слова, 13 символов. Отличается только обёртка вокруг них, а с ней байты и время. " +
				"stdio завершает одну строку JSON переводом строки. " +
				"HTTP добавляет заголовочную часть: строку запроса и заголовки туда, строку статуса и заголовки обратно. " +
				"gRPC кладёт вызов в кадры HTTP/2, ставит перед каждым сообщением Protobuf 5-байтовый префикс длины и передаёт статус в трейлерах. " +
				"MCP заворачивает вызов в JSON-RPC и сначала требует сессию: initialize, затем notifications/initialized; в редакции 2026-07-28 (её можно выбрать в колонке) сессии нет, и вызов сам несёт в params._meta то, о чём договаривалась бы сессия. " +
				"A2A отправляет сообщение агенту, а тот открывает задачу и отвечает её жизненным циклом: состоянием, историей и артефактом с результатом.",
			Measure: "В каждой колонке видно, какие байты ушли и какие вернулись, в точности (\\r\\n — конец строки CRLF, \\n — одиночный перевод строки), сколько их всего и два времени. " +
				"«На проводе» меряет сам wirelab по своим отметкам времени: от отправки запроса до чтения последнего байта ответа. " +
				"«Со страницы» — путь туда и обратно, каким его видит эта страница (performance.now()): к проводу добавляется websocket между страницей и wirelab. " +
				"В колонках HTTP, MCP и A2A каждый вызов открывает своё TCP-соединение: время со страницы включает его открытие, а время на проводе отсчитывается, когда оно уже открыто. " +
				"Времена такого размера меняются от вызова к вызову, поэтому «Запустить» делает вызов, а за ним ещё " + n + " таких же, строго по очереди. " +
				"Первый показан отдельно, вместе с тем, что в него вошло: он может запустить сервер или открыть соединение, а следующим этого делать уже не нужно. " +
				"Крупное число — медиана остальных " + n + " вызовов, а под ним самый быстрый и самый медленный из них: один медленный вызов медиану не сдвигает, но в разбросе он всё равно виден. " +
				"Байты показаны для последнего вызова. " +
				"«Запустить все» запускает колонки по очереди, чтобы они не мешали друг другу, и называет самой быстрой колонку, только если даже её самый медленный вызов быстрее самого быстрого вызова любой другой: разница меньше разброса — это шум, и страница так и говорит. " +
				"Под временами — цена одного вызова целиком: сколько раз пришлось обменяться туда и обратно и сколько байт ушло и пришло, вместе с рукопожатием протокола. " +
				"Любой кадр можно поправить и запустить снова.",
			RunAll:      "Запустить все",
			Run:         "Запустить",
			Frame:       "Кадр",
			Lifecycle:   "Сессия вокруг последнего вызова (не измеряется)",
			Era:         "Редакция",
			EraNames:    map[string]string{mcp.LegacyVersion: "2025-11-25 (сессия)", mcp.ModernVersion: "2026-07-28 (без сессии)"},
			Sent:        "Ушло",
			Back:        "Вернулось",
			OnWire:      "На проводе",
			OnWireHow:   "по отметкам времени wirelab: от первого байта запроса до последнего байта ответа",
			Page:        "Со страницы",
			PageHow:     "туда и обратно, как видит страница: performance.now() до отправки и при последнем ответе",
			Spread:      "самый быстрый и самый медленный из " + n + " измеренных вызовов",
			Runs:        "Медиана " + n + " вызовов после первого; под ней самый быстрый и самый медленный.",
			LastCall:    "Байты последнего вызова",
			Warm:        "Первый вызов, не в счёт:",
			WarmOnWire:  "на проводе",
			WarmPage:    "со страницы",
			WarmBytes:   "Его байты",
			WarmStarted: "Он запустил процесс сервера, и запуск вошёл в его время.",
			WarmRunning: "Процесс сервера уже работал: он остался от прошлого запуска в этой вкладке.",
			WarmDialed:  "Он открыл соединение и узнал метод через reflection, и то и другое вошло в его время.",
			WarmKept:    "Соединение уже было открыто: его сохранил прошлый вызов в этой вкладке.",
			WarmCold:    "Запускать и открывать здесь нечего; он всё равно показан отдельно, потому что первый вызов может платить и за ещё не прогретые кэши и пути в коде.",
			CallOf:      "вызов {i} из {n}",
			BytesOut:    "Байт туда",
			BytesIn:     "Байт обратно",
			Cost:        "Один вызов целиком",
			RoundTrips:  "Обменов туда и обратно",
			CostWhat: map[string]string{
				"stdio":          "Строка запроса и строка ответа. Запуск процесса сервера по трубе ничего не передаёт.",
				"http":           "Один запрос и его ответ. Под ним каждый вызов здесь открывает TCP-соединение; собственный обмен TCP не считается, как и на всех проводах, кроме stdio.",
				"grpc":           "Вызов, который открыл соединение: 24-байтовая преамбула, SETTINGS в обе стороны и их ACK (это обмен туда и обратно до самого вызова), затем вызов. Следующие вызовы по тому же соединению за это уже не платят. Запрос reflection, который делает площадка, идёт по своему соединению и не считается: клиенту, собранному из .proto, он не нужен.",
				"mcp":            "Вся сессия: initialize, notifications/initialized, tools/call и DELETE, четыре запроса, каждый со своим ответом. Время меряется только у tools/call.",
				"mcp-2026-07-28": "Один POST и его ответ: ни initialize, ни notifications/initialized, ни DELETE.",
				"a2a":            "Один POST и его ответ: задача с историей и артефактом приходит целиком.",
			},
			Bytes:         "Б",
			Ms:            "мс",
			Us:            "мкс",
			Running:       "идёт…",
			Fastest:       "быстрее всех на проводе, вне шума",
			Done:          "Быстрее всех на проводе: {name}, медиана {median}; даже самый медленный вызов ({max})",
			DoneNext:      "быстрее самого быстрого вызова любой другой колонки (ближе всех {name}: {min}).",
			TooClose:      "Слишком близко, чтобы выбрать: у {name} самая малая медиана на проводе ({median}), но самый медленный вызов занял {max},",
			TooCloseRival: "а самый быстрый вызов {name} — {min}: шум может поменять их местами. Ничего не отмечено.",
			Alone:         "Ответил только {name}: сравнивать не с чем.",
			NoneDone:      "Ни один сервер не ответил.",
			Closed:        "соединение со страницей wirelab закрылось; запустите снова",
			NoAnswer:      "ответ не пришёл вовремя",
			Exited:        "сервер завершился, не ответив",
			NoSession:     "initialize ответил без Mcp-Session-Id, и вызывать не в чем: сессии нет",
			Adds: map[string]string{
				"stdio":          "Построчная рамка: сообщение — одна строка JSON, перевод строки её завершает. По id ответ в трубе находит свой запрос.",
				"http":           "Заголовочная часть HTTP: строка запроса, Host, Content-Type и Content-Length туда, строка статуса и заголовки обратно. Чей ответ, говорит само соединение.",
				"grpc":           "Кадры HTTP/2 (у каждого 9-байтовый заголовок, заголовки сжаты HPACK), 5-байтовый префикс длины перед сообщением Protobuf и трейлеры с grpc-status.",
				"mcp":            "JSON-RPC внутри HTTP и сессия: initialize выдаёт Mcp-Session-Id, и его несёт каждый следующий запрос. Результат в ответе дважды: текстом и в structuredContent.",
				"mcp-2026-07-28": "JSON-RPC внутри HTTP, без сессии: запрос сам несёт редакцию и возможности клиента в params._meta, а заголовки повторяют редакцию, метод и имя инструмента, чтобы шлюз мог направить запрос, не читая JSON. Результат в ответе дважды, текстом и в structuredContent, а рядом resultType и имя сервера.",
				"a2a":            "Сообщение агенту, а не вызов инструмента: агент выбирает навык по тексту, выполняет его как задачу и отвечает задачей: состояние, история и артефакт с результатом.",
			},
			Notes: map[string]string{
				"stdio":          "Если в этой вкладке сервер ещё не запущен, первый вызов стартует дочерний процесс (wirelab server stdio), и время старта входит в этот вызов; измеряемые вызовы идут в тот же процесс.",
				"grpc":           "Кадр — это метод и запрос в JSON (arguments — поле bytes, поэтому в base64). Вкладка держит соединение между вызовами, как настоящий клиент: первый вызов во вкладке открывает его и узнаёт метод через reflection, и то и другое входит в его время; измеряемые вызовы идут по тому же соединению. Байты посчитаны по кадрам HTTP/2 в дампе: 9 байт заголовка кадра плюс его данные (и 24 байта преамбулы соединения в вызове, который его открывает). В дампе измеряемого вызова — кадры с конца предыдущего: без преамбулы и SETTINGS, а заголовки короче, потому что HPACK отправляет уже виденные как номера в своей таблице. Байты первого вызова свёрнуты рядом с его временем.",
				"mcp":            "Время меряется только у tools/call. Каждый вызов идёт в своей сессии, чтобы уйти ровно таким, как в кадре (id запроса нельзя повторять в одной сессии): до него initialize и notifications/initialized, после — DELETE; они в свёрнутой части, их время не меряется, но в цену вызова целиком они входят. SESSION заменяется на id, который вернул initialize.",
				"mcp-2026-07-28": "В редакции 2026-07-28 рукопожатия нет: каждый вызов — это один показанный POST, без ничего до и после, и время меряется у него.",
			},
		}
	default:
		return fiveWiresWords{
			Title: "Five wires, one call",
			Intro: "Here one tool call, word_count with the text “read the wire”, is made over five protocols side by side. " +
				"The tool is the same and so is its answer: 3 words, 13 characters. Only the framing around them differs, and with it the bytes and the time. " +
				"stdio ends one line of JSON with a newline. " +
				"HTTP adds a head: a request line and headers out, a status line and headers back. " +
				"gRPC puts the call in HTTP/2 frames, a 5-byte length prefix before each Protobuf message, and the status in trailers. " +
				"MCP wraps the call in JSON-RPC and needs a session first: initialize, then notifications/initialized; in its revision 2026-07-28 (choose it in the column) there is no session, and the call carries in params._meta what a session would have agreed. " +
				"A2A sends a message to an agent, which opens a task and answers with its lifecycle: a state, the history and an artifact holding the result.",
			Measure: "Each column shows the bytes that went out and came back, exactly (\\r\\n marks a CRLF line end, \\n a bare newline), how many there were, and two times. " +
				"On the wire is measured by wirelab, from its own timestamps: from sending the request to reading the last byte of the answer. " +
				"From the page is the round trip this page sees (performance.now()): the wire plus the websocket between the page and wirelab. " +
				"On HTTP, MCP and A2A each call opens a TCP connection of its own: the time from the page includes opening it, the time on the wire starts once it is open. " +
				"Times this small vary from call to call, so Run makes the call once and then " + n + " more times the same way, strictly one after another. " +
				"The first is shown apart, with what it included: it may start the server or open the connection, which the later calls need not do. " +
				"The large number is the median of the other " + n + " calls, and beneath it are the fastest and the slowest of them: one slow call does not move the median, and the range still shows it. " +
				"The bytes shown are the last call's. " +
				"Run all runs the columns one after another, so that they do not slow each other down, and calls a column the fastest only when even its slowest call beat every other column's fastest: a difference smaller than the spread is noise, and the page says so. " +
				"Under the times is what one call costs, all of it: the round trips and the bytes out and back, the protocol's handshake included. " +
				"Edit any frame and run it again.",
			RunAll:      "Run all",
			Run:         "Run",
			Frame:       "Frame",
			Lifecycle:   "The session around the last call (not measured)",
			Era:         "Revision",
			EraNames:    map[string]string{mcp.LegacyVersion: "2025-11-25 (session)", mcp.ModernVersion: "2026-07-28 (stateless)"},
			Sent:        "Sent",
			Back:        "Came back",
			OnWire:      "On the wire",
			OnWireHow:   "wirelab's timestamps: the request's first byte to the answer's last",
			Page:        "From the page",
			PageHow:     "the round trip the page sees: performance.now() before sending and at the last answer",
			Spread:      "the fastest and the slowest of the " + n + " measured calls",
			Runs:        "Median of " + n + " calls after the first; beneath it, the fastest and the slowest.",
			LastCall:    "The last call's bytes",
			Warm:        "First call, not counted:",
			WarmOnWire:  "on the wire",
			WarmPage:    "from the page",
			WarmBytes:   "Its bytes",
			WarmStarted: "It started the server process, and the start is in its time.",
			WarmRunning: "The server process was already running, left from an earlier run in this tab.",
			WarmDialed:  "It opened the connection and looked the method up by reflection, and both are in its time.",
			WarmKept:    "The connection was already open, kept from an earlier call in this tab.",
			WarmCold:    "Nothing to start or open here; it is kept apart all the same, since a first call may also pay for caches and code paths not yet warm.",
			CallOf:      "call {i} of {n}",
			BytesOut:    "Bytes out",
			BytesIn:     "Bytes back",
			Cost:        "One call, all of it",
			RoundTrips:  "Round trips",
			CostWhat: map[string]string{
				"stdio":          "The request line and the answer line. Starting the server process sends nothing down the pipe.",
				"http":           "One request and its answer. Beneath it, each call here opens a TCP connection; TCP's own round trip is not counted, on any wire but stdio.",
				"grpc":           "The call that opened the connection: the 24-byte preface, SETTINGS each way and their ACKs (a round trip before the call's own), then the call. Later calls on the connection do not pay for that again. The playground's reflection lookup goes over a connection of its own and is not counted: a client built from the .proto needs none.",
				"mcp":            "The whole session: initialize, notifications/initialized, tools/call and DELETE, four requests, each with its answer. Only tools/call is timed.",
				"mcp-2026-07-28": "One POST and its answer: no initialize, no notifications/initialized, no DELETE.",
				"a2a":            "One POST and its answer: the task, with its history and artifact, comes back whole.",
			},
			Bytes:         "B",
			Ms:            "ms",
			Us:            "µs",
			Running:       "running…",
			Fastest:       "fastest on the wire, beyond the noise",
			Done:          "Fastest on the wire: {name}, median {median}, and even its slowest call ({max}) beat",
			DoneNext:      "the fastest call of every other column (the closest, {name}: {min}).",
			TooClose:      "Too close to call: {name} has the smallest median on the wire ({median}), but its slowest call took {max},",
			TooCloseRival: "and {name}'s fastest took {min}: noise could swap them. None is marked.",
			Alone:         "Only {name} answered: there is nothing to compare it with.",
			NoneDone:      "No server answered.",
			Closed:        "the connection to wirelab closed; run again",
			NoAnswer:      "no answer came in time",
			Exited:        "the server exited before answering",
			NoSession:     "initialize answered without Mcp-Session-Id, so there is no session to call in",
			Adds: map[string]string{
				"stdio":          "Newline framing: the message is one line of JSON, and the newline ends it. On a pipe, the id is how an answer finds its request.",
				"http":           "An HTTP head: the request line, Host, Content-Type and Content-Length out; the status line and headers back. The connection says which answer is whose.",
				"grpc":           "HTTP/2 frames (a 9-byte header each, headers compressed with HPACK), a 5-byte length prefix before the Protobuf message, and trailers carrying grpc-status.",
				"mcp":            "JSON-RPC inside HTTP, and a session: initialize returns Mcp-Session-Id, which every later request carries. The answer holds the result twice, as text and as structuredContent.",
				"mcp-2026-07-28": "JSON-RPC inside HTTP, and no session: the request carries its revision and the client's capabilities in params._meta, and its headers repeat the revision, the method and the tool's name, for a gateway to route on without reading JSON. The answer holds the result twice, as text and as structuredContent, beside resultType and the server's name.",
				"a2a":            "A message to an agent, not a call to a tool: the agent picks the skill from the text, runs it as a task, and answers with the task: its state, the history, and an artifact holding the result.",
			},
			Notes: map[string]string{
				"stdio":          "If this tab has no server running yet, the first call starts the child process (wirelab server stdio), and the start is in that call's time; the measured calls go to the same process.",
				"grpc":           "The frame is the method and the request as JSON (arguments is a bytes field, hence base64). The tab keeps its connection between calls, as a real client does: the first call in a tab opens it and looks the method up by reflection, and both are in that call's time; the measured calls reuse it. The bytes are counted from the HTTP/2 frames in the dump: each frame's 9-byte header and payload (and the connection's 24-byte preface, in the call that opens it). A measured call's dump holds the frames since the previous call: no preface or SETTINGS, and shorter headers, since HPACK sends the ones it has sent before as indexes into its table. The first call's bytes are folded beside its time.",
				"mcp":            "Only tools/call is timed. Every call runs in a session of its own, so that it goes exactly as the frame shows (a request id may not be used twice in a session): initialize and notifications/initialized before it, DELETE after it, folded away and not timed, but counted in the whole cost of the call. SESSION is replaced with the id initialize returned.",
				"mcp-2026-07-28": "Revision 2026-07-28 has no handshake: every call is the one POST shown, with nothing before or after it, and it is what is timed.",
			},
		}
	}
}

// frameRows is the height of a frame's field: its lines and one more,
// for a browser that cannot size a field to its content (lesson.css
// asks for field-sizing: content, which wraps long lines in view too).
func frameRows(frame string) string {
	return strconv.Itoa(strings.Count(strings.TrimRight(frame, "\n"), "\n") + 2)
}
