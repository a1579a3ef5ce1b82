package tapcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"strings"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// Eras, as a message is tagged.
const (
	EraModern = "2026-07-28"
	EraLegacy = "session" // prefixed by the negotiated revision: "2025-11-25 session"
)

// metaProtocolVersion is the _meta key by which a 2026-07-28 request
// names its revision.
const metaProtocolVersion = "io.modelcontextprotocol/protocolVersion"

// Finding is one thing wrong, or worth a warning, in a recording.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	// Event is the Seq of the event that holds the message.
	Event int `json:"event"`
	// Detail says what exactly: the id, the tool, a diff. DetailRU says
	// the same in Russian; the words of the protocol (methods, ids,
	// fields, codes) stay as on the wire in both.
	Detail   string `json:"detail,omitempty"`
	DetailRU string `json:"detail_ru,omitempty"`
	EN       string `json:"en"`
	RU       string `json:"ru"`
}

// Message is one JSON-RPC message found in a recording.
type Message struct {
	Event  int    `json:"event"`
	Dir    string `json:"dir"`
	Method string `json:"method,omitempty"` // for a response, its request's method
	ID     string `json:"id,omitempty"`
	Era    string `json:"era,omitempty"`
}

// Report is the result of a check.
type Report struct {
	Messages []Message `json:"messages"`
	// Calls are the gRPC calls of a recording of the gRPC relay.
	Calls    []Call    `json:"calls,omitempty"`
	Findings []Finding `json:"findings"`
}

// Count returns how many findings have the given severity.
func (r *Report) Count(severity string) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == severity {
			n++
		}
	}
	return n
}

// Check reads every message of a recording, in order, and reports what
// it finds.
func Check(events []tap.Event) *Report {
	k := NewChecker()
	for _, e := range events {
		k.Add(e)
	}
	k.End()
	return k.Report()
}

// newChecker returns a checker that has read nothing yet.
func newChecker() *checker {
	return &checker{
		report: &Report{Messages: []Message{}, Findings: []Finding{}},
		convs:  map[string]*conversation{},
		tools:  map[string]*tool{},
		reqs:   map[int]tap.Event{},
		resps:  map[int]tap.Event{},

		hostMessage: map[int]hostMessage{},
		a2a:         map[int]*a2aExchange{},
		a2aTasks:    map[string]a2aSeen{},
	}
}

// checker holds what Check has learned so far.
type checker struct {
	report *Report
	convs  map[string]*conversation // by key: "stdio", "session:ID", "exchange:N"
	tools  map[string]*tool         // by name, as the latest tools/list described them
	reqs   map[int]tap.Event        // each HTTP exchange's request, by exchange
	resps  map[int]tap.Event        // each HTTP exchange's response head
	// early holds tools/call results that came before their tool was
	// listed, by tool name.
	early map[string][]earlyResult
	// exchangeConv is the conversation of each HTTP exchange.
	exchangeConv map[int]*conversation
	// schemas are the official JSON schemas of the revisions met.
	schemas schemas
	// hostMessage is the JSON-RPC message each HTTP request carried.
	hostMessage map[int]hostMessage
	// a2a holds the A2A exchanges, by exchange; a2aTasks the last state
	// each A2A task was seen in, by task id.
	a2a      map[int]*a2aExchange
	a2aTasks map[string]a2aSeen
	// amended lists the findings made earlier whose detail a later
	// message added to, by index, until a Checker hands them on.
	amended []int
	// ends is how each HTTP exchange ended, by exchange (pending.go).
	ends map[int]*exchangeEnd
}

// hostMessage is what an HTTP request's body carried: a request (its
// id) or a notification.
type hostMessage struct {
	event        int
	id           string
	notification bool
}

