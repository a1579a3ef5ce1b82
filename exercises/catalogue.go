package exercises

import "strings"

// Kind says where an exercise is done and how it is graded.
type Kind string

// The two kinds of exercise.
const (
	// Code exercises are Go programs written in the learner's editor,
	// started from exercises/<id>/ and graded by package grade.
	Code Kind = "code"
	// Frame exercises are done by typing messages in the playground's wire
	// console, and graded from the session's transcript.
	Frame Kind = "frame"
)

// Text is a sentence in each language the course is written in.
type Text struct {
	EN string `json:"en"`
	RU string `json:"ru"`
}

// In returns the text in lang ("en" or "ru"); any other language gets
// English.
func (t Text) In(lang string) string {
	if lang == "ru" && t.RU != "" {
		return t.RU
	}
	return t.EN
}

// Hints are an exercise's hints in each language, shown one at a time:
// the first says where to look, the last all but gives the answer.
// Both lists have the same length, hint i in one translating hint i in
// the other.
type Hints struct {
	EN []string `json:"en"`
	RU []string `json:"ru"`
}

// In returns the hints in lang ("en" or "ru"); any other language gets
// English.
func (h Hints) In(lang string) []string {
	if lang == "ru" && len(h.RU) > 0 {
		return h.RU
	}
	return h.EN
}

// Exercise is one graded exercise.
type Exercise struct {
	// ID names the exercise everywhere: its folders exercises/<id>/ and
	// solutions/<id>/, `wirelab grade <id>`, the progress file. IDs are
	// final once published, since learners' progress refers to them.
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	// Lesson is the slug of the chapter the exercise belongs to: stdio,
	// http, grpc, versions, mcp-by-hand, mcp-clients, mcp-stateless,
	// mcp-authorization, debugging-a-real-host, mcp-security or a2a.
	Lesson string `json:"lesson"`
	Title  Text   `json:"title"`
	Hints  Hints  `json:"hints"`
}

