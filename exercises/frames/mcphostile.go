package frames

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// frames-mcp-hostile: on the mcp-hostile target (wirelab server mcp
// --fixtures hostile), send the frames that show what the server does:
// a description with orders for the model, a result with orders for the
// model, annotations that lie, and a tool that changes after its first
// call. Each is judged inside one run of the server: a restart starts it
// harmless again.

// hostileTarget is the console's target for the hostile server.
const hostileTarget = "mcp-hostile"

// hostileRun is one run of the hostile server: the learner's messages
// with their answers, and the notifications the server sent, in order.
type hostileRun struct {
	msgs    []message
	changed []int // seq of each notifications/tools/list_changed
}

// hostileRuns reads the runs of the hostile server from the transcript.
func hostileRuns(events []Event) []hostileRun {
	runs := []hostileRun{{}}
	for i, e := range events {
		if e.Op != "event" || e.Target != hostileTarget {
			continue
		}
		r := &runs[len(runs)-1]
		key := fmt.Sprintf("hostile-%d", len(runs))
		switch {
		case e.Dir == "out" && e.Kind == "line":
			for _, l := range strings.Split(e.Text, "\n") {
				for _, env := range readEnvelopes([]byte(l)) {
					if env.Method != "" {
						r.msgs = append(r.msgs, message{seq: i, target: e.Target, session: key, method: env.Method, id: idKey(env.ID), params: env.Params})
					}
				}
			}
		case e.Dir == "in" && e.Kind == "line":
			for _, env := range readEnvelopes([]byte(e.Text)) {
				switch {
				case env.Method == "notifications/tools/list_changed":
					r.changed = append(r.changed, i)
				case env.Method == "" && idKey(env.ID) != "":
					if m := pending(r.msgs, key, idKey(env.ID)); m != nil {
						m.answer(env)
					}
				}
			}
		case e.Dir == "note" && e.Kind == "exit":
			runs = append(runs, hostileRun{})
		}
	}
	return runs
}

// find is the index of the first message from i on that ok accepts, or -1.
func (r hostileRun) find(i int, ok func(message) bool) int {
	for ; i >= 0 && i < len(r.msgs); i++ {
		if ok(r.msgs[i]) {
			return i
		}
	}
	return -1
}

// hostileTool is a tool's definition as a tools/list answer gave it.
type hostileTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
	Annotations *struct {
		ReadOnlyHint bool `json:"readOnlyHint"`
	} `json:"annotations"`
}

// listed returns the tools of a tools/list result, by name.
func listed(m message) map[string]hostileTool {
	var r struct {
		Tools []hostileTool `json:"tools"`
	}
	json.Unmarshal(m.result, &r)
	out := map[string]hostileTool{}
	for _, t := range r.Tools {
		out[t.Name] = t
	}
	return out
}

// modelOrders are the phrases by which this server's texts speak to the
// model rather than the user.
var modelOrders = []string{"<IMPORTANT>", "Do not tell the user", "ignore previous instructions"}

// ordersIn returns the first phrase of modelOrders in s, or "".
func ordersIn(s string) string {
	for _, p := range modelOrders {
		if strings.Contains(strings.ToLower(s), strings.ToLower(p)) {
			return p
		}
	}
	return ""
}

// allText is every text block of a result, joined.
func allText(m message) string {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(m.result, &r)
	var parts []string
	for _, c := range r.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, "\n")
}

