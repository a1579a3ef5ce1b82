package tapcheck

// Severities. An error breaks the specification; a warning is legal but
// dangerous (a hostile server); a note is worth seeing, nothing more.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityNote    = "note"
)

// Rule is one kind of finding.
type Rule struct {
	Code     string
	Severity string
	EN, RU   string
}

// Rules lists every finding the checker can make, with its explanation.
var Rules = []Rule{
	{"schema", SeverityError,
		"The message does not match the official JSON schema of the revision in use: a request or notification is checked against its method's definition, a result against the result its request implies. A peer that parses by the schema (most SDKs do) rejects it, or drops what it cannot read.",
		"Сообщение не соответствует официальной JSON-схеме используемой редакции: запрос или уведомление проверяются по определению своего метода, результат — по результату, которого требует запрос. Собеседник, разбирающий сообщения по схеме (так делает большинство SDK), отвергнет его или потеряет то, что не сможет прочесть."},
	{"stdout-noise", SeverityError,
		"The server wrote something on stdout that is not a JSON-RPC message. On stdio, stdout carries only MCP messages, one per line; logs belong on stderr. A host may drop the line, or give up on the server.",
		"Сервер написал в stdout то, что не является сообщением JSON-RPC. В stdio поток stdout несёт только сообщения MCP, по одному на строку; журналы пишут в stderr. Хост может пропустить строку или отказаться от сервера."},
	{"not-jsonrpc", SeverityError,
		"This is not a valid JSON-RPC 2.0 message: every MCP message is a JSON object with \"jsonrpc\":\"2.0\" and either a method (a request or notification) or exactly one of result and error (a response).",
		"Это не корректное сообщение JSON-RPC 2.0: каждое сообщение MCP — объект JSON с \"jsonrpc\":\"2.0\" и либо методом (запрос или уведомление), либо ровно одним из result и error (ответ)."},
	{"cut-off", SeverityError,
		"The stream ended in the middle of a message: the last line has no newline. The peer exited or was killed while writing.",
		"Поток оборвался посреди сообщения: у последней строки нет перевода строки. Собеседник завершился или был убит во время записи."},
	{"unknown-id", SeverityError,
		"A response whose id matches no request waiting for an answer: either no request had that id, or it was already answered. The other side cannot tell what it answers.",
		"Ответ с id, которому не соответствует ни один ожидающий ответа запрос: такого запроса не было или на него уже ответили. Другая сторона не поймёт, на что это ответ."},
	{"notification-answered", SeverityError,
		"A notification was answered. A notification has no id, and the receiver \"MUST NOT send a response\" (JSON-RPC 2.0, section 4.1).",
		"На уведомление пришёл ответ. У уведомления нет id, и получатель «НЕ ДОЛЖЕН отправлять ответ» (JSON-RPC 2.0, раздел 4.1)."},
	{"id-reused", SeverityError,
		"A request id used before in the same session by the same side. MCP: the request ID \"MUST NOT have been previously used by the requestor within the same session\"; answers to the two would be confused.",
		"Id запроса уже использовался этой же стороной в этой сессии. MCP: id запроса «НЕ ДОЛЖЕН ранее использоваться отправителем в той же сессии»; ответы на два запроса перепутаются."},
	{"progress-backwards", SeverityError,
		"A progress notification whose progress did not grow. MCP: \"The progress value MUST increase with each notification\".",
		"Уведомление о ходе работы, в котором progress не вырос. MCP: «значение progress ДОЛЖНО расти с каждым уведомлением»."},
	{"before-initialize", SeverityError,
		"A request before initialize, in a 2025-11-25 session (it carries no revision of its own in _meta, so it is not a 2026-07-28 request). Before initialization only ping may be sent; the server should refuse it with an error.",
		"Запрос до initialize в сессии 2025-11-25 (в его _meta нет своей редакции, значит, это не запрос 2026-07-28). До инициализации можно посылать только ping; сервер должен отказать с ошибкой."},
	{"version-unknown", SeverityError,
		"A protocol version that is no revision of MCP. initialize must be answered with a revision that has sessions (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25; 2026-07-28 has no initialize): the version asked for, if the server supports it, otherwise another the server supports. A server cannot support what is no revision; one that echoes whatever it is asked will agree to anything. A host that does not support the version answered SHOULD disconnect; the detail says whether it went on instead. server/discover's supportedVersions, and the supported list of the error UnsupportedProtocolVersion (-32022), name revisions too.",
		"Версия протокола, которая не является редакцией MCP. На initialize нужно отвечать редакцией, в которой есть сессии (2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25; в 2026-07-28 нет initialize): запрошенной, если сервер её поддерживает, иначе другой, которую он поддерживает. Поддерживать то, что не является редакцией, сервер не может; сервер, который повторяет всё, о чём его просят, согласится на что угодно. Хосту, который не поддерживает названную в ответе версию, следует отключиться; продолжил ли он вместо этого, сказано в подробностях. supportedVersions в server/discover и список supported в ошибке UnsupportedProtocolVersion (-32022) тоже называют редакции."},
	{"structured-content-missing", SeverityError,
		"The tool declared an outputSchema, but its result has no structuredContent. MCP: \"Servers MUST provide structured results that conform to this schema\"; a host that reads structuredContent gets nothing.",
		"Инструмент объявил outputSchema, но в результате нет structuredContent. MCP: сервер «ДОЛЖЕН возвращать структурированный результат по этой схеме»; хост, читающий structuredContent, ничего не получит."},
	{"structured-content-invalid", SeverityError,
		"structuredContent does not match the outputSchema the tool declared in tools/list.",
		"structuredContent не соответствует outputSchema, объявленной инструментом в tools/list."},
	{"tool-error", SeverityNote,
		"The tool ran and failed: isError is true. The host must show this as a failure; a host that shows content without checking isError presents the error text as a result.",
		"Инструмент выполнился с ошибкой: isError равно true. Хост должен показать это как неудачу; хост, который показывает content, не проверив isError, выдаст текст ошибки за результат."},
	{"tool-changed", SeverityWarning,
		"A tool's definition changed between two tools/list answers, after the host had seen (and perhaps the user approved) the first. This is how a \"rug pull\" works: a harmless tool is approved, then its description or schema turns hostile. The diff shows what changed.",
		"Описание инструмента изменилось между двумя ответами tools/list, после того как хост увидел (а пользователь, возможно, одобрил) первое. Так устроена «подмена»: одобряют безобидный инструмент, а потом его описание или схема становятся враждебными. Разница показана ниже."},
	{"model-instructions", SeverityWarning,
		"Text addressed to the model, not the user: instructions such as \"ignore previous instructions\" or \"do not tell the user\" in a tool's description or result. A model reads these as orders; this is tool poisoning or prompt injection.",
		"Текст, обращённый к модели, а не к пользователю: указания вроде «ignore previous instructions» или «не говори пользователю» в описании инструмента или в результате. Модель воспринимает их как приказы; это отравление инструмента или внедрение подсказки."},
	{"hidden-characters", SeverityWarning,
		"Invisible characters (zero-width, bidirectional controls or Unicode tags) in text a model reads. The user sees nothing; the model reads whatever they hide.",
		"Невидимые символы (нулевой ширины, управление направлением письма или теги Unicode) в тексте, который читает модель. Пользователь ничего не видит; модель читает то, что они прячут."},
	{"long-description", SeverityWarning,
		"A very long tool description. Descriptions go into the model's context with every request; a long one costs tokens and is a common place to hide instructions.",
		"Очень длинное описание инструмента. Описания попадают в контекст модели с каждым запросом; длинное описание стоит токенов и часто прячет указания."},
	{"unanswered", SeverityWarning,
		"A host's request never answered: the server exited, or the HTTP exchange that carried it broke off or ended, while the request still waited. JSON-RPC wants an answer to every request (\"the Server MUST reply with a Response\"), a result or an error; a host without a timeout waits for ever, and one with a timeout cannot tell a slow tool from a dead server. A request cancelled with notifications/cancelled (in 2026-07-28 over HTTP, by the host closing its stream) waits for nothing.",
		"Запрос хоста так и не получил ответа: сервер завершился или HTTP-обмен, в котором пришёл запрос, оборвался или закончился, пока запрос ещё ждал. JSON-RPC требует ответа на каждый запрос («сервер ДОЛЖЕН ответить»), результатом или ошибкой; хост без тайм-аута ждёт вечно, а хост с тайм-аутом не отличит медленный инструмент от упавшего сервера. Запрос, отменённый через notifications/cancelled (в 2026-07-28 по HTTP — тем, что хост закрыл поток), ничего не ждёт."},
	{"a2a-terminal-left", SeverityError,
		"An A2A task left a terminal state. Completed, failed, canceled and rejected are final: nothing more happens to such a task; a new message starts a new task (the same contextId keeps the conversation), and a request to change it must be refused.",
		"Задача A2A вышла из конечного состояния. Completed, failed, canceled и rejected окончательны: с такой задачей больше ничего не происходит; новое сообщение начинает новую задачу (тот же contextId сохраняет разговор), а просьбу изменить её нужно отклонить."},
	{"a2a-stream-unfinished", SeverityError,
		"An A2A stream closed before the task reached a state that ends it: a terminal one (completed, failed, canceled, rejected) or an interrupted one (input-required, auth-required), or a message. The caller cannot tell a finished task from a dropped connection, and must poll GetTask to find out.",
		"Поток A2A закрылся раньше, чем задача пришла в состояние, которым он заканчивается: конечное (completed, failed, canceled, rejected) или прерванное (input-required, auth-required), либо сообщение. Вызывающий не отличит завершённую задачу от оборванного соединения и должен спрашивать GetTask."},
	{"a2a-after-final", SeverityError,
		"An A2A stream sent more after the event that ended it (a terminal or interrupted state, a message, an error, or in 0.3 an event with final: true). A caller has stopped reading by then.",
		"Поток A2A прислал что-то после события, которым он закончился (конечное или прерванное состояние, сообщение, ошибка или в 0.3 событие с final: true). Вызывающий к этому времени уже перестал читать."},
	{"a2a-state", SeverityError,
		"A task state this A2A revision does not have, or spelled as the other revision spells it: 1.0 says TASK_STATE_COMPLETED, 0.3 says completed. A caller of that revision cannot read it.",
		"Состояние задачи, которого нет в этой редакции A2A, или записанное так, как пишет другая редакция: в 1.0 — TASK_STATE_COMPLETED, в 0.3 — completed. Вызывающий этой редакции его не прочтёт."},
	{"a2a-error-code", SeverityError,
		"An error code this A2A revision does not define. A2A uses JSON-RPC's codes and its own -32001 to -32007 (1.0 adds -32008 ExtensionSupportRequired and -32009 VersionNotSupported); a caller tells the errors apart by code.",
		"Код ошибки, которого нет в этой редакции A2A. A2A использует коды JSON-RPC и свои -32001…-32007 (в 1.0 добавлены -32008 ExtensionSupportRequired и -32009 VersionNotSupported); вызывающий различает ошибки по коду."},
	{"a2a-version", SeverityError,
		"The request names an A2A-Version that A2A does not have (there are 0.3 and 1.0), and the answer is not the error VersionNotSupported (-32009) that says so and lists what the agent speaks.",
		"Запрос называет A2A-Version, которой в A2A нет (есть 0.3 и 1.0), а ответ — не ошибка VersionNotSupported (-32009), которая говорит об этом и перечисляет, что агент поддерживает."},
	{"a2a-method-version", SeverityError,
		"An A2A method of one revision sent as the other: a 1.0 name (SendMessage) without the header A2A-Version: 1.0, which means 0.3, or a 0.3 name (message/send) with it. The agent reads the request as the revision the header names, and the method is not found.",
		"Метод A2A одной редакции отправлен как другой: имя из 1.0 (SendMessage) без заголовка A2A-Version: 1.0, то есть как 0.3, или имя из 0.3 (message/send) с ним. Агент читает запрос в редакции, которую называет заголовок, и метода не находит."},
	{"grpc-no-status", SeverityError,
		"A gRPC call whose stream ended, or whose recording stops, with no status: no trailers with grpc-status and no RST_STREAM. Every gRPC call ends with grpc-status in the trailers (or a trailers-only answer); a client left without one waits until its deadline.",
		"Вызов gRPC, поток которого закончился (или запись которого обрывается) без статуса: нет трейлеров с grpc-status и нет RST_STREAM. Каждый вызов gRPC завершается grpc-status в трейлерах (или ответом только из трейлеров); клиент без статуса ждёт до своего дедлайна."},
	{"grpc-status-missing", SeverityError,
		"The HEADERS that ended a gRPC call carry no grpc-status. The trailers of every call must hold grpc-status (PROTOCOL-HTTP2.md); a client reads a missing one as an error (UNKNOWN or INTERNAL), whatever the messages said.",
		"HEADERS, завершившие вызов gRPC, не содержат grpc-status. Трейлеры каждого вызова должны содержать grpc-status (PROTOCOL-HTTP2.md); клиент считает отсутствие статуса ошибкой (UNKNOWN или INTERNAL), что бы ни было в сообщениях."},
	{"version-changed", SeverityNote,
		"The server answered initialize with another revision than the host asked for, and the host went on in it. That is negotiation at work: a server that does not support the revision asked for MUST answer with one it does (SHOULD be its latest), and a host that does not support that one SHOULD disconnect. Worth seeing: the session speaks the revision of the answer, not of the request, and the host must speak it too (over HTTP, its MCP-Protocol-Version header names it).",
		"Сервер ответил на initialize не той редакцией, которую просил хост, и хост продолжил в ней. Так и работает согласование: сервер, который не поддерживает запрошенную редакцию, ДОЛЖЕН назвать ту, что поддерживает (лучше всего свою последнюю), а хосту, который не поддерживает её, следует отключиться. Стоит заметить: сессия говорит на редакции из ответа, а не из запроса, и хост должен говорить на ней же (по HTTP её называет его заголовок MCP-Protocol-Version)."},
	{"pending-at-end", SeverityNote,
		"A request still waiting for its answer when nothing more was recorded of it: the recording ends (the tap was stopped), the host left its HTTP exchange, or the server exited while its own request to the host (roots/list, sampling, elicitation) was open. The recording cannot say whether an answer would have come; a request the other side ignored looks the same, and is worth a look.",
		"Запрос всё ещё ждал ответа, когда о нём больше ничего не записано: запись кончилась (tap остановили), хост ушёл из своего HTTP-обмена или сервер завершился, пока его собственный запрос к хосту (roots/list, sampling, elicitation) был открыт. По записи не скажешь, пришёл бы ответ; запрос, который другая сторона проигнорировала, выглядит так же, и его стоит проверить."},
	{"truncated", SeverityNote,
		"The message was longer than the recording keeps, so it was not checked. It passed through whole.",
		"Сообщение длиннее, чем хранит запись, поэтому оно не проверено. Через tap оно прошло целиком."},
	{"checker-error", SeverityNote,
		"Internal error in the checker: one of its schemas could not be loaded, so some messages were not checked against it. This says nothing about the recording.",
		"Внутренняя ошибка проверки: одну из её схем не удалось загрузить, поэтому часть сообщений не проверена по ней. О записи это ничего не говорит."},
	{"tap-refused", SeverityNote,
		"The tap answered this request itself and refused it; the server never saw it. The tap listens on a loopback address, and so, like wirelab's own servers, takes only requests for a loopback Host and none from another site's page (DNS rebinding): it must, since it sends the server its own Host, and the server can no longer tell.",
		"Tap сам ответил на этот запрос отказом; сервер его не видел. Tap слушает loopback-адрес и потому, как и серверы wirelab, принимает только запросы с loopback-именем в Host и ни одного со страницы чужого сайта (DNS rebinding): иначе нельзя, ведь серверу он передаёт свой Host, и сервер этого уже не различит."},
	{"relay-broken", SeverityNote,
		"The tap saw a connection break: a host that went away, an upstream that did not answer, a body cut off.",
		"Tap увидел обрыв: хост ушёл, сервер не ответил, тело ответа оборвалось."},
}

// rule returns the rule with this code; an unknown code is a bug here.
func rule(code string) Rule {
	for _, r := range Rules {
		if r.Code == code {
			return r
		}
	}
	panic("tapcheck: no rule " + code)
}
