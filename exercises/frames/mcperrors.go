package frames

import "encoding/json"

// frames-mcp-errors: a tool that ran and failed answers with a result
// whose isError is true, for the model to read; a request that is itself
// wrong (an unknown tool, an unknown method) answers with a JSON-RPC
// error and no result. Both come after the handshake, in either order.

func checkMCPErrors(events []Event) []Step {
	ss := sessions(events)
	afterReady := func(s session, ok func(message) bool) int {
		if s.ready < 0 {
			return -1
		}
		return s.find(s.ready+1, ok)
	}
	toolError := func(m message) bool { return m.method == "tools/call" && m.result != nil && m.isError() }
	protocolError := func(m message) bool { return m.id != "" && m.err != nil }
	s, found := best(ss, func(s session) int {
		return count(s.init >= 0, s.ready >= 0, afterReady(s, toolError) >= 0, afterReady(s, protocolError) >= 0)
	})
	first, second := readiness(s, found, mcpMessages(events))
	session := done(text("Open a session: initialize, then notifications/initialized", "Откройте сессию: initialize, затем notifications/initialized"),
		text("%s %s", "%s %s", first.Detail, second.Detail))
	if !first.Done {
		session = missing(session.Name, first.Detail)
	} else if !second.Done {
		session = missing(session.Name, second.Detail)
	}
	toolName := text("Call a tool that fails: a result with isError: true", "Вызовите инструмент, который падает: result с isError: true")
	protoName := text("Send a request the server cannot serve, such as a tools/call of a tool that does not exist: a JSON-RPC error, no result",
		"Отправьте запрос, который сервер не может выполнить, например tools/call несуществующего инструмента: ошибка JSON-RPC, без result")
	if !session.Done {
		return []Step{session, waiting(toolName), waiting(protoName)}
	}
	steps := []Step{session}

	if i := afterReady(s, toolError); i >= 0 {
		steps = append(steps, done(toolName, text("tools/call of %q was answered with a result with isError: true; its content is the reason: %s",
			"На tools/call для %q пришёл result с isError: true; причина — в его content: %s", s.msgs[i].param("name"), short(contentText(s.msgs[i])))))
	} else {
		detail := text("No tools/call in the session since the handshake.", "После рукопожатия в сессии не было tools/call.")
		for _, m := range s.msgs[s.ready+1:] {
			switch {
			case m.method != "tools/call":
			case m.err != nil:
				detail = text("tools/call of %q got a JSON-RPC error: that is the protocol error of the next step. A tool error comes as a result: call a tool that exists and fails.",
					"tools/call для %q получил ошибку JSON-RPC: это ошибка протокола из следующего шага. Ошибка инструмента приходит как result: вызовите существующий инструмент, который падает.", m.param("name"))
			case m.result != nil:
				detail = text("tools/call of %q succeeded. Call a tool that fails: the weather tool always does.",
					"tools/call для %q прошёл успешно. Вызовите инструмент, который падает: weather падает всегда.", m.param("name"))
			}
		}
		steps = append(steps, missing(toolName, detail))
	}

	if i := afterReady(s, protocolError); i >= 0 {
		m := s.msgs[i]
		steps = append(steps, done(protoName, text("%s got %s: the request itself was wrong, and no tool ran.",
			"Ответ на %s: %s. Неправилен сам запрос, и никакой инструмент не запускался.", m.method, m.describe())))
	} else {
		detail := text("Every request since the handshake was answered with a result. A JSON-RPC error has an error member and no result: call a tool the server does not have.",
			"На все запросы после рукопожатия пришёл result. У ошибки JSON-RPC есть поле error и нет result: вызовите инструмент, которого у сервера нет.")
		for _, m := range s.msgs[s.ready+1:] {
			if m.method == "tools/call" && m.isError() {
				detail = text("tools/call of %q came back as a result with isError: true: the tool ran and refused, which is a tool error too. A protocol error means the request itself is wrong: call a tool that does not exist.",
					"tools/call для %q вернулся как result с isError: true: инструмент запустился и отказал, это тоже ошибка инструмента. Ошибка протокола означает, что неправилен сам запрос: вызовите несуществующий инструмент.", m.param("name"))
			}
		}
		steps = append(steps, missing(protoName, detail))
	}
	return steps
}

// contentText is the text of a result's first text content block.
func contentText(m message) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(m.result, &r) == nil {
		for _, c := range r.Content {
			if c.Type == "text" {
				return c.Text
			}
		}
	}
	return string(m.result)
}

func mcpErrorsSolution() []Frame {
	return []Frame{
		{Target: "mcp-stdio", Text: mcpInitialize("2025-11-25")},
		{Target: "mcp-stdio", Text: mcpInitialized},
		{Target: "mcp-stdio", Text: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"weather","arguments":{"city":"Lisbon"}}}`},
		{Target: "mcp-stdio", Text: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope","arguments":{}}}`},
	}
}