// conversation is one stdio pipe or one HTTP session: the scope of
// request ids and of initialization.
type conversation struct {
	initialized string // the revision initialize asked for; "" before it
	// pending: requests waiting for an answer, by the side that sent
	// them and their id. used: every id each side has sent.
	pending map[string]map[string]*request
	used    map[string]map[string]bool
	// lastNotification: the event of the last notification from each
	// side, to tell an answered notification from a stray response.
	lastNotification map[string]int
	progress         map[string]float64 // the last progress of each token
	// era is the era of the host's latest request: the server's own
	// messages (notifications on the stream of a 2026-07-28 request)
	// carry none.
	era string
	// answered is the answer to initialize, until the host's next
	// message shows whether it went on in the revision answered
	// (version.go).
	answered *versionAnswer
}

type request struct {
	event  int    // the event that holds it
	dir    string // the side that sent it
	id     string
	method string
	// exchange is the HTTP exchange whose request carried it; 0 on
	// stdio, and for the server's requests.
	exchange  int
	cancelled bool   // by notifications/cancelled
	tool      string // for tools/call
	era       string
	task      bool // 2025-11-25: params.task asks for a task instead of the result
	// invalid is the index in the report's findings of the request's
	// own schema finding, or -1.
	invalid int
}

// tool is what tools/list said about a tool.
type tool struct {
	canonical string // its definition, pretty-printed with sorted keys
	output    json.RawMessage
	schema    *outputSchema // compiled on first use; nil if it does not compile
	compiled  bool
}

func newConversation() *conversation {
	return &conversation{
		pending:          map[string]map[string]*request{tap.Out: {}, tap.In: {}},
		used:             map[string]map[string]bool{tap.Out: {}, tap.In: {}},
		lastNotification: map[string]int{},
		progress:         map[string]float64{},
	}
}

func (c *checker) conv(key string) *conversation {
	cv := c.convs[key]
	if cv == nil {
		cv = newConversation()
		c.convs[key] = cv
	}
	return cv
}

// find adds a finding. en and ru are the detail's format in English
// and in Russian, filled from the same args; an arg that is a phrase
// gives each language its own words.
func (c *checker) find(code string, event int, en, ru string, args ...any) {
	r := rule(code)
	c.report.Findings = append(c.report.Findings, Finding{Code: code, Severity: r.Severity, Event: event,
		Detail: fmt.Sprintf(en, in(args, false)...), DetailRU: fmt.Sprintf(ru, in(args, true)...), EN: r.EN, RU: r.RU})
}

// phrase is an argument of a finding's detail worded in each language:
// a side, a stream, a count with its noun.
type phrase struct{ en, ru string }

// in returns args with each phrase in English, or in Russian.
func in(args []any, ru bool) []any {
	out := make([]any, len(args))
	for i, a := range args {
		p, ok := a.(phrase)
		switch {
		case !ok:
			out[i] = a
		case ru:
			out[i] = p.ru
		default:
			out[i] = p.en
		}
	}
	return out
}

// bytesOf is a count of bytes in each language: "5 bytes", "5 байт".
func bytesOf(n int) phrase {
	return phrase{fmt.Sprintf("%d bytes", n), fmt.Sprintf("%d %s", n, plural(n, "байт", "байта", "байт"))}
}

// plural picks the Russian form of a noun for a count: one (1, 21,
// 101), few (2-4, 22-24) or many (0, 5-20, 25-30, 111-114).
func plural(n int, one, few, many string) string {
	if n < 0 {
		n = -n
	}
	switch n10, n100 := n%10, n%100; {
	case n10 == 1 && n100 != 11:
		return one
	case n10 >= 2 && n10 <= 4 && (n100 < 12 || n100 > 14):
		return few
	}
	return many
}

