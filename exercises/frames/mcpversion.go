package frames

// frames-mcp-version: initialize asks for a revision; a server that does
// not speak it answers with one it does, instead of refusing, and the
// client decides whether to go on.

func checkMCPVersion(events []Event) []Step {
	ss := sessions(events)
	// offered finds an initialize whose answer names another revision
	// than the one asked for.
	offered := func(s session) int {
		return s.find(0, func(m message) bool {
			return m.method == "initialize" && m.result != nil && m.resultString("protocolVersion") != m.param("protocolVersion")
		})
	}
	s, found := best(ss, func(s session) int {
		i := offered(s)
		return count(i >= 0, i >= 0 && s.ready > i)
	})
	askName := text("Send initialize with a protocolVersion the server does not speak: it answers with one it does",
		"Отправьте initialize с protocolVersion, которую сервер не знает: он ответит той, которую знает")
	goName := text("Go on in that session with notifications/initialized", "Продолжите в этой сессии: notifications/initialized")
	if !found {
		return []Step{missing(askName, text("No MCP message yet. Open /console/mcp and send initialize to mcp-stdio or mcp-http.",
			"MCP-сообщений пока не было. Откройте /console/mcp и отправьте initialize на mcp-stdio или mcp-http.")), waiting(goName)}
	}
	i := offered(s)
	if i < 0 {
		detail := text("No initialize yet in this session.", "В этой сессии ещё не было initialize.")
		for _, m := range s.msgs {
			switch {
			case m.method != "initialize":
			case m.result != nil:
				detail = text("You asked for %s and the server echoed it: it speaks that revision. Ask for one it cannot know, from the future.",
					"Вы попросили %s, и сервер вернул её же: эту редакцию он знает. Попросите такую, которую он знать не может, из будущего.", m.param("protocolVersion"))
			default:
				detail = text("initialize got %s. A session takes one initialize: restart the server (mcp-stdio) or open a new session (mcp-http, without Mcp-Session-Id).",
					"Ответ на initialize: %s. В сессии бывает только один initialize: перезапустите сервер (mcp-stdio) или откройте новую сессию (mcp-http, без Mcp-Session-Id).", m.describe())
			}
		}
		return []Step{missing(askName, detail), waiting(goName)}
	}
	m := s.msgs[i]
	steps := []Step{done(askName, text("You asked for %s; the server did not refuse but answered with %s, a revision it speaks. Going on is the client's decision.",
		"Вы попросили %s; сервер не отказал, а ответил %s — редакцией, которую знает. Продолжать ли, решает клиент.", m.param("protocolVersion"), m.resultString("protocolVersion")))}
	if s.ready > i {
		return append(steps, done(goName, text("notifications/initialized followed: the session runs on %s.",
			"Следом ушло notifications/initialized: сессия работает на %s.", m.resultString("protocolVersion"))))
	}
	_, ready := readiness(s, true, mcpMessages(events))
	detail := ready.Detail
	for _, n := range s.msgs[i+1:] {
		if n.method == "notifications/initialized" && n.status >= 400 {
			detail = text("notifications/initialized got HTTP %d. Over HTTP, every request after initialize names the agreed revision in MCP-Protocol-Version: %s, not the one you asked for.",
				"notifications/initialized получило HTTP %d. По HTTP каждый запрос после initialize называет согласованную редакцию в MCP-Protocol-Version: %s, а не ту, что вы просили.", n.status, m.resultString("protocolVersion"))
		}
	}
	return append(steps, missing(goName, detail))
}

func mcpVersionSolution() []Frame {
	return []Frame{
		{Target: "mcp-stdio", Text: mcpInitialize("2099-01-01")},
		{Target: "mcp-stdio", Text: mcpInitialized},
	}
}