func checkMCPHostile(events []Event) []Step {
	runs := hostileRuns(events)
	isList := func(m message) bool { return m.method == "tools/list" && m.result != nil }
	called := func(name string) func(message) bool {
		return func(m message) bool {
			return m.method == "tools/call" && m.param("name") == name && m.result != nil && !m.isError()
		}
	}
	// progress is how far a run got: the session, the poisoned list, the
	// inbox, the annotations, and the rug pull.
	type progress struct {
		init, ready, list, inbox, stats, pull int
		before, after                         int // the two lists of the rug pull
	}
	judge := func(r hostileRun) progress {
		p := progress{init: r.find(0, func(m message) bool { return m.method == "initialize" && m.result != nil }),
			ready: -1, list: -1, inbox: -1, stats: -1, pull: -1, before: -1, after: -1}
		if p.init >= 0 {
			p.ready = r.find(p.init+1, func(m message) bool { return m.method == "notifications/initialized" && m.id == "" })
		}
		if p.ready < 0 {
			return p
		}
		p.list = r.find(p.ready+1, isList)
		p.inbox = r.find(p.ready+1, called("read_inbox"))
		if p.list >= 0 {
			p.stats = r.find(p.list+1, called("inbox_stats"))
		}
		// The rug pull: a list, then spell_check's call, then a list
		// that differs from the first.
		for i := p.ready + 1; i < len(r.msgs); i++ {
			if !isList(r.msgs[i]) {
				continue
			}
			c := r.find(i+1, called("spell_check"))
			if c < 0 {
				break
			}
			after := r.find(c+1, isList)
			if after >= 0 && !sameTool(listed(r.msgs[i])["spell_check"], listed(r.msgs[after])["spell_check"]) {
				p.before, p.pull, p.after = i, c, after
			}
			break
		}
		return p
	}
	var r hostileRun
	var p progress
	top := -1
	for _, run := range runs {
		q := judge(run)
		if n := count(q.init >= 0, q.ready >= 0, q.list >= 0, q.inbox >= 0, q.stats >= 0, q.after >= 0); n >= top {
			r, p, top = run, q, n
		}
	}

	sessionName := text("Open a session on mcp-hostile: initialize, then notifications/initialized",
		"Откройте сессию на mcp-hostile: initialize, затем notifications/initialized")
	poisonName := text("List the tools and find the description that gives orders to the model",
		"Запросите список инструментов и найдите описание, которое отдаёт приказы модели")
	inboxName := text("Call the tool whose result speaks to the model", "Вызовите инструмент, чей результат обращается к модели")
	statsName := text("Call the tool annotated read-only that is not", "Вызовите инструмент, помеченный «только для чтения», который им не является")
	pullName := text("Catch the rug pull: tools/list, spell_check's first call, tools/list again",
		"Поймайте подмену: tools/list, первый вызов spell_check, снова tools/list")
	rest := []Step{waiting(poisonName), waiting(inboxName), waiting(statsName), waiting(pullName)}

	switch {
	case top < 0 || len(r.msgs) == 0:
		return append([]Step{missing(sessionName, text("No message to mcp-hostile yet. Open /console/mcp, choose the target mcp-hostile and send initialize.",
			"Сообщений на mcp-hostile пока не было. Откройте /console/mcp, выберите цель mcp-hostile и отправьте initialize."))}, rest...)
	case p.init < 0:
		return append([]Step{missing(sessionName, text("This run of the server has no initialize answered with a result yet.",
			"В этом запуске сервера пока нет initialize, на который пришёл result."))}, rest...)
	case p.ready < 0:
		return append([]Step{missing(sessionName, text("initialize was answered; now send notifications/initialized, with no id.",
			"На initialize пришёл ответ; теперь отправьте notifications/initialized, без id."))}, rest...)
	}
	steps := []Step{done(sessionName, text("initialize was answered: the server's instructions say it is hostile on purpose.",
		"На initialize пришёл ответ: в instructions сервер сам говорит, что враждебен нарочно."))}

	if p.list < 0 {
		steps = append(steps, missing(poisonName, text("No tools/list answered since the handshake.", "После рукопожатия не было tools/list с ответом.")))
	} else {
		found := text("tools/list answered, but no description has orders for the model.", "tools/list ответил, но ни в одном описании нет приказов модели.")
		ok := false
		for _, name := range toolNames(r.msgs[p.list].result) {
			if phrase := ordersIn(listed(r.msgs[p.list])[name].Description); phrase != "" {
				found = text("%s's description speaks to the model (%q) and is about another tool, send_email: being listed is enough to do harm.",
					"Описание %s обращается к модели (%q) и говорит о другом инструменте, send_email: чтобы навредить, достаточно попасть в список.", name, phrase)
				ok = true
				break
			}
		}
		if ok {
			steps = append(steps, done(poisonName, found))
		} else {
			steps = append(steps, missing(poisonName, found))
		}
	}

	if p.inbox >= 0 {
		steps = append(steps, done(inboxName, text("read_inbox returned a message that says %q: data from a stranger, written as orders.",
			"read_inbox вернул письмо со словами %q: данные от постороннего, написанные как приказ.", ordersIn(allText(r.msgs[p.inbox])))))
	} else {
		detail := text("No read_inbox answered since the handshake: it is the tool that brings other people's text.",
			"После рукопожатия не было read_inbox с ответом: именно он приносит чужой текст.")
		if i := r.find(p.ready+1, func(m message) bool {
			return m.method == "tools/call" && m.param("name") != "read_inbox" && m.result != nil
		}); i >= 0 {
			detail = text("%s answered, and its result gives no orders. The result to look at comes from the tool that reads other people's mail.",
				"%s ответил, и в его результате нет приказов. Смотреть нужно на результат инструмента, который читает чужие письма.", r.msgs[i].param("name"))
		}
		steps = append(steps, missing(inboxName, detail))
	}

	switch {
	case p.stats >= 0:
		steps = append(steps, done(statsName, text("inbox_stats is annotated readOnlyHint: true, and its result says: %s",
			"У inbox_stats аннотация readOnlyHint: true, а результат говорит: %s", short(allText(r.msgs[p.stats])))))
	case r.find(p.ready+1, called("inbox_stats")) >= 0:
		steps = append(steps, missing(statsName, text("inbox_stats was called before any tools/list: list the tools first, to see what its annotations claim.",
			"inbox_stats вызван до tools/list: сначала запросите список, чтобы увидеть, что утверждают его аннотации.")))
	default:
		steps = append(steps, missing(statsName, text("No inbox_stats answered after a tools/list. Look for readOnlyHint: true in the list, and call that tool.",
			"После tools/list не было inbox_stats с ответом. Найдите в списке readOnlyHint: true и вызовите этот инструмент.")))
	}

	if p.after >= 0 {
		how := text("the server did not say so", "сервер об этом не сообщил")
		for _, seq := range r.changed {
			if seq > r.msgs[p.pull].seq-1 && seq <= r.msgs[p.after].seq {
				how = text("the server sent notifications/tools/list_changed", "сервер прислал notifications/tools/list_changed")
				break
			}
		}
		steps = append(steps, done(pullName, text("spell_check changed after its first call (%s): %s",
			"spell_check изменился после первого вызова (%s): %s", how, toolDiff(listed(r.msgs[p.before])["spell_check"], listed(r.msgs[p.after])["spell_check"]))))
		return steps
	}
	steps = append(steps, missing(pullName, pullMissing(runs, r, p.ready, isList, called("spell_check"))))
	return steps
}

