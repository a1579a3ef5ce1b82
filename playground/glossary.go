package playground

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// The glossary, /learn/glossary: the course's terms, each with a
// one-line definition and the lesson that teaches it. A lesson links a
// term's first use to its entry, /learn/glossary#ID; TestGlossary holds
// each entry to a lesson that exists and links it back.

// term is one entry of the glossary. ID is its anchor, the same in every
// language, so that a link from any lesson lands on it.
type term struct {
	ID     string
	Lesson string // the slug of the lesson that teaches it
	Term   exercises.Text
	Def    exercises.Text
}

// glossary returns the terms in the order the course meets them; the
// page sorts them by name in the reader's language.
func glossary() []term {
	t := func(id, lesson, en, ru, defEN, defRU string) term {
		return term{ID: id, Lesson: lesson, Term: exercises.Text{EN: en, RU: ru}, Def: exercises.Text{EN: defEN, RU: defRU}}
	}
	return []term{
		t("agent-runtime", "why-servers", "agent runtime", "среда выполнения агента",
			"The program around the model: it shows the model the tools, runs the call the model asks for and hands back the result.",
			"Программа вокруг модели: показывает модели инструменты, выполняет вызов, о котором модель просит, и возвращает результат."),
		t("tool-server", "why-servers", "tool server", "сервер инструментов",
			"A separate program that owns tools and runs them for any agent that speaks its protocol.",
			"Отдельная программа, которая владеет инструментами и выполняет их для любого агента, говорящего на её протоколе."),
		t("frame", "why-servers", "frame", "кадр",
			"One message as it goes on the wire; in the lessons, a message you can edit and send to a live server.",
			"Одно сообщение в том виде, в каком оно идёт по проводу; в уроках — сообщение, которое можно изменить и отправить живому серверу."),
		t("stdio", "stdio", "stdio transport", "транспорт stdio",
			"The host starts the server as a child process and exchanges messages, one JSON line each, over its stdin and stdout.",
			"Хост запускает сервер дочерним процессом и обменивается с ним сообщениями, по строке JSON на каждое, через его stdin и stdout."),
		t("request-id", "stdio", "request id", "id запроса",
			"The value a client puts in a request and the server copies into its answer, so that answers find their questions in any order.",
			"Значение, которое клиент кладёт в запрос, а сервер копирует в ответ, чтобы ответы находили свои вопросы в любом порядке."),
		t("bearer-token", "http", "bearer token", "bearer-токен",
			"A token sent as Authorization: Bearer …: whoever holds it may use it, so it travels only in that header.",
			"Токен в заголовке Authorization: Bearer …: пользоваться им может любой, у кого он есть, поэтому он ездит только в этом заголовке."),
		t("scope", "http", "scope", "scope",
			"A permission a token carries, such as deploy:production; a known caller without it gets 403.",
			"Право, которое несёт токен, например deploy:production; известный вызывающий без него получает 403."),
		t("www-authenticate", "http", "WWW-Authenticate", "WWW-Authenticate",
			"The header of a 401 (or 403) that says how to authenticate and, with error=, what was wrong.",
			"Заголовок ответа 401 (или 403), который говорит, как аутентифицироваться, а в error= — что было не так."),
		t("protobuf", "grpc", "Protocol Buffers", "Protocol Buffers",
			"gRPC's contract language and binary encoding: messages described in a .proto file, fields sent by number.",
			"Язык контрактов и двоичная кодировка gRPC: сообщения описаны в файле .proto, поля передаются по номеру."),
		t("http2-frame", "grpc", "HTTP/2 frame", "кадр HTTP/2",
			"The unit HTTP/2 sends on a stream: HEADERS for headers, DATA for the body; a gRPC call is a few of them.",
			"Единица, которую HTTP/2 посылает в потоке: HEADERS для заголовков, DATA для тела; вызов gRPC — несколько таких кадров."),
		t("trailer", "grpc", "trailer", "трейлер",
			"Headers sent after the body; gRPC puts a call's outcome there, in grpc-status and grpc-message.",
			"Заголовки, отправленные после тела; gRPC кладёт туда исход вызова, в grpc-status и grpc-message."),
		t("deadline", "grpc", "deadline", "дедлайн",
			"The moment after which a caller no longer wants the answer; gRPC sends it as grpc-timeout and ends the call with DEADLINE_EXCEEDED.",
			"Момент, после которого ответ вызывающему уже не нужен; gRPC передаёт его в grpc-timeout и завершает вызов с DEADLINE_EXCEEDED."),
		t("metadata", "grpc", "metadata", "метаданные",
			"gRPC's key-value headers of a call, lowercase keys, where a token travels.",
			"Заголовки вызова gRPC в виде пар ключ-значение со строчными ключами; в них едет токен."),
		t("breaking-change", "versions", "breaking change", "несовместимое изменение",
			"A change to a tool that makes a call written against the old contract fail or mean something else.",
			"Изменение инструмента, после которого вызов, написанный по старому контракту, ломается или значит другое."),
		t("mcp", "mcp", "MCP", "MCP",
			"The Model Context Protocol: one protocol for agents to find and use tools, resources and prompts from any server.",
			"Model Context Protocol: один протокол, по которому агенты находят и используют инструменты, ресурсы и промпты любого сервера."),
		t("host", "mcp", "host", "хост",
			"The application the user runs (an IDE, a chat app); it runs one MCP client per server.",
			"Приложение, которое запускает пользователь (IDE, чат); на каждый сервер оно запускает по одному клиенту MCP."),
		t("primitive", "mcp", "primitive", "примитив",
			"One of the three things an MCP server offers: resources to read, prompts the user picks, tools the model calls.",
			"Одна из трёх вещей, которые предлагает MCP-сервер: ресурсы для чтения, промпты, которые выбирает пользователь, инструменты, которые вызывает модель."),
		t("json-rpc", "mcp", "JSON-RPC", "JSON-RPC",
			"The message format of MCP and A2A: requests with a method and an id, answers with a result or an error, notifications without an id.",
			"Формат сообщений MCP и A2A: запросы с методом и id, ответы с result или error, уведомления без id."),
		t("notification", "mcp", "notification", "уведомление",
			"A JSON-RPC message without an id: nothing comes back for it.",
			"Сообщение JSON-RPC без id: на него ничего не приходит в ответ."),
		t("session", "mcp", "session", "сессия",
			"What an MCP client and server agree on in initialize and keep until the end: the revision and the capabilities.",
			"То, о чём клиент и сервер MCP договорились в initialize и что держат до конца: редакция и возможности."),
		t("revision", "mcp-by-hand", "protocol revision", "редакция протокола",
			"A dated version of the MCP specification, such as 2025-11-25; client and server agree on one.",
			"Версия спецификации MCP с датой, например 2025-11-25; клиент и сервер выбирают одну на двоих."),
		t("tool-error", "mcp-by-hand", "tool error", "ошибка инструмента",
			"A tool that ran and failed: a normal result with isError set, which the model gets to read.",
			"Инструмент запустился и не справился: обычный результат с isError, который получает модель."),
		t("protocol-error", "mcp-by-hand", "protocol error", "ошибка протокола",
			"A request that could not be handled at all: a JSON-RPC error with a code, for the client, not the model.",
			"Запрос, который вообще не удалось обработать: ошибка JSON-RPC с кодом, для клиента, а не для модели."),
		t("structured-content", "mcp-clients", "structuredContent", "structuredContent",
			"The part of a tool result that is JSON data matching the tool's output schema, beside the content shown to the model.",
			"Часть результата инструмента — данные JSON по схеме вывода инструмента, рядом с content, который видит модель."),
		t("streamable-http", "mcp-transports", "Streamable HTTP", "Streamable HTTP",
			"MCP's HTTP transport: every message a POST to one endpoint, answered with JSON or an SSE stream.",
			"HTTP-транспорт MCP: каждое сообщение — POST на один адрес, ответ — JSON или поток SSE."),
		t("sse", "mcp-transports", "SSE", "SSE",
			"Server-Sent Events: an HTTP answer that stays open and carries events, each a data: line and a blank line.",
			"Server-Sent Events: HTTP-ответ, который остаётся открытым и несёт события, каждое — строка data: и пустая строка."),
		t("origin-check", "mcp-transports", "Origin check", "проверка Origin",
			"A local HTTP server refusing requests from web pages of other sites, which a browser would otherwise let reach it.",
			"Локальный HTTP-сервер отклоняет запросы со страниц чужих сайтов, которые иначе браузер до него допустил бы."),
		t("meta", "mcp-stateless", "_meta", "_meta",
			"The object in a 2026-07-28 request that carries what a session used to: the revision, the client and its capabilities.",
			"Объект в запросе редакции 2026-07-28, который несёт то, что раньше держала сессия: редакцию, клиента и его возможности."),
		t("resource-server", "mcp-authorization", "resource server", "сервер ресурсов",
			"In OAuth, the server that holds what is protected and accepts tokens; a remote MCP server is one.",
			"В OAuth — сервер, который хранит защищённое и принимает токены; удалённый MCP-сервер — один из них."),
		t("authorization-server", "mcp-authorization", "authorization server", "сервер авторизации",
			"In OAuth, the server that signs the user in and issues tokens for a resource server.",
			"В OAuth — сервер, который проводит вход пользователя и выдаёт токены для сервера ресурсов."),
		t("pkce", "mcp-authorization", "PKCE", "PKCE",
			"Proof Key for Code Exchange: the client sends a hash first and the secret only with the code, so a stolen code is useless.",
			"Proof Key for Code Exchange: клиент сначала отправляет хеш, а сам секрет — только вместе с кодом, поэтому украденный код бесполезен."),
		t("audience", "mcp-authorization", "audience", "аудитория",
			"The server a token was issued for (aud); a server must refuse a token meant for another.",
			"Сервер, для которого выпущен токен (aud); сервер должен отказать токену, выпущенному для другого."),
		t("step-up", "mcp-authorization", "step-up", "step-up",
			"Asking for a new token with more scope after a 403 insufficient_scope, instead of failing.",
			"Запрос нового токена с бо́льшим scope после 403 insufficient_scope, вместо того чтобы сдаться."),
		t("transcript", "debugging-a-real-host", "transcript", "транскрипт",
			"Every message of a session, in order, with its direction and time: what the consoles show and a tap records.",
			"Все сообщения сессии по порядку, с направлением и временем: то, что показывают консоли и записывает tap."),
		t("tap", "debugging-a-real-host", "tap", "tap",
			"wirelab tap: a program between a host and a server that passes every byte on and records it.",
			"wirelab tap: программа между хостом и сервером, которая передаёт каждый байт дальше и записывает его."),
		t("tool-poisoning", "mcp-security", "tool poisoning", "отравление инструмента",
			"Instructions for the model hidden in a tool's description, which do harm as soon as the tools are listed.",
			"Указания для модели, спрятанные в описании инструмента; они вредят, как только инструменты попали в список."),
		t("rug-pull", "mcp-security", "rug pull", "подмена",
			"A tool that changes its definition after the user approved it.",
			"Инструмент, который меняет своё определение после того, как пользователь его одобрил."),
		t("confused-deputy", "mcp-security", "confused deputy", "запутанный заместитель",
			"A server that uses its own rights on behalf of a caller who should not have them.",
			"Сервер, который пускает в ход свои права от имени вызывающего, у которого этих прав быть не должно."),
		t("agent-card", "a2a", "Agent Card", "карточка агента",
			"The JSON document at /.well-known/agent-card.json that says who an A2A agent is, where to call it and what it speaks.",
			"Документ JSON по адресу /.well-known/agent-card.json: кто такой агент A2A, куда его вызывать и на чём он говорит."),
		t("task", "a2a", "task", "задача",
			"A2A's unit of work: it has an id and a state (working, input-required, completed…) that a caller follows.",
			"Единица работы в A2A: у неё есть id и состояние (working, input-required, completed…), за которым следит вызывающий."),
		t("artifact", "a2a", "artifact", "артефакт",
			"What a task produces, as opposed to the messages exchanged about it.",
			"То, что производит задача, в отличие от сообщений, которыми обмениваются по её поводу."),
	}
}

// glossaryIn returns the terms sorted by name in a language.
func glossaryIn(l lang) []term {
	ts := glossary()
	slices.SortStableFunc(ts, func(a, b term) int {
		return cmp.Compare(strings.ToLower(a.Term.In(string(l))), strings.ToLower(b.Term.In(string(l))))
	})
	return ts
}

// glossaryPage serves /learn/glossary.
func (l *lessonSite) glossaryPage(w http.ResponseWriter, r *http.Request) {
	v := viewFor(w, r)
	show(w, r, http.StatusOK, glossaryList(v, learnStrings(v.Lang), glossaryIn(v.Lang), l.lessons))
}