// event takes one event of the recording.
func (c *checker) event(e tap.Event) {
	switch e.Kind {
	case tap.KindLine:
		if e.Dir == tap.Err {
			return // logs: anything goes
		}
		if e.NoEOL {
			c.find("cut-off", e.Seq, "%s with no newline on %s", "%s без перевода строки в %s", bytesOf(e.Size), streamName(e.Dir))
		}
		if len(bytes.TrimSpace(e.Bytes())) == 0 && !e.Truncated {
			return
		}
		c.message(e, e.Bytes(), c.conv("stdio"), true)
	case tap.KindHTTPRequest:
		c.reqs[e.Exchange] = e
		if e.Size == 0 {
			return
		}
		cv := c.exchangeConversation(e)
		if isJSON(e.Header.Get("Content-Type")) {
			c.message(e, e.Bytes(), cv, false)
		}
	case tap.KindHTTPResponse:
		req := c.reqs[e.Exchange]
		cv := c.exchangeConversation(req)
		// The answer to initialize names the session from then on.
		if id := e.Header.Get("Mcp-Session-Id"); id != "" && req.Header.Get("Mcp-Session-Id") == "" {
			c.convs["session:"+id] = cv
		}
		if e.Status == 502 && e.Data != "" {
			c.find("relay-broken", e.Seq, "%s", "tap ответил 502: %s", e.Data)
		}
		if x := c.a2a[e.Exchange]; x != nil {
			mt, _, _ := mime.ParseMediaType(e.Header.Get("Content-Type"))
			x.stream = mt == "text/event-stream"
		}
		c.resps[e.Exchange] = e
		switch x := c.endOf(e.Exchange); {
		case e.Status == 502 && e.Data != "":
			x.broke = true // the tap's own answer, when the upstream gave none
			x.ended(e.Seq, e.Data)
		case e.Status < 200 || e.Status > 299:
			x.refused = true
		}
	case tap.KindHTTPEnd:
		c.httpEnd(e)
		if x := c.a2a[e.Exchange]; x != nil {
			c.a2aEnd(e, x)
		}
	case tap.KindHTTPBody, tap.KindSSEEvent:
		if e.NoEOL {
			// The connection ended in the middle: the host went away, or
			// the upstream broke off. What arrived is not a message.
			c.find("relay-broken", e.Seq, "%s cut off after %s; not checked", "%s: обрыв после %s; не проверено", e.Kind, bytesOf(e.Size))
			x := c.endOf(e.Exchange)
			x.broke = true // unless the end that follows says the host left
			x.ended(e.Seq, "")
			return
		}
		cv := c.exchangeConversation(c.reqs[e.Exchange])
		if e.Kind == tap.KindSSEEvent {
			if isResumable(e.Bytes()) {
				c.endOf(e.Exchange).resumable = true
			}
			if data, ok := sseData(e.Bytes()); ok {
				c.message(e, data, cv, false)
			}
		} else if head, ok := c.resps[e.Exchange]; ok && isJSON(head.Header.Get("Content-Type")) && c.reqs[e.Exchange].Method == "POST" {
			// Only a POST carries JSON-RPC: the JSON answering a GET is a
			// document (an agent card, OAuth metadata).
			c.message(e, e.Bytes(), cv, false)
		}
	case tap.KindNote:
		if e.Exchange != 0 {
			// A note on an exchange ends it: the tap refused it, the
			// host went away, or the upstream did not answer.
			x := c.endOf(e.Exchange)
			x.ended(e.Seq, e.Data)
			switch {
			case e.Refused:
				x.refused = true
			case e.Dir == tap.Out:
				x.hostLeft = true
			default:
				x.broke = true
			}
		}
		if e.Refused {
			c.find("tap-refused", e.Seq, "%s", "заметка tap: %s", e.Data)
			return
		}
		c.find("relay-broken", e.Seq, "%s", "заметка tap: %s", e.Data)
	case tap.KindExit:
		c.exit(e)
	}
}

// exchangeConversation is the conversation an HTTP request belongs to:
// its session, or, without one, the exchange alone.
func (c *checker) exchangeConversation(req tap.Event) *conversation {
	if c.exchangeConv == nil {
		c.exchangeConv = map[int]*conversation{}
	}
	if cv, ok := c.exchangeConv[req.Exchange]; ok {
		return cv
	}
	var cv *conversation
	if id := req.Header.Get("Mcp-Session-Id"); id != "" {
		cv = c.conv("session:" + id)
	} else {
		cv = c.conv(fmt.Sprintf("exchange:%d", req.Exchange))
	}
	c.exchangeConv[req.Exchange] = cv
	return cv
}