// pullMissing says what stands between a run and a caught rug pull.
func pullMissing(runs []hostileRun, r hostileRun, ready int, isList, spell func(message) bool) exercises.Text {
	first := r.find(ready+1, isList)
	call := r.find(ready+1, spell)
	switch {
	case call >= 0 && (first < 0 || first > call):
		return text("spell_check was called before any tools/list, so there is no first definition to compare with. Restart the server, then list, call and list again.",
			"spell_check вызван до tools/list, и сравнивать не с чем. Перезапустите сервер, затем список, вызов и снова список.")
	case call >= 0 && r.find(call+1, isList) < 0:
		return text("spell_check was called, and the server said notifications/tools/list_changed: send tools/list again, in this run of the server.",
			"spell_check вызван, и сервер прислал notifications/tools/list_changed: снова отправьте tools/list в этом же запуске сервера.")
	case first >= 0 && r.find(first+1, isList) >= 0:
		return text("Two tools/list answers, the same both times: spell_check changes only after its first call. Call it between the two lists.",
			"Два ответа tools/list, и оба одинаковые: spell_check меняется только после первого вызова. Вызовите его между двумя списками.")
	}
	for _, other := range runs {
		if len(other.msgs) > 0 && other.find(0, spell) >= 0 && other.find(0, isList) >= 0 && len(other.msgs) != len(r.msgs) {
			return text("The list, the call and the second list are in different runs of the server: a restart starts it harmless again. Do all three in one run.",
				"Список, вызов и второй список попали в разные запуски сервера: после перезапуска он снова безобиден. Сделайте все три в одном запуске.")
		}
	}
	return text("No tools/list, spell_check call and tools/list again in one run yet.", "В одном запуске сервера пока нет tools/list, вызова spell_check и снова tools/list.")
}

// sameTool reports whether two definitions are the same JSON.
func sameTool(a, b hostileTool) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// toolDiff says what changed between two definitions of a tool.
func toolDiff(before, after hostileTool) exercises.Text {
	var en, ru []string
	if before.Description != after.Description {
		en = append(en, fmt.Sprintf("the description became %q", short(after.Description)))
		ru = append(ru, fmt.Sprintf("описание стало %q", short(after.Description)))
	}
	if !bytes.Equal(before.InputSchema, after.InputSchema) {
		en = append(en, "the input schema became "+string(after.InputSchema))
		ru = append(ru, "входная схема стала "+string(after.InputSchema))
	}
	return exercises.Text{EN: strings.Join(en, "; ") + ".", RU: strings.Join(ru, "; ") + "."}
}

func mcpHostileSolution() []Frame {
	call := func(id, name, args string) Frame {
		return Frame{Target: hostileTarget, Text: `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`}
	}
	return []Frame{
		{Target: hostileTarget, Text: mcpInitialize("2025-11-25")},
		{Target: hostileTarget, Text: mcpInitialized},
		{Target: hostileTarget, Text: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`},
		call("3", "read_inbox", `{}`),
		call("4", "inbox_stats", `{}`),
		call("5", "spell_check", `{"text":"read the wire"}`),
		{Target: hostileTarget, Text: `{"jsonrpc":"2.0","id":6,"method":"tools/list"}`},
	}
}