// List returns every exercise in the order the course meets them: by
// lesson, code exercises after the frame exercises that prepare them.
func List() []Exercise {
	return []Exercise{
		{
			ID: "frames-stdio-errors", Kind: Frame, Lesson: "stdio",
			Title: Text{
				EN: "Break the stdio server on purpose",
				RU: "Сломайте stdio-сервер нарочно",
			},
			Hints: Hints{
				EN: []string{
					"Type a line that is not JSON at all, such as hello: the server still answers it, with a parse_error.",
					`Now send valid JSON with the key "Name" instead of "name": this is what a Go struct without JSON tags puts on the wire.`,
					"Finish with a correct word_count call: the server kept serving after every bad line.",
				},
				RU: []string{
					"Введите строку, которая вообще не JSON, например hello: сервер всё равно ответит на неё, ошибкой parse_error.",
					`Теперь отправьте корректный JSON с ключом "Name" вместо "name": именно это выдаёт в провод структура Go без JSON-тегов.`,
					"Закончите правильным вызовом word_count: после каждой плохой строки сервер продолжал работать.",
				},
			},
		},
		{
			ID: "stdio-server", Kind: Code, Lesson: "stdio",
			Title: Text{
				EN: "A stdio tool server",
				RU: "Сервер инструментов на stdio",
			},
			Hints: Hints{
				EN: []string{
					`Read stdin line by line and answer every line with exactly one line on stdout; everything else you print (logs, "ready") goes to stderr.`,
					"Keep the request's id as a json.RawMessage and put it back unchanged: the grader sends numbers, strings, and a number too big for a float64.",
					"bufio.Scanner stops at a line over 64 KiB. Give it a bigger buffer with scanner.Buffer, or read with bufio.Reader's ReadBytes('\\n').",
				},
				RU: []string{
					"Читайте stdin построчно и на каждую строку отвечайте ровно одной строкой в stdout; всё остальное (логи, «ready») пишите в stderr.",
					"Храните id запроса как json.RawMessage и возвращайте его без изменений: грейдер шлёт числа, строки и число, которое не помещается во float64.",
					"bufio.Scanner останавливается на строке длиннее 64 КиБ. Дайте ему буфер побольше через scanner.Buffer или читайте методом ReadBytes('\\n') у bufio.Reader.",
				},
			},
		},
		{
			ID: "stdio-client", Kind: Code, Lesson: "stdio",
			Title: Text{
				EN: "A stdio client: one server, many calls",
				RU: "Клиент stdio: один сервер, много вызовов",
			},
			Hints: Hints{
				EN: []string{
					"Start the server once with exec.Command, keep its StdinPipe and StdoutPipe, and write every call to that stdin, one JSON line each, with an id of its own.",
					"Write the calls from a goroutine while the main one reads answers with bufio.Reader's ReadBytes('\\n') (no 64 KiB limit), and put each result at the index its id names.",
					"When every answer is in, close the server's stdin, then cmd.Wait(): the server exits at the end of its input, and waiting for it leaves no orphan.",
				},
				RU: []string{
					"Запустите сервер один раз через exec.Command, сохраните его StdinPipe и StdoutPipe и пишите все вызовы в этот stdin, каждый строкой JSON со своим id.",
					"Пишите вызовы из горутины, пока основная читает ответы через ReadBytes('\\n') у bufio.Reader (без предела в 64 КиБ), и кладите каждый результат по индексу, который называет его id.",
					"Когда все ответы получены, закройте stdin сервера, затем cmd.Wait(): сервер завершается в конце своего ввода, и ожидание не оставляет сироту.",
				},
			},
		},
		{
			ID: "frames-http-auth", Kind: Frame, Lesson: "http",
			Title: Text{
				EN: "Refused, forbidden, allowed: 401, 403, 200",
				RU: "Отказ, запрет, успех: 401, 403, 200",
			},
			Hints: Hints{
				EN: []string{
					"Send the call without an Authorization header first: the server answers 401 and says in WWW-Authenticate how to authenticate.",
					"A valid token without the deploy:production scope, deploying to production, gets 403 insufficient_scope: the server knows who you are, but you may not do this.",
					"Use the token that carries the scope, and the same call succeeds with 200.",
				},
				RU: []string{
					"Сначала отправьте вызов без заголовка Authorization: сервер ответит 401 и в WWW-Authenticate скажет, как аутентифицироваться.",
					"Действительный токен без scope deploy:production при деплое в production получит 403 insufficient_scope: сервер знает, кто вы, но это вам нельзя.",
					"Возьмите токен с этим scope, и тот же вызов пройдёт с ответом 200.",
				},
			},
		},
		{
			ID: "http-server", Kind: Code, Lesson: "http",
			Title: Text{
				EN: "An HTTP tool server with bearer tokens",
				RU: "HTTP-сервер инструментов с bearer-токенами",
			},
			Hints: Hints{
				EN: []string{
					"A call is a POST with a JSON body; answer any other method with 405 and an Allow: POST header.",
					`No Authorization header, no "Bearer " prefix, or an unknown token: 401 with a WWW-Authenticate header. 403 is only for a valid token that lacks the scope the call needs.`,
					"Check the token before decoding the body, and set Content-Type: application/json before WriteHeader: headers set after it are lost.",
				},
				RU: []string{
					"Вызов — это POST с JSON в теле; на любой другой метод отвечайте 405 с заголовком Allow: POST.",
					`Нет заголовка Authorization, нет префикса "Bearer " или токен неизвестен — это 401 с заголовком WWW-Authenticate. 403 — только для действительного токена без scope, нужного вызову.`,
					"Проверяйте токен до разбора тела и ставьте Content-Type: application/json до WriteHeader: заголовки, выставленные после него, теряются.",
				},
			},
		},
		{
			ID: "fix-bad-token-401", Kind: Code, Lesson: "http",
			Title: Text{
				EN: "Fix it: 401 for a token nobody knows",
				RU: "Исправьте: 401 для токена, которого никто не знает",
			},
			Hints: Hints{
				EN: []string{
					"Three callers reach the switch in deploy: no token, a token the server does not know, and a known token without the deploy scope. Which status does each one get?",
					"401 means the server does not know the caller, whatever the reason: no token or an unknown one. 403 is only for a known caller who lacks a permission. Answer the unknown token with 401 and its WWW-Authenticate challenge.",
				},
				RU: []string{
					"В switch функции deploy попадают три вызывающих: без токена, с токеном, которого сервер не знает, и с известным токеном без scope deploy. Какой статус получает каждый?",
					"401 значит, что сервер не знает вызывающего, по какой бы причине ни было: нет токена или токен незнаком. 403 — только для известного вызывающего, которому не хватает права. Отвечайте на незнакомый токен 401 с вызовом WWW-Authenticate.",
				},
			},
		},
		{
			ID: "fix-unchecked-status", Kind: Code, Lesson: "http",
			Title: Text{
				EN: "Fix it: the answer that was not a result",
				RU: "Исправьте: ответ, который не был результатом",
			},
			Hints: Hints{
				EN: []string{
					"Follow a 401 through run: its body is JSON, so json.Unmarshal succeeds, and the struct keeps its zero values. What should have stopped it before the decoding?",
					"Check resp.StatusCode before decoding: anything but 200 is an error to return, with the status and the body, so that main prints it on stderr and exits 1.",
				},
				RU: []string{
					"Проследите за ответом 401 в run: его тело — JSON, поэтому json.Unmarshal проходит, а в структуре остаются нули. Что должно было остановить его до разбора?",
					"Проверяйте resp.StatusCode до разбора: всё, кроме 200, — это ошибка, которую нужно вернуть со статусом и телом, чтобы main напечатала её в stderr и завершилась с кодом 1.",
				},
			},
		},
		{
			ID: "frames-grpc-deadline", Kind: Frame, Lesson: "grpc-production",
			Title: Text{
				EN: "Run out of time: DEADLINE_EXCEEDED",
				RU: "Не уложиться в срок: DEADLINE_EXCEEDED",
			},
			Hints: Hints{
				EN: []string{
					"Call the slow deploy_service tool with a deadline shorter than the deploy takes; the deadline travels in the grpc-timeout header.",
					"No response message comes back: the status is in the trailers, grpc-status 4 and grpc-message.",
					"Call again with a longer deadline and compare the two exchanges frame by frame.",
				},
				RU: []string{
					"Вызовите медленный инструмент deploy_service с дедлайном короче, чем длится деплой; дедлайн передаётся в заголовке grpc-timeout.",
					"Ответного сообщения нет: статус приходит в трейлерах, grpc-status 4 и grpc-message.",
					"Повторите вызов с дедлайном подлиннее и сравните два обмена кадр за кадром.",
				},
			},
		},
		{
			ID: "grpc-server", Kind: Code, Lesson: "grpc-production",
			Title: Text{
				EN: "A gRPC server with deadlines and metadata auth",
				RU: "gRPC-сервер с дедлайнами и авторизацией через метаданные",
			},
			Hints: Hints{
				EN: []string{
					`Read the token from the incoming metadata (metadata.FromIncomingContext, key "authorization") and answer codes.Unauthenticated when it is missing or wrong.`,
					"Pass the handler's ctx to every slow step and stop when ctx.Done() fires: the client's deadline arrives as grpc-timeout and becomes that context's deadline.",
					"Return status errors (status.Error(codes.X, msg)), not plain ones: a plain error reaches the client as UNKNOWN.",
				},
				RU: []string{
					`Берите токен из входящих метаданных (metadata.FromIncomingContext, ключ "authorization") и отвечайте codes.Unauthenticated, если его нет или он неверный.`,
					"Передавайте ctx обработчика в каждый медленный шаг и останавливайтесь по ctx.Done(): дедлайн клиента приходит в grpc-timeout и становится дедлайном этого контекста.",
					"Возвращайте ошибки со статусом (status.Error(codes.X, msg)), а не обычные: обычная ошибка дойдёт до клиента как UNKNOWN.",
				},
			},
		},
		{
			ID: "schema-versions", Kind: Code, Lesson: "versions",
			Title: Text{
				EN: "Tool versions and compatibility",
				RU: "Версии инструментов и совместимость",
			},
			Hints: Hints{
				EN: []string{
					"A call names the version it expects. Serve it when that is the tool's current version or one in its list of compatible versions.",
					`Refuse any other version with an "incompatible version" error that lists the versions you do serve, so that the caller can choose one.`,
					`A call without a version gets the current one. Compare versions as whole strings: "1.0" and "1" are different versions.`,
				},
				RU: []string{
					"Вызов называет версию, которую ожидает. Обслуживайте его, если это текущая версия инструмента или одна из списка совместимых.",
					"Любую другую версию отклоняйте ошибкой «incompatible version» со списком версий, которые вы обслуживаете, чтобы вызывающий мог выбрать.",
					`Вызов без версии получает текущую. Сравнивайте версии как строки целиком: "1.0" и "1" — разные версии.`,
				},
			},
		},
		{
			ID: "fix-parse-error", Kind: Code, Lesson: "mcp",
			Title: Text{
				EN: "Fix it: the line that got no answer",
				RU: "Исправьте: строка, которая осталась без ответа",
			},
			Hints: Hints{
				EN: []string{
					"Look at what answer returns when json.Unmarshal fails with a *json.SyntaxError: false means that nothing is written.",
					`Return a response instead: "jsonrpc":"2.0", "id": null (the id could not be read) and an error with code -32700. The response struct already writes a null id when you give it json.RawMessage("null").`,
				},
				RU: []string{
					"Посмотрите, что возвращает answer, когда json.Unmarshal падает с *json.SyntaxError: false значит, что ничего не пишется.",
					`Верните вместо этого ответ: "jsonrpc":"2.0", "id": null (id прочитать не удалось) и ошибку с кодом -32700. Структура response уже пишет id null, если дать ей json.RawMessage("null").`,
				},
			},
		},
		{
			ID: "frames-mcp-handshake", Kind: Frame, Lesson: "mcp-by-hand",
			Title: Text{
				EN: "The MCP handshake by hand",
				RU: "Рукопожатие MCP вручную",
			},
			Hints: Hints{
				EN: []string{
					`Start with initialize: jsonrpc "2.0", an id, and params with protocolVersion, capabilities and clientInfo.`,
					"Then send notifications/initialized. It has no id, so no answer comes back: that is correct.",
					"Now tools/list, and a tools/call of word_count, each with an id of its own.",
				},
				RU: []string{
					`Начните с initialize: jsonrpc "2.0", id и params с protocolVersion, capabilities и clientInfo.`,
					"Затем отправьте notifications/initialized. У него нет id, поэтому ответа не будет — так и должно быть.",
					"Теперь tools/list и tools/call для word_count, у каждого свой id.",
				},
			},
		},
		{
			ID: "frames-mcp-errors", Kind: Frame, Lesson: "mcp-by-hand",
			Title: Text{
				EN: "A tool error and a protocol error, side by side",
				RU: "Ошибка инструмента и ошибка протокола рядом",
			},
			Hints: Hints{
				EN: []string{
					"Call the weather tool: it always fails, and the failure comes back as a result with isError: true.",
					"Call a tool that does not exist: that is a JSON-RPC error, -32602, and there is no result at all.",
					"Compare the two answers: which one should a host show the model, and which one means the client has a bug?",
				},
				RU: []string{
					"Вызовите инструмент weather: он всегда падает, и сбой возвращается как result с isError: true.",
					"Вызовите несуществующий инструмент: это ошибка JSON-RPC, -32602, и никакого result.",
					"Сравните два ответа: какой хост должен показать модели, а какой означает ошибку в клиенте?",
				},
			},
		},
		{
			ID: "frames-mcp-version", Kind: Frame, Lesson: "mcp-by-hand",
			Title: Text{
				EN: "Ask for a protocol version the server does not speak",
				RU: "Попросите версию протокола, которую сервер не знает",
			},
			Hints: Hints{
				EN: []string{
					`Send initialize with a protocolVersion from the future, such as "2099-01-01".`,
					"The server does not refuse: it answers with a version it does speak. Look at result.protocolVersion.",
					"Whether to go on with that version is the client's decision; here, go on with notifications/initialized.",
				},
				RU: []string{
					`Отправьте initialize с protocolVersion из будущего, например "2099-01-01".`,
					"Сервер не отказывает: он отвечает версией, которую знает сам. Посмотрите на result.protocolVersion.",
					"Продолжать ли с этой версией, решает клиент; здесь продолжайте с notifications/initialized.",
				},
			},
		},
		{
			ID: "mcp-server", Kind: Code, Lesson: "mcp-by-hand",
			Title: Text{
				EN: "An MCP server over stdio, by hand",
				RU: "MCP-сервер на stdio вручную",
			},
			Hints: Hints{
				EN: []string{
					"Every message is one JSON-RPC object on one line. A message without an id is a notification: never answer it, not even with an error.",
					"initialize echoes the client's protocolVersion when you speak it, and otherwise answers with your latest. Until initialize, answer other requests with an error instead of running them.",
					"A tool that fails or gets bad arguments still returns a result, with isError: true and the reason as text. JSON-RPC errors (-32700, -32601, -32602) are for requests that are themselves wrong.",
				},
				RU: []string{
					"Каждое сообщение — один объект JSON-RPC на одной строке. Сообщение без id — уведомление: на него никогда не отвечают, даже ошибкой.",
					"initialize возвращает protocolVersion клиента, если вы её знаете, а иначе — вашу последнюю. До initialize отвечайте на остальные запросы ошибкой, не выполняя их.",
					"Инструмент, который упал или получил плохие аргументы, всё равно возвращает result — с isError: true и причиной текстом. Ошибки JSON-RPC (-32700, -32601, -32602) — для запросов, которые неправильны сами по себе.",
				},
			},
		},
		{
			ID: "mcp-client", Kind: Code, Lesson: "mcp-clients",
			Title: Text{
				EN: "An MCP client that reads results correctly",
				RU: "MCP-клиент, который правильно читает результаты",
			},
			Hints: Hints{
				EN: []string{
					"After the answer to initialize, send notifications/initialized before anything else: some servers refuse tools/call until it arrives.",
					"The tool's output is in response.result.content, a list of blocks: print the text of its text blocks, not the whole response.",
					"Check result.isError before printing: such a result is the tool saying it failed, so report the failure and exit with a non-zero status.",
				},
				RU: []string{
					"После ответа на initialize первым делом отправьте notifications/initialized: некоторые серверы отказывают в tools/call, пока его не получат.",
					"Результат инструмента лежит в response.result.content, это список блоков: печатайте текст текстовых блоков, а не весь ответ.",
					"Проверяйте result.isError перед выводом: такой результат означает, что инструмент не справился, — сообщите об этом и завершитесь с ненулевым кодом.",
				},
			},
		},
		{
			ID: "fix-initialized", Kind: Code, Lesson: "mcp-clients",
			Title: Text{
				EN: "Fix it: the notification nobody sent",
				RU: "Исправьте: уведомление, которое никто не отправил",
			},
			Hints: Hints{
				EN: []string{
					"Read run from the top and count the messages the client writes before tools/list. How many does the lifecycle say open a session?",
					`After the answer to initialize, send notifications/initialized: a notification, with no "id" at all. The session already has a method that sends one.`,
				},
				RU: []string{
					"Прочитайте run сверху и сосчитайте сообщения, которые клиент пишет до tools/list. Сколькими сообщениями, по правилам жизненного цикла, открывается сессия?",
					`После ответа на initialize отправьте notifications/initialized — уведомление, без поля "id" вообще. У session уже есть метод, который его отправляет.`,
				},
			},
		},
		{
			ID: "fix-is-error", Kind: Code, Lesson: "mcp-clients",
			Title: Text{
				EN: "Fix it: the failure printed as an answer",
				RU: "Исправьте: неудача, напечатанная как ответ",
			},
			Hints: Hints{
				EN: []string{
					`Follow the weather call through run: the server answers with a normal result, with "isError": true beside its content. What does the program do with that field?`,
					"Check res.IsError before printing: the text of a failed tool goes on stderr, and the program exits with exitToolError (1).",
				},
				RU: []string{
					`Проследите вызов weather в run: сервер отвечает обычным результатом, где рядом с content стоит "isError": true. Что программа делает с этим полем?`,
					"Проверяйте res.IsError до печати: текст неудавшегося инструмента идёт в stderr, а программа завершается с кодом exitToolError (1).",
				},
			},
		},
		{
			ID: "fix-session-404", Kind: Code, Lesson: "mcp-transports",
			Title: Text{
				EN: "Fix it: 400 or 404 for a session",
				RU: "Исправьте: 400 или 404 для сессии",
			},
			Hints: Hints{
				EN: []string{
					"All the session rules are in one function, session: it answers a request whose Mcp-Session-Id is missing, and one whose id the server does not know. Do they get different statuses?",
					"No header is 400 Bad Request; an id the server does not know is 404 Not Found, the status that tells a client to start a new session with initialize.",
				},
				RU: []string{
					"Все правила сессии — в одной функции, session: она отвечает на запрос без Mcp-Session-Id и на запрос с id, которого сервер не знает. Разные ли у них статусы?",
					"Нет заголовка — 400 Bad Request; id, которого сервер не знает, — 404 Not Found, статус, который велит клиенту начать новую сессию с initialize.",
				},
			},
		},
		{
			ID: "frames-mcp-stateless", Kind: Frame, Lesson: "mcp-stateless",
			Title: Text{
				EN: "One request, no session",
				RU: "Один запрос, без сессии",
			},
			Hints: Hints{
				EN: []string{
					`Send no initialize. Put the revision in the request itself: params._meta with "io.modelcontextprotocol/protocolVersion": "2026-07-28" and "io.modelcontextprotocol/clientCapabilities": {}.`,
					"server/discover takes the same _meta and nothing else; its result lists supportedVersions. Every 2026-07-28 result says \"resultType\": \"complete\".",
					`For the refusal, leave clientCapabilities out of the _meta (-32602), or ask for a revision the server does not serve, such as "2099-01-01" (-32022, with the supported ones in error.data).`,
				},
				RU: []string{
					`Не отправляйте initialize. Укажите редакцию в самом запросе: params._meta с "io.modelcontextprotocol/protocolVersion": "2026-07-28" и "io.modelcontextprotocol/clientCapabilities": {}.`,
					"server/discover принимает тот же _meta и больше ничего; в его результате есть список supportedVersions. Каждый результат 2026-07-28 сообщает \"resultType\": \"complete\".",
					`Для отказа уберите clientCapabilities из _meta (-32602) или попросите редакцию, которую сервер не обслуживает, например "2099-01-01" (-32022, поддерживаемые перечислены в error.data).`,
				},
			},
		},
		{
			ID: "mcp-dual", Kind: Code, Lesson: "mcp-stateless",
			Title: Text{
				EN: "A server for both eras",
				RU: "Сервер для обеих эпох",
			},
			Hints: Hints{
				EN: []string{
					"Decide the era per request, before anything else: params._meta with an io.modelcontextprotocol/ key (and server/discover) means 2026-07-28; no such _meta means the 2025-11-25 session. Notifications are never answered, in either era.",
					"A 2026-07-28 request is checked on its own: no protocolVersion or no clientCapabilities is -32602; a revision you do not serve is -32022 with data {supported, requested}. Only then run it, and add \"resultType\": \"complete\" to its result.",
					"Keep the session's state for the legacy era alone: a 2026-07-28 request neither needs initialize nor marks the session as started, and ping and logging/setLevel are -32601 in its era.",
				},
				RU: []string{
					"Определяйте эпоху для каждого запроса, прежде всего остального: params._meta с ключом io.modelcontextprotocol/ (и server/discover) — это 2026-07-28; без такого _meta — сессия 2025-11-25. На уведомления не отвечают ни в одной эпохе.",
					"Запрос 2026-07-28 проверяется сам по себе: нет protocolVersion или clientCapabilities — это -32602; редакция, которую вы не обслуживаете, — -32022 с data {supported, requested}. Только потом выполняйте его и добавляйте в результат \"resultType\": \"complete\".",
					"Держите состояние сессии только для старой эпохи: запросу 2026-07-28 не нужен initialize, и он не отмечает сессию начатой, а ping и logging/setLevel в его эпохе — это -32601.",
				},
			},
		},
		{
			ID: "frames-mcp-auth", Kind: Frame, Lesson: "mcp-authorization",
			Title: Text{
				EN: "Get an access token by hand, then step up",
				RU: "Получите access-токен вручную, затем повысьте права",
			},
			Hints: Hints{
				EN: []string{
					"Start where a client starts: a tools/call on mcp-auth without a token. Its 401 names resource_metadata; read that document, then the metadata of the authorization server it names. Use the endpoints those documents give, not ones you guess.",
					"The authorization request carries code_challenge_method=S256 and resource, the resource of the protected resource metadata; the token request repeats resource and adds code_verifier. The token goes in the Authorization: Bearer header, never in the URL.",
					`The console's templates stop at the 403. Its WWW-Authenticate names scope="mcp:tools deploy:production": authorize again for exactly that scope (change scope in both /authorize frames), exchange the new code, and deploy to production with the new token.`,
				},
				RU: []string{
					"Начните там же, где клиент: tools/call на mcp-auth без токена. Его 401 называет resource_metadata; прочитайте этот документ, а затем метаданные сервера авторизации, который в нём назван. Берите эндпоинты из этих документов, а не угадывайте.",
					"Запрос авторизации содержит code_challenge_method=S256 и resource — resource из метаданных защищённого ресурса; запрос токена повторяет resource и добавляет code_verifier. Токен передаётся в заголовке Authorization: Bearer, никогда в URL.",
					`Шаблоны консоли заканчиваются на 403. Его WWW-Authenticate называет scope="mcp:tools deploy:production": авторизуйтесь снова ровно на этот scope (поменяйте scope в обоих кадрах /authorize), обменяйте новый код и задеплойте в production с новым токеном.`,
				},
			},
		},
		{
			ID: "mcp-resource-server", Kind: Code, Lesson: "mcp-authorization",
			Title: Text{
				EN: "An MCP server that checks access tokens",
				RU: "MCP-сервер, который проверяет access-токены",
			},
			Hints: Hints{
				EN: []string{
					`No token is 401 with WWW-Authenticate: Bearer resource_metadata="..." naming your metadata document: that is how an MCP client finds the authorization server. 403 is only for a valid token that lacks a scope.`,
					"A good signature is not enough: the token's iss must be your authorization server, exp in the future, and aud must contain your own resource URL. A token issued for another server, or for none, is 401 invalid_token.",
					`Read the token from the Authorization header only. Every call needs mcp:tools; deploy_service with env production needs deploy:production too, and without it the answer is 403 with error="insufficient_scope" and the scope that would do.`,
				},
				RU: []string{
					`Без токена — 401 с WWW-Authenticate: Bearer resource_metadata="...", где назван ваш документ метаданных: так клиент MCP находит сервер авторизации. 403 — только для действительного токена, которому не хватает scope.`,
					"Верной подписи мало: iss токена должен быть вашим сервером авторизации, exp — в будущем, а aud должен содержать ваш собственный URL ресурса. Токен, выданный другому серверу или никому, — это 401 invalid_token.",
					`Берите токен только из заголовка Authorization. Каждому вызову нужен mcp:tools; deploy_service с env production нужен ещё и deploy:production, а без него ответ — 403 с error="insufficient_scope" и scope, которого хватило бы.`,
				},
			},
		},
		{
			ID: "find-the-defect", Kind: Code, Lesson: "debugging-a-real-host",
			Title: Text{
				EN: "Find the defect in a recording",
				RU: "Найдите дефект в записи",
			},
			Hints: Hints{
				EN: []string{
					`Make the recording readable first: jq -r 'select(.kind=="line") | "\(.seq) \(.dir) \(.data)"' recording.jsonl prints one message a line with its number, and "err" lines are only the server's logs.`,
					"Every line is valid JSON-RPC and the host went on happily, so the defect is a broken promise: read what the server declared in tools/list, then check each answer against it.",
					"A tool's outputSchema binds its successful results: they must carry structuredContent. A result with isError is a tool error, which is allowed. Which successful result has no structuredContent?",
				},
				RU: []string{
					`Сначала сделайте запись читаемой: jq -r 'select(.kind=="line") | "\(.seq) \(.dir) \(.data)"' recording.jsonl печатает по сообщению на строку с его номером, а строки «err» — это лишь журнал сервера.`,
					"Каждая строка — корректный JSON-RPC, и хост спокойно работал дальше, значит, дефект — нарушенное обещание: прочитайте, что сервер объявил в tools/list, и сверьте с этим каждый ответ.",
					"outputSchema инструмента связывает его успешные результаты: в них должен быть structuredContent. Результат с isError — ошибка инструмента, и это допустимо. В каком успешном результате нет structuredContent?",
				},
			},
		},
		{
			ID: "frames-mcp-hostile", Kind: Frame, Lesson: "mcp-security",
			Title: Text{
				EN: "Catch a hostile server in the act",
				RU: "Поймайте враждебный сервер с поличным",
			},
			Hints: Hints{
				EN: []string{
					"Choose the target mcp-hostile in /console/mcp: its templates open the session and call each tool. Read every description of tools/list whole, not only the names.",
					"One tool's result holds a message written to the model, and one tool annotated readOnlyHint: true says in its result what it changed.",
					"spell_check changes after its first call. In one run of the server: tools/list, then tools/call spell_check, then tools/list again; a restart makes it harmless again.",
				},
				RU: []string{
					"Выберите в /console/mcp цель mcp-hostile: её шаблоны открывают сессию и вызывают каждый инструмент. Читайте описания из tools/list целиком, а не только имена.",
					"В результате одного инструмента есть письмо, написанное модели, а инструмент с аннотацией readOnlyHint: true в своём результате говорит, что он изменил.",
					"spell_check меняется после первого вызова. В одном запуске сервера: tools/list, затем tools/call spell_check, затем снова tools/list; перезапуск снова делает его безобидным.",
				},
			},
		},
		{
			ID: "mcp-wary-client", Kind: Code, Lesson: "mcp-security",
			Title: Text{
				EN: "A wary MCP client: pin, mark, ask",
				RU: "Осторожный MCP-клиент: закрепить, пометить, спросить",
			},
			Hints: Hints{
				EN: []string{
					"Print every description whole, as it came, with fmt.Fprintf(out, \"%s\", ...): no cut, no title in its place. Then pin each tool: sha256 of json.Marshal of its definition, whose schemas and annotations come out with their keys sorted.",
					"Before each call, listTools again and pin the tool anew: a hash that differs from the pin means refuse, print the old and the new description and schema, and exit 3. Do not wait for notifications/tools/list_changed.",
					"Without --yes, refuse every call, whatever its annotations say, showing the tool and all its arguments; with it, print each result between the marker constants, the error ones when isError is true, and exit 1 then.",
				},
				RU: []string{
					"Печатайте каждое описание целиком, как пришло, через fmt.Fprintf(out, \"%s\", ...): без обрезки и без заголовка вместо него. Затем закрепите каждый инструмент: sha256 от json.Marshal его определения, где схемы и аннотации выходят с ключами по порядку.",
					"Перед каждым вызовом снова вызовите listTools и закрепите инструмент заново: хеш, не совпавший с закреплённым, значит отказ — напечатайте старое и новое описание и схему и завершитесь с кодом 3. Не ждите notifications/tools/list_changed.",
					"Без --yes отклоняйте любой вызов, что бы ни говорили аннотации, показывая инструмент и все его аргументы; с ним печатайте каждый результат между константами-метками, а при isError — между метками ошибки, и тогда завершайтесь с кодом 1.",
				},
			},
		},
		{
			ID: "frames-a2a-task", Kind: Frame, Lesson: "a2a",
			Title: Text{
				EN: "Drive an A2A task through input-required",
				RU: "Проведите A2A-задачу через input-required",
			},
			Hints: Hints{
				EN: []string{
					"Read the Agent Card at /.well-known/agent-card.json first: it lists the agent's skills and the URL to send messages to.",
					"Send a message the agent needs more information for: the task stops in input-required and asks you a question.",
					"Answer in the same task (send its taskId with your message) and follow it to completed.",
				},
				RU: []string{
					"Сначала прочитайте Agent Card по адресу /.well-known/agent-card.json: там перечислены навыки агента и URL для сообщений.",
					"Отправьте сообщение, для которого агенту не хватит информации: задача остановится в input-required и задаст вопрос.",
					"Ответьте в той же задаче (передайте её taskId вместе с сообщением) и доведите её до completed.",
				},
			},
		},
		{
			ID: "a2a-client", Kind: Code, Lesson: "a2a",
			Title: Text{
				EN: "An A2A client that follows a task to the end",
				RU: "A2A-клиент, который ведёт задачу до конца",
			},
			Hints: Hints{
				EN: []string{
					"Fetch the Agent Card from /.well-known/agent-card.json first: it tells you where to send messages.",
					"A task is not done until its state is terminal (completed, failed, canceled, rejected): keep reading the stream, or polling the task, until then.",
					"On input-required, send your answer as a new message carrying the same taskId (and contextId), then keep following the same task.",
				},
				RU: []string{
					"Сначала загрузите Agent Card по адресу /.well-known/agent-card.json: в ней сказано, куда отправлять сообщения.",
					"Задача не закончена, пока её состояние не конечное (completed, failed, canceled, rejected): до тех пор читайте поток или опрашивайте задачу.",
					"При input-required отправьте ответ новым сообщением с тем же taskId (и contextId) и продолжайте следить за той же задачей.",
				},
			},
		},
		{
			ID: "fix-agent-card-path", Kind: Code, Lesson: "a2a",
			Title: Text{
				EN: "Fix it: the card nobody finds",
				RU: "Исправьте: карточка, которую никто не находит",
			},
			Hints: Hints{
				EN: []string{
					"Ask for the card the way a current client does: curl http://127.0.0.1:8080/.well-known/agent-card.json. Then look at the paths main registers.",
					"Register the card handler at GET /.well-known/agent-card.json; keeping /.well-known/agent.json beside it serves clients older than 0.3.",
				},
				RU: []string{
					"Запросите карточку так, как это делает современный клиент: curl http://127.0.0.1:8080/.well-known/agent-card.json. Потом посмотрите, какие пути регистрирует main.",
					"Зарегистрируйте обработчик карточки на GET /.well-known/agent-card.json; если оставить рядом /.well-known/agent.json, его найдут и клиенты старше 0.3.",
				},
			},
		},
		{
			ID: "mcp-sdk-server", Kind: Code, Lesson: "choosing",
			Title: Text{
				EN: "An MCP server with the official Go SDK",
				RU: "MCP-сервер на официальном Go SDK",
			},
			Hints: Hints{
				EN: []string{
					`Register the tool with the generic mcp.AddTool(server, &mcp.Tool{Name: "word_count", ...}, handler): the SDK reads the handler's input and output types and writes both schemas from them.`,
					"The schema's property names are the struct fields' JSON tags: give the input field `json:\"text\"` and the output fields `json:\"words\"` and `json:\"chars\"`. Count characters with utf8.RuneCountInString, not len.",
					"A text with no words is a tool error: return it as the handler's third result, an error, and the SDK answers with isError: true.",
				},
				RU: []string{
					`Регистрируйте инструмент обобщённой mcp.AddTool(server, &mcp.Tool{Name: "word_count", ...}, handler): SDK читает входной и выходной типы обработчика и пишет по ним обе схемы.`,
					"Имена свойств схемы — это JSON-теги полей структуры: дайте входному полю `json:\"text\"`, а выходным `json:\"words\"` и `json:\"chars\"`. Символы считайте через utf8.RuneCountInString, а не len.",
					"Текст без слов — ошибка инструмента: верните её третьим результатом обработчика, ошибкой, и SDK ответит с isError: true.",
				},
			},
		},
	}
}

// ByID returns the exercise with this id.
func ByID(id string) (Exercise, bool) {
	for _, e := range List() {
		if e.ID == id {
			return e, true
		}
	}
	return Exercise{}, false
}

// IDs lists every exercise id, for error messages.
func IDs() string {
	var ids []string
	for _, e := range List() {
		ids = append(ids, e.ID)
	}
	return strings.Join(ids, ", ")
}