// message checks one JSON-RPC message sent in direction e.Dir.
func (c *checker) message(e tap.Event, data []byte, cv *conversation, stdio bool) {
	if e.Truncated {
		c.find("truncated", e.Seq, "%s, %d recorded", "%s, записано %d", bytesOf(e.Size), len(data))
		return
	}
	msg, bad := jsonrpc.Decode(data)
	if bad != nil {
		code := "not-jsonrpc"
		if stdio && e.Dir == tap.In {
			code = "stdout-noise"
		}
		c.find(code, e.Seq, "%s: %s", "%s: %s", decodeProblem(bad.Error), quote(data))
		return
	}
	other := tap.In
	if e.Dir == tap.In {
		other = tap.Out
	}
	if e.Dir == tap.Out && cv.answered != nil {
		c.hostWentOn(e, msg, cv)
	}
	m := Message{Event: e.Seq, Dir: e.Dir}
	switch msg := msg.(type) {
	case *jsonrpc.Request:
		m.Method = msg.Method
		if e.Kind == tap.KindHTTPRequest {
			c.hostMessage[e.Exchange] = hostMessage{event: e.Seq, id: msg.ID.String(), notification: msg.IsNotification()}
			if x := c.a2aExchangeOf(e, msg); x != nil {
				// A2A: none of MCP's rules (initialize, its schemas) apply.
				c.a2a[e.Exchange] = x
				m.Era = x.era
				c.report.Messages = append(c.report.Messages, m)
				return
			}
		}
		m.Era = c.requestEra(e, msg, cv)
		switch {
		case m.Era == "" && e.Dir == tap.In:
			m.Era = cv.era
		case m.Era != "" && e.Dir == tap.Out:
			cv.era = m.Era
		}
		invalid := -1
		if s := c.schemas.get(revision(m.Era)); s != nil && m.Era != "" {
			if def, ok := s.methods[e.Dir][msg.Method]; ok {
				invalid = c.validate(e, s.rev, def, data, phrase{msg.Method, msg.Method})
			}
		}
		if msg.IsNotification() {
			cv.lastNotification[e.Dir] = e.Seq
			c.notification(e, msg, cv)
			break
		}
		m.ID = msg.ID.String()
		if cv.used[e.Dir][m.ID] {
			c.find("id-reused", e.Seq, "%s %s reuses id %s", "%[1]s снова берёт id %[3]s, теперь для %[2]s", sideName(e.Dir), msg.Method, m.ID)
		}
		cv.used[e.Dir][m.ID] = true
		var p struct {
			Name string          `json:"name"`
			Task json.RawMessage `json:"task"`
		}
		json.Unmarshal(msg.Params, &p)
		req := &request{event: e.Seq, dir: e.Dir, id: m.ID, method: msg.Method, era: m.Era, task: len(p.Task) > 0 && string(p.Task) != "null", invalid: invalid}
		if e.Kind == tap.KindHTTPRequest {
			req.exchange = e.Exchange
		}
		if msg.Method == "tools/call" {
			req.tool = p.Name
		}
		cv.pending[e.Dir][m.ID] = req
	case *jsonrpc.Response:
		m.ID = msg.ID.String()
		if x := c.a2a[e.Exchange]; x != nil {
			// Every event of an A2A stream answers the one request.
			m.Method, m.Era = x.method, x.era
			if host := c.hostMessage[e.Exchange]; m.ID != host.id && !msg.ID.IsNull() {
				c.find("unknown-id", e.Seq, "%s answers id %s in the exchange of request id %s", "%s отвечает с id %s в обмене запроса с id %s", sideName(e.Dir), m.ID, host.id)
			}
			c.a2aResponse(e, x, msg)
			break
		}
		if msg.Error != nil {
			c.unsupportedVersion(e, msg.Error)
		}
		req, ok := cv.pending[other][m.ID]
		if !ok {
			c.stray(e, msg, cv, other)
			break
		}
		delete(cv.pending[other], m.ID)
		m.Method, m.Era = req.method, req.era
		c.validateResponse(e, req, msg, data, other)
		if msg.Error == nil {
			c.result(e, req, msg.Result, cv)
		}
	}
	c.report.Messages = append(c.report.Messages, m)
}

// validateResponse checks a response against the schema of its
// request's revision: an error against JSONRPCErrorResponse, a result
// against the result its request's method implies.
func (c *checker) validateResponse(e tap.Event, req *request, msg *jsonrpc.Response, data []byte, requester string) {
	s := c.schemas.get(revision(req.era))
	if s == nil || req.era == "" {
		return
	}
	what := phrase{"the answer to " + req.method, "ответ на " + req.method}
	if msg.Error != nil {
		if req.invalid >= 0 {
			// The request broke the schema, and the server said no, as it
			// should: the finding is the requester's.
			f := &c.report.Findings[req.invalid]
			f.Detail += fmt.Sprintf(" (event %d refuses it: error %d)", e.Seq, msg.Error.Code)
			f.DetailRU += fmt.Sprintf(" (событие %d отклоняет его: ошибка %d)", e.Seq, msg.Error.Code)
			c.amended = append(c.amended, req.invalid)
		}
		c.validate(e, s.rev, "JSONRPCErrorResponse", data, what)
		return
	}
	def, whole := s.resultDef(requester, req.method, req.task)
	if def == "" {
		return // a method this revision does not define
	}
	if whole {
		c.validate(e, s.rev, def, data, what)
	} else {
		c.validate(e, s.rev, def, msg.Result, what)
	}
}

// requestEra tells a 2026-07-28 request (its _meta names a revision) from
// one in a 2025-11-25 session, and checks that the latter comes after
// initialize.
func (c *checker) requestEra(e tap.Event, msg *jsonrpc.Request, cv *conversation) string {
	var p struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Meta            map[string]json.RawMessage `json:"_meta"`
	}
	json.Unmarshal(msg.Params, &p)
	if v, ok := p.Meta[metaProtocolVersion]; ok {
		var rev string
		json.Unmarshal(v, &rev)
		return rev
	}
	if e.Kind == tap.KindHTTPRequest && e.Header.Get("Mcp-Session-Id") == "" && e.Header.Get("Mcp-Protocol-Version") == EraModern && msg.Method != "initialize" {
		// Outside a session, the MCP-Protocol-Version header names the
		// revision of a request whose _meta leaves it out: a 2026-07-28
		// request that breaks its schema, not one before initialize.
		return EraModern
	}
	switch {
	case msg.Method == "initialize":
		cv.initialized = p.ProtocolVersion
	case cv.initialized != "":
	case e.Dir == tap.Out && !msg.IsNotification() && msg.Method != "ping" && msg.Method != "server/discover":
		c.find("before-initialize", e.Seq, "%s before initialize", "%s до initialize", msg.Method)
		return ""
	default:
		return ""
	}
	return cv.initialized + " " + EraLegacy
}

// stray is a response that answers nothing waiting: an answered
// notification, or an unknown id. A null-id error is the right answer to
// bytes whose id could not be read, and is not a finding.
func (c *checker) stray(e tap.Event, msg *jsonrpc.Response, cv *conversation, other string) {
	if e.Exchange != 0 && msg.ID.IsNull() {
		// On HTTP, an answer in a response's body can only answer the
		// request of its own exchange.
		switch host := c.hostMessage[e.Exchange]; {
		case host.notification:
			c.find("notification-answered", e.Seq, "answers the notification in event %d", "ответ на уведомление из события %d", host.event)
			return
		case host.id != "" && msg.Error != nil:
			// An error before the message was read to its id: Streamable
			// HTTP refuses a request for a session that is gone (404)
			// before it parses the body, and a JSON-RPC error with a
			// null id is the usual body of that refusal.
			delete(cv.pending[other], host.id)
			return
		}
		c.find("unknown-id", e.Seq, "%s answers id null in exchange %d, whose request was not a request with an id",
			"%s отвечает с id null в обмене %d, хотя в нём был не запрос с id", sideName(e.Dir), e.Exchange)
		return
	}
	if msg.ID.IsNull() {
		if n, ok := cv.lastNotification[other]; ok {
			c.find("notification-answered", e.Seq, "answers the notification in event %d", "ответ на уведомление из события %d", n)
			delete(cv.lastNotification, other)
			return
		}
		if msg.Error != nil {
			return
		}
	}
	c.find("unknown-id", e.Seq, "%s answers id %s, which no %s request waits for", "%s отвечает на id %s, но ни один запрос %s с таким id ответа не ждёт",
		sideName(e.Dir), msg.ID, sideOf(other))
}

func (c *checker) notification(e tap.Event, msg *jsonrpc.Request, cv *conversation) {
	if msg.Method == "notifications/cancelled" {
		c.cancel(e, msg.Params, cv)
		return
	}
	if msg.Method != "notifications/progress" {
		return
	}
	var p struct {
		Token    json.RawMessage `json:"progressToken"`
		Progress float64         `json:"progress"`
	}
	if json.Unmarshal(msg.Params, &p) != nil {
		return
	}
	key := string(p.Token)
	if last, ok := cv.progress[key]; ok && p.Progress <= last {
		c.find("progress-backwards", e.Seq, "token %s: progress %v after %v", "токен %s: progress %v после %v", key, p.Progress, last)
	}
	cv.progress[key] = p.Progress
}

// result checks a successful result by what its request asked.
func (c *checker) result(e tap.Event, req *request, result json.RawMessage, cv *conversation) {
	switch req.method {
	case "initialize":
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(result, &r) == nil && r.ProtocolVersion != "" {
			c.versionAnswered(e, r.ProtocolVersion, cv)
			cv.initialized = r.ProtocolVersion // the revision agreed on
		}
	case "server/discover":
		c.discovered(e, result)
	case "tools/list":
		c.toolList(e, result)
	case "tools/call":
		c.toolResult(e, req.tool, result)
	}
}

func isJSON(contentType string) bool {
	mt, _, _ := mime.ParseMediaType(contentType)
	return mt == "application/json"
}

// sseData returns the data of an event: its data lines joined by
// newlines, as the SSE standard assembles them. An event with no data
// (a comment, or a stream's first event that only sets an id) has none.
func sseData(event []byte) ([]byte, bool) {
	var data [][]byte
	for _, line := range bytes.Split(event, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if v, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			data = append(data, bytes.TrimPrefix(v, []byte(" ")))
		}
	}
	joined := bytes.Join(data, []byte("\n"))
	return joined, len(bytes.TrimSpace(joined)) > 0
}

func streamName(dir string) phrase {
	if dir == tap.Out {
		return phrase{"the server's stdin", "stdin сервера"}
	}
	return phrase{"the server's stdout", "stdout сервера"}
}

// sideName names the side that sent in direction dir, as the subject of
// a sentence.
func sideName(dir string) phrase {
	if dir == tap.Out {
		return phrase{"host", "хост"}
	}
	return phrase{"server", "сервер"}
}

// sideOf names the side as its requests' owner: "host request",
// "запрос хоста".
func sideOf(dir string) phrase {
	if dir == tap.Out {
		return phrase{"host", "хоста"}
	}
	return phrase{"server", "сервера"}
}

// decodeProblem says why bytes are not a JSON-RPC message: in English
// the message of the error a JSON-RPC peer answers them with; in Russian
// the same, after what its code means.
func decodeProblem(e *jsonrpc.Error) phrase {
	ru := "не сообщение JSON-RPC"
	if e.Code == jsonrpc.CodeParseError {
		ru = "не JSON"
	}
	return phrase{e.Message, fmt.Sprintf("%s (%s)", ru, e.Message)}
}

// quote shows the start of some bytes in a finding.
func quote(b []byte) string {
	const max = 120
	s := string(b)
	if len(s) > max {
		s = s[:max] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// pretty prints JSON with sorted keys and indentation, for diffs.
func pretty(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return strings.TrimSpace(string(b))
}
