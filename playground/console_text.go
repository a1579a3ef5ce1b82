package playground

import "github.com/wirelab/wirelab/protocols/mcp"

// consoleText is every string of the console pages that is not the
// protocol's own words, in one language. The script's strings travel to
// the page in the page's data.
type consoleText struct {
	Title        string    `json:"-"`
	Intro        string    `json:"-"`
	Consoles     string    `json:"-"`
	NotFound     string    `json:"-"`
	Target       string    `json:"-"`
	CustomTo     string    `json:"-"`
	CustomHelp   string    `json:"-"`
	Template     string    `json:"-"`
	Composer     string    `json:"-"`
	Restart      string    `json:"restart"`
	Reconnect    string    `json:"reconnect"`
	Transcript   string    `json:"-"`
	Columns      [7]string `json:"-"`
	Stderr       string    `json:"-"`
	Diagram      string    `json:"-"`
	ExportSVG    string    `json:"-"`
	ExportMerm   string    `json:"-"`
	Share        string    `json:"-"`
	ShareHelp    string    `json:"-"`
	Clear        string    `json:"-"`
	Pretty       string    `json:"-"`
	Raw          string    `json:"-"`
	Hex          string    `json:"-"`
	RemoteNote   string    `json:"-"`
	Send         string    `json:"send"`
	SendAnyway   string    `json:"sendAnyway"`
	PickTemplate string    `json:"pickTemplate"`
	LooksRight   string    `json:"looksRight"`
	Empty        string    `json:"empty"`
	LineNotJSON  string    `json:"lineNotJSON"`
	BodyNotJSON  string    `json:"bodyNotJSON"`
	GRPCMethod   string    `json:"grpcMethod"`
	RequestLine  string    `json:"requestLine"`
	NeedSession  string    `json:"needSession"`
	NeedTask     string    `json:"needTask"`
	NeedState    string    `json:"needRequestState"`
	Answer       string    `json:"answer"`
	Fixed        string    `json:"fixed"`
	CopyAs       string    `json:"copyAs"`
	Connected    string    `json:"connected"`
	Closed       string    `json:"closed"`
	Refused      string    `json:"refused"` // the socket did not open at all
	Watching     string    `json:"watchingSession"`
	Earlier      string    `json:"earlier"`
	NoBytes      string    `json:"noBytes"`
	// Reveal labels the switch that shows tokens and secrets in a row's
	// views, which are cut short by default; MaskedHex stands in for the
	// hex view of a row that holds one, until they are shown.
	Reveal    string `json:"-"`
	MaskedHex string `json:"maskedHex"`
	You       string `json:"you"` // the learner's lifeline in the sequence diagram
	// Groups name the groups of templates (frameTemplate.Group), each
	// with a line that says how its era goes.
	Groups map[string]templateGroup `json:"groups"`
	// Eras are the tags beside a row of the transcript, by the era
	// static/transcript.js finds the message in: "modern" or "session".
	Eras map[string]eraTag `json:"eras"`
	// Follow is what the classroom's parts of the page say.
	Follow followText `json:"follow"`
	// GRPC is what the gRPC console says of a learner's own server and
	// of bytes fields (static/grpccompose.js).
	GRPC grpcText `json:"grpc"`
	// Schema is what the form built from a JSON Schema says
	// (static/schemaform.js), and the schema check's messages
	// (schemacheck.go).
	Schema schemaText `json:"schema"`
	// Own is what the MCP and A2A consoles say of the learner's own
	// server, and the connection doctor's diagnoses (static/custom.js,
	// static/doctor.js).
	Own ownText `json:"own"`
	// ExportRecording labels the transcript's button that downloads the
	// session as a recording in the tap's format (GET /console/export),
	// and ExportHelp is its tooltip; ExportNothing and ExportFailed ("%s"
	// is the playground's reason) say why no file came.
	ExportRecording string `json:"-"`
	ExportHelp      string `json:"-"`
	ExportNothing   string `json:"exportNothing"`
	ExportFailed    string `json:"exportFailed"`
	// History heads the frames of one method sent before, kept across
	// reloads, in the template list (static/history.js): "%s" is the
	// method, as tools/call, POST /mcp tools/call or pkg.Service/Method.
	History string `json:"history"`
}

// followText is every string of the classroom's parts of a page, on the
// consoles and the lessons alike: the presenter's toggle, a follower's
// status line and Follow switch, the follower's bar, and "try this
// frame here". static/presenter.js and static/room.js show them.
type followText struct {
	Present      string `json:"present"`      // the toggle, off
	Presenting   string `json:"presenting"`   // the toggle, on
	PresentHelp  string `json:"presentHelp"`  // its tooltip
	Follow       string `json:"follow"`       // the follower's switch
	FollowHelp   string `json:"followHelp"`   // its tooltip
	ReadOnly     string `json:"readOnly"`     // the mark on a follower's console
	FollowLink   string `json:"followLink"`   // the link to a page that follows the presenter
	Connecting   string `json:"connecting"`   // the status line, in each state
	Waiting      string `json:"waiting"`      // nobody presents yet
	Live         string `json:"live"`         // following, as it happens
	Paused       string `json:"paused"`       // the reader switched Follow off
	Reconnecting string `json:"reconnecting"` // the socket closed; opening it again
	Ended        string `json:"ended"`        // the session followed ended
	EndedNext    string `json:"endedNext"`    // the presenter's tab closed; waiting for the next
	NoSession    string `json:"noSession"`    // a ?watch= id the playground does not know
	JoinFirst    string `json:"joinFirst"`    // a follower that has not joined the classroom
	Share        string `json:"share"`        // the follower's opt-in
	ShareHelp    string `json:"shareHelp"`    // what sharing shares
	Try          string `json:"try"`          // copies the presenter's frame into the reader's own composer
	TryHelp      string `json:"tryHelp"`
	YourConsole  string `json:"yourConsole"` // the heading of the reader's own console beside the instructor's
}

func followStrings(l lang) followText {
	if l == ru {
		return followText{
			Present:      "Показывать классу",
			Presenting:   "● Идёт показ",
			PresentHelp:  "Сделать эту вкладку ведущей: класс видит её журнал, кадр, который вы набираете, выбранную строку и место в уроке",
			Follow:       "Следовать",
			FollowHelp:   "Включено: страница идёт за ведущим. Выключено: читайте в своём темпе; включите снова, чтобы догнать",
			ReadOnly:     "только просмотр",
			FollowLink:   "Следить за ведущим",
			Connecting:   "подключение…",
			Waiting:      "ждём ведущего: показ ещё не начат",
			Live:         "в эфире: вы видите то же, что ведущий",
			Paused:       "следование выключено: читайте в своём темпе",
			Reconnecting: "связь прервалась; подключаемся снова…",
			Ended:        "сессия, за которой вы следили, закончилась",
			EndedNext:    "ведущий закрыл вкладку; ждём следующего показа",
			NoSession:    "такой сессии нет: она закончилась, или в ссылке ошибка",
			JoinFirst:    "сначала войдите в класс по коду: /join",
			Share:        "делиться прогрессом с преподавателем",
			ShareHelp:    "Преподаватель увидит, какие упражнения вы прошли и где проверка кадра не прошла. Выключено, пока вы не включите.",
			Try:          "Попробовать этот кадр у себя",
			TryHelp:      "Скопировать кадр и адресата ведущего в ваш собственный редактор справа",
			YourConsole:  "Ваша консоль",
		}
	}
	return followText{
		Present:      "Present",
		Presenting:   "● Presenting",
		PresentHelp:  "Make this tab the presenter: the room sees its transcript, the frame you type, the row you select and where you are in a lesson",
		Follow:       "Follow",
		FollowHelp:   "On: the page goes where the presenter goes. Off: read at your own pace; switch it on again to catch up",
		ReadOnly:     "read only",
		FollowLink:   "Follow the presenter",
		Connecting:   "connecting…",
		Waiting:      "waiting for the presenter: nobody presents yet",
		Live:         "live: you see what the presenter sees",
		Paused:       "not following: read at your own pace",
		Reconnecting: "the connection dropped; reconnecting…",
		Ended:        "the session you were following ended",
		EndedNext:    "the presenter's tab closed; waiting for the next presenter",
		NoSession:    "no such session: it has ended, or the link is mistyped",
		JoinFirst:    "join the classroom with its code first: /join",
		Share:        "share my progress with the instructor",
		ShareHelp:    "The instructor sees which exercises you passed and where a frame check failed. Off until you switch it on.",
		Try:          "Try this frame here",
		TryHelp:      "Copy the presenter's frame and target into your own composer, beside it",
		YourConsole:  "Your console",
	}
}

// templateGroup is a group of templates, as the composer shows it.
type templateGroup struct {
	Label string `json:"label"` // the group's heading in the list
	Note  string `json:"note"`  // one line on how a conversation in it goes
}

// eraTag is the tag beside a row of the transcript that says which era
// of MCP its message belongs to.
type eraTag struct {
	Tag   string `json:"tag"`
	Title string `json:"title"` // the tag's tooltip: why the message is of that era
}

func consoleStrings(l lang) consoleText {
	if l == ru {
		return consoleText{
			Title:        "Консоли",
			Intro:        "Наберите кадр, отправьте его живому серверу и прочитайте каждый байт, который вернётся: по строке на сообщение, со временем, размером и задержкой.",
			Consoles:     "Консоли",
			NotFound:     "Такой консоли нет: ",
			Target:       "Куда",
			CustomTo:     "Свой сервер",
			CustomHelp:   "команда (stdio), URL (HTTP) или host:port (gRPC); только со страницы на этой машине",
			Template:     "Шаблон",
			Composer:     "Кадр",
			Restart:      "Перезапустить сервер",
			Reconnect:    "Новое соединение",
			Transcript:   "Журнал",
			Columns:      [7]string{"№", "время", "", "куда", "сообщение", "байт", "задержка"},
			Stderr:       "stderr сервера",
			Diagram:      "Диаграмма последовательности",
			ExportSVG:    "Скачать SVG",
			ExportMerm:   "Текст mermaid",
			Share:        "Поделиться сессией",
			ShareHelp:    "Другие браузеры могут следить за этой сессией по ссылке:",
			Clear:        "Очистить журнал",
			Pretty:       "Красиво",
			Raw:          "Как есть",
			Hex:          "Hex",
			RemoteNote:   "Эта страница открыта не на этой машине: серверы stdio и свои серверы недоступны.",
			Send:         "Отправить",
			SendAnyway:   "Всё равно отправить",
			PickTemplate: "— выберите шаблон —",
			LooksRight:   "✓ кадр выглядит правильно",
			Empty:        "кадр пуст",
			LineNotJSON:  "строка %d — не JSON",
			BodyNotJSON:  "тело — не JSON",
			GRPCMethod:   "первая строка — метод: пакет.Сервис/Метод",
			RequestLine:  "HTTP-кадр начинается со строки запроса, например POST /mcp HTTP/1.1",
			NeedSession:  "в кадре {{session}}: сначала отправьте initialize, сервер выдаст Mcp-Session-Id",
			NeedTask:     "в кадре {{task}}: сначала создайте задачу (SendMessage)",
			NeedState:    "в кадре {{requestState}}: сначала отправьте запрос, на который придёт ответ input_required; его requestState встанет сюда",
			Answer:       "Ответить",
			Fixed:        "исправлен",
			CopyAs:       "Копировать как %s",
			Connected:    "подключено",
			Closed:       "соединение закрыто; следующая отправка подключит заново (серверы stdio стартуют заново)",
			Refused:      "песочница не приняла соединение этой страницы; обновите страницу, чтобы попробовать снова",
			Watching:     "только просмотр: сессия %s",
			Earlier:      "— выше: до перезагрузки страницы —",
			NoBytes:      "байтов этого вызова здесь нет: байты вызова gRPC приходят с его записью, вместе с ответом",
			Reveal:       "показать токены",
			MaskedHex:    "в этой строке токен или секрет: шестнадцатеричный вид скрыт, пока не отмечено «показать токены»",
			You:          "вы",
			Groups: map[string]templateGroup{
				mcp.LegacyVersion: {Label: "2025-11-25 (сессия)",
					Note: "Сначала сессия: initialize и ответ на него, затем notifications/initialized, и лишь потом запрос, который опирается на то, о чём договорился initialize (по HTTP его несёт Mcp-Session-Id)."},
				mcp.ModernVersion: {Label: "2026-07-28 (без сессии)",
					Note: "Без рукопожатия: один запрос, который сам несёт редакцию и возможности клиента в params._meta; по HTTP его заголовки повторяют редакцию, метод и имя, а Mcp-Session-Id нет."},
				oauthGroup: {Label: "OAuth: поток по порядку",
					Note: "Поток авторизации MCP шаг за шагом, между двумя целями: mcp-auth (MCP-сервер, которому нужен токен) и oauth (сервер авторизации). Каждое значение, нужное следующему кадру ({{client_id}}, {{csrf}}, {{code}}, {{access_token}}), берётся из предыдущего ответа; урок 12 разбирает каждый шаг."},
			},
			Follow: followStrings(l),
			GRPC:   grpcStrings(l),
			Eras: map[string]eraTag{
				"modern":  {Tag: "2026-07-28", Title: "запрос редакции 2026-07-28: редакция названа в его params._meta, и он обходится без сессии; ответ на него — той же редакции"},
				"session": {Tag: "2025-11-25, сессия", Title: "часть сессии 2025-11-25, которую открыл initialize"},
			},
			Schema: schemaStrings(l),
			Own:    ownStrings(l),

			ExportRecording: "Скачать запись",
			ExportHelp:      "Сессия как файл записи wirelab tap: его можно открыть снова (wirelab tap open ФАЙЛ), проверить (wirelab tap check ФАЙЛ) и воспроизвести (wirelab replay ФАЙЛ --against КОМАНДА|URL)",
			ExportNothing:   "записывать пока нечего: сначала отправьте кадр",
			ExportFailed:    "запись не получилась: %s",
			History:         "отправлено раньше: %s",
		}
	}
	return consoleText{
		Title:        "Consoles",
		Intro:        "Type a frame, send it to a live server, and read every byte that comes back: one row per message, with its time, size and latency.",
		Consoles:     "Consoles",
		NotFound:     "There is no such console: ",
		Target:       "To",
		CustomTo:     "Your server",
		CustomHelp:   "a command (stdio), a URL (HTTP) or host:port (gRPC); only from a page on this machine",
		Template:     "Template",
		Composer:     "Frame",
		Restart:      "Restart the server",
		Reconnect:    "New connection",
		Transcript:   "Transcript",
		Columns:      [7]string{"#", "time", "", "to", "message", "bytes", "latency"},
		Stderr:       "server stderr",
		Diagram:      "Sequence diagram",
		ExportSVG:    "Download SVG",
		ExportMerm:   "Mermaid text",
		Share:        "Share this session",
		ShareHelp:    "Other browsers can follow this session at:",
		Clear:        "Clear the transcript",
		Pretty:       "Pretty",
		Raw:          "Raw",
		Hex:          "Hex",
		RemoteNote:   "This page is not open on this machine: stdio servers and your own servers are off.",
		Send:         "Send",
		SendAnyway:   "Send anyway",
		PickTemplate: "— pick a template —",
		LooksRight:   "✓ the frame looks right",
		Empty:        "the frame is empty",
		LineNotJSON:  "line %d is not JSON",
		BodyNotJSON:  "the body is not JSON",
		GRPCMethod:   "the first line is the method: package.Service/Method",
		RequestLine:  "an HTTP frame starts with a request line such as POST /mcp HTTP/1.1",
		NeedSession:  "the frame has {{session}}: send initialize first, and the server gives an Mcp-Session-Id",
		NeedTask:     "the frame has {{task}}: make a task first (SendMessage)",
		NeedState:    "the frame has {{requestState}}: first send the request whose answer is input_required; its requestState goes here",
		Answer:       "Answer",
		Fixed:        "fixed",
		CopyAs:       "Copy as %s",
		Connected:    "connected",
		Closed:       "the connection closed; the next send reconnects (stdio servers start afresh)",
		Refused:      "the playground did not accept this page's connection; reload the page to try again",
		Watching:     "watching session %s, read only",
		Earlier:      "— above: before the page was reloaded —",
		NoBytes:      "no bytes of this call here: a gRPC call's bytes come with its capture, in the answer",
		Reveal:       "show tokens",
		MaskedHex:    "this row holds a token or a secret: its hex view is hidden until \"show tokens\" is ticked",
		You:          "you",
		Groups: map[string]templateGroup{
			mcp.LegacyVersion: {Label: "2025-11-25 (session)",
				Note: "The session first: initialize and its answer, then notifications/initialized, and only then a request, which leans on what initialize agreed (over HTTP, Mcp-Session-Id carries it)."},
			mcp.ModernVersion: {Label: "2026-07-28 (stateless)",
				Note: "No handshake: one request that carries its revision and the client's capabilities itself, in params._meta; over HTTP its headers repeat the revision, the method and the name, and there is no Mcp-Session-Id."},
			oauthGroup: {Label: "OAuth: the flow in order",
				Note: "MCP authorization step by step, across two targets: mcp-auth (an MCP server that wants a token) and oauth (the authorization server). Each value a later frame needs ({{client_id}}, {{csrf}}, {{code}}, {{access_token}}) comes from an earlier answer; lesson 12 goes through every step."},
		},
		Follow: followStrings(l),
		GRPC:   grpcStrings(l),
		Eras: map[string]eraTag{
			"modern":  {Tag: "2026-07-28", Title: "a request of revision 2026-07-28: its params._meta names the revision, and it needs no session; its answer is of the same revision"},
			"session": {Tag: "2025-11-25 session", Title: "part of the 2025-11-25 session that initialize opened"},
		},
		Schema: schemaStrings(l),
		Own:    ownStrings(l),

		ExportRecording: "Export recording",
		ExportHelp:      "The session as a wirelab tap recording file: open it again (wirelab tap open FILE), check it (wirelab tap check FILE) or replay it (wirelab replay FILE --against COMMAND|URL)",
		ExportNothing:   "nothing to export yet: send a frame first",
		ExportFailed:    "the export failed: %s",
		History:         "sent before: %s",
	}
}

// grpcText is what the gRPC console says of a learner's own server (how
// the connection is secured, where the descriptors come from) and of
// bytes fields. %s stands for a field's name, or a value.
type grpcText struct {
	Security      string `json:"-"` // the label of the security choice
	Plaintext     string `json:"-"`
	SystemRoots   string `json:"-"`
	CAFile        string `json:"-"`
	CAPasted      string `json:"-"`
	CAFileHelp    string `json:"-"`              // the CA file input's placeholder
	CAPEMHelp     string `json:"-"`              // the pasted CA's placeholder
	ServerName    string `json:"-"`              // the optional name to verify
	ClientCert    string `json:"-"`              // the client certificate's choice (mutual TLS)
	ClientNone    string `json:"-"`              // its choices: none,
	ClientFiles   string `json:"-"`              // a certificate and a key file,
	ClientPasted  string `json:"-"`              // or both pasted
	CertFileHelp  string `json:"-"`              // the client certificate file's placeholder
	KeyFileHelp   string `json:"-"`              // its key file's placeholder
	CertPEMHelp   string `json:"-"`              // the pasted certificate and key's placeholder
	Descriptors   string `json:"-"`              // the label of the file input
	DescribeHelp  string `json:"-"`              // what the file input takes
	Describe      string `json:"-"`              // the button that asks for the methods
	Declared      string `json:"declared"`       // the template group of the server's methods
	Asking        string `json:"asking"`         // while the methods are asked for
	Uploading     string `json:"uploading"`      // while files are uploaded
	Methods       string `json:"methods"`        // "%d methods, from %s"
	NoMethods     string `json:"noMethods"`      // what the server declared has no methods
	BytesSent     string `json:"bytesSent"`      // "%s is sent as the bytes of %s:"
	BytesField    string `json:"bytesField"`     // a bytes field given something else
	BytesNotB64   string `json:"bytesNotBase64"` // a bytes field given text that is not base64
	BytesAsBase64 string `json:"bytesAsBase64"`  // a bytes field given base64: what it holds
}

func grpcStrings(l lang) grpcText {
	if l == ru {
		return grpcText{
			Security:      "Соединение",
			Plaintext:     "без шифрования (h2c)",
			SystemRoots:   "TLS, системные корни",
			CAFile:        "TLS, файл CA",
			CAPasted:      "TLS, вставленный CA",
			CAFileHelp:    "путь к ca.pem на этой машине",
			CAPEMHelp:     "-----BEGIN CERTIFICATE----- …",
			ServerName:    "имя для проверки (необязательно)",
			ClientCert:    "Сертификат клиента",
			ClientNone:    "нет",
			ClientFiles:   "файлы на этой машине",
			ClientPasted:  "вставлен вместе с ключом",
			CertFileHelp:  "путь к сертификату клиента (PEM)",
			KeyFileHelp:   "путь к его закрытому ключу (PEM)",
			CertPEMHelp:   "-----BEGIN CERTIFICATE----- … -----BEGIN PRIVATE KEY----- … (ключ хранится только в памяти площадки)",
			Descriptors:   "Описание методов",
			DescribeHelp:  ".proto (можно несколько) или protoset, если у сервера нет reflection",
			Describe:      "Узнать методы",
			Declared:      "методы вашего сервера",
			Asking:        "спрашиваем сервер о методах…",
			Uploading:     "загружаем…",
			Methods:       "методов: %d; источник: %s",
			NoMethods:     "сервер не объявил ни одного метода",
			BytesSent:     "%s уйдёт байтами JSON, в base64:",
			BytesField:    "%s — поле bytes: в ProtoJSON это текст base64 (\"aGVsbG8=\" — это hello); объект или массив JSON консоль сама превратит в его байты в base64",
			BytesNotB64:   "%s — поле bytes, а %s не base64: в ProtoJSON байты пишут в base64 (\"aGVsbG8=\" — это hello); объект или массив JSON консоль сама превратит в его байты",
			BytesAsBase64: "%s: base64 байтов",
		}
	}
	return grpcText{
		Security:      "Connection",
		Plaintext:     "plaintext (h2c)",
		SystemRoots:   "TLS, system roots",
		CAFile:        "TLS, CA file",
		CAPasted:      "TLS, pasted CA",
		CAFileHelp:    "path to ca.pem on this machine",
		CAPEMHelp:     "-----BEGIN CERTIFICATE----- …",
		ServerName:    "name to verify (optional)",
		ClientCert:    "Client certificate",
		ClientNone:    "none",
		ClientFiles:   "files on this machine",
		ClientPasted:  "pasted, with its key",
		CertFileHelp:  "path to the client certificate (PEM)",
		KeyFileHelp:   "path to its private key (PEM)",
		CertPEMHelp:   "-----BEGIN CERTIFICATE----- … -----BEGIN PRIVATE KEY----- … (the key is held in the playground's memory only)",
		Descriptors:   "Methods from",
		DescribeHelp:  ".proto files or a protoset, when the server has no reflection",
		Describe:      "Get methods",
		Declared:      "your server's methods",
		Asking:        "asking the server for its methods…",
		Uploading:     "uploading…",
		Methods:       "%d methods, from %s",
		NoMethods:     "the server declares no methods",
		BytesSent:     "%s is sent as the bytes of its JSON, in base64:",
		BytesField:    "%s is a bytes field: ProtoJSON writes bytes as base64 text (\"aGVsbG8=\" is hello); type a JSON object or array there and the console sends its bytes, base64-encoded",
		BytesNotB64:   "%s is a bytes field, and %s is not base64: ProtoJSON writes bytes as base64 (\"aGVsbG8=\" is hello); type a JSON object or array there and the console sends its bytes",
		BytesAsBase64: "%s: base64 of",
	}
}

// schemaText is what the form built from a JSON Schema says: a tool's
// inputSchema over a tools/call, an elicitation's requestedSchema over
// its answer (static/schemaform.js); and, in Rules, how the schema check
// (schemacheck.go) words what the JSON Schema library found. %s stands
// for a name or a value, %d for a count.
type schemaText struct {
	Arguments       string      `json:"arguments"`       // the form over a tools/call: "%s" is the tool
	PromptArguments string      `json:"promptArguments"` // the form over a prompts/get: "%s" is the prompt
	Answer          string      `json:"answer"`          // the form over an answer to elicitation/create
	AnswerKey       string      `json:"answerKey"`       // the form over an input response: "%s" is its key
	Required        string      `json:"required"`        // the tooltip of a required field's mark
	Unset           string      `json:"unset"`           // a list's empty choice: the property is left out
	AsJSON          string      `json:"asJSON"`          // under an array or object field
	NotJSON         string      `json:"notJSON"`         // such a field that does not parse: "%s" is why
	Unreadable      string      `json:"unreadable"`      // the frame is not JSON the form can read: "%s" is why
	BadSchema       string      `json:"badSchema"`       // the schema does not compile: "%s" is why
	Valid           string      `json:"valid"`           // the value passes the schema
	CheckOff        string      `json:"checkOff"`        // the check refused: the page is not on this machine
	CheckFailed     string      `json:"checkFailed"`     // the check could not run: "%s" is why
	TooMany         string      `json:"tooMany"`         // "%d" properties, of which the form shows "%d"
	Rules           schemaRules `json:"-"`
}

// schemaRules word the rules a value breaks, one per kind of finding of
// the JSON Schema library; a kind not named here keeps the library's
// own English.
type schemaRules struct {
	Required, NotKnown, Type, Enum, Const, Pattern, Format, MinLength, MaxLength string
	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum, MinItems, MaxItems     string
	NoChoice, ManyChoices                                                        string
	Types                                                                        map[string]string // the JSON types' names
}

func schemaStrings(l lang) schemaText {
	if l == ru {
		return schemaText{
			Arguments:       "Аргументы %s — форма по его inputSchema",
			PromptArguments: "Аргументы промпта %s — форма по его записи в prompts/list",
			Answer:          "Ответ на elicitation/create — форма по его requestedSchema",
			AnswerKey:       "Ответ на запрос %s — форма по его requestedSchema",
			Required:        "обязательное",
			Unset:           "— не задано —",
			AsJSON:          "в JSON",
			NotJSON:         "не JSON: %s",
			Unreadable:      "форма выключена: кадр — не JSON, который она может прочитать (%s). Отправляется кадр, а не форма.",
			BadSchema:       "схема — не JSON Schema: %s",
			Valid:           "✓ соответствует схеме",
			CheckOff:        "схему проверяет песочница, и только для страницы на этой машине; здесь форма следит лишь за типами полей",
			CheckFailed:     "проверка схемы не удалась: %s",
			TooMany:         "свойств в схеме: %d; форма показывает первые %d, остальные — в кадре",
			Rules: schemaRules{
				Required: "обязательное поле", NotKnown: "такого поля в схеме нет", Type: "ожидается %s, а пришло %s",
				Enum: "допустимо одно из: %s", Const: "должно быть %s", Pattern: "должно соответствовать %s",
				Format: "не в формате %s", MinLength: "не короче %d символов", MaxLength: "не длиннее %d символов",
				Minimum: "не меньше %s", Maximum: "не больше %s", ExclusiveMinimum: "больше %s", ExclusiveMaximum: "меньше %s",
				MinItems: "не меньше %d элементов", MaxItems: "не больше %d элементов",
				NoChoice: "не подходит ни под один из вариантов", ManyChoices: "подходит сразу под несколько вариантов",
				Types: map[string]string{"string": "строка", "number": "число", "integer": "целое число", "boolean": "true или false",
					"object": "объект", "array": "массив", "null": "null"},
			},
		}
	}
	return schemaText{
		Arguments:       "Arguments of %s, a form from its inputSchema",
		PromptArguments: "Arguments of prompt %s, a form from its entry in prompts/list",
		Answer:          "Answer to elicitation/create, a form from its requestedSchema",
		AnswerKey:       "Answer to input request %s, a form from its requestedSchema",
		Required:        "required",
		Unset:           "— not set —",
		AsJSON:          "as JSON",
		NotJSON:         "not JSON: %s",
		Unreadable:      "the form is off: the frame is not JSON it can read (%s). The frame is what is sent, not the form.",
		BadSchema:       "the schema is not valid JSON Schema: %s",
		Valid:           "✓ valid against the schema",
		CheckOff:        "the playground checks the schema, for a page on this machine only; here the form keeps to the fields' types",
		CheckFailed:     "the schema check failed: %s",
		TooMany:         "the schema has %d properties; the form shows the first %d, the rest are in the frame",
		Rules: schemaRules{
			Required: "is required", NotKnown: "is not in the schema", Type: "must be %s, not %s",
			Enum: "must be one of %s", Const: "must be %s", Pattern: "must match %s",
			Format: "is not a valid %s", MinLength: "must be at least %d characters", MaxLength: "must be at most %d characters",
			Minimum: "must be at least %s", Maximum: "must be at most %s", ExclusiveMinimum: "must be more than %s", ExclusiveMaximum: "must be less than %s",
			MinItems: "must have at least %d items", MaxItems: "must have at most %d items",
			NoChoice: "matches none of the choices", ManyChoices: "matches more than one of the choices",
			Types: map[string]string{"string": "a string", "number": "a number", "integer": "an integer", "boolean": "true or false",
				"object": "an object", "array": "an array", "null": "null"},
		},
	}
}

// ownText is what the MCP and A2A consoles say of the learner's own
// server (static/custom.js): where it is, the headers sent to it, what it
// declares; and, in Doctor, what the connection doctor
// (static/doctor.js) says beside an exchange with it that failed. %s
// stands for a host, a path, a method or a revision, %d for a count.
type ownText struct {
	ToStdio     string `json:"toStdio"`     // the placeholder of "to" for custom-stdio
	ToMCP       string `json:"toMCP"`       // ... for custom-http on the MCP console
	ToA2A       string `json:"toA2A"`       // ... for custom-http on the A2A console: the card's URL
	Headers     string `json:"headers"`     // the label of the headers box
	HeadersHelp string `json:"headersHelp"` // its placeholder
	List        string `json:"list"`        // the button that asks an MCP server what it declares
	ReadCard    string `json:"readCard"`    // the button that reads an A2A agent's card
	Declared    string `json:"declared"`    // the template group of what the server declares: "%s" is its revision
	Answered    string `json:"answered"`    // "your server answered revision %s"
	Counts      string `json:"counts"`      // "%d tools, %d resources, %d prompts"
	More        string `json:"more"`        // lists with more pages: "%s" names them
	Capped      string `json:"capped"`      // lists cut at the console's limit: "%d" is the limit, "%s" names them
	NextPage    string `json:"nextPage"`    // the template of a list's next page: "%s" is the list's method
	AnswerTask  string `json:"answerTask"`  // the A2A template that answers a task waiting for input
	Card        string `json:"card"`        // "the card of %s: endpoint %s, A2A %s, %d skills"
	NoEndpoint  string `json:"noEndpoint"`  // a card without an endpoint the console can use
	Failed      string `json:"failed"`      // the doctor's mark: "%s failed"
	// Doctor is each diagnosis: the step that failed and what to change,
	// by the name static/doctor.js gives it.
	Doctor map[string]doctorAdvice `json:"doctor"`
}

// doctorAdvice is one diagnosis of the connection doctor.
type doctorAdvice struct {
	Step   string `json:"step"`   // the step that failed, such as "connecting to %s"
	Change string `json:"change"` // what to change
}

func ownStrings(l lang) ownText {
	if l == ru {
		return ownText{
			ToStdio:     "команда, которая запускает ваш сервер, например node build/index.js",
			ToMCP:       "URL вашей точки MCP: http://127.0.0.1:3001/mcp или https://…; для своего CA добавьте -cacert ФАЙЛ",
			ToA2A:       "URL карточки вашего агента: http://127.0.0.1:9999/.well-known/agent-card.json",
			Headers:     "Заголовки для каждого запроса",
			HeadersHelp: "по одному в строке, например Authorization: Bearer …; хранятся только в этой вкладке, добавляются к запросу, где их нет; токены в журнале сокращены",
			List:        "Спросить, что объявляет сервер",
			ReadCard:    "Прочитать карточку",
			Declared:    "объявлено вашим сервером (%s)",
			Answered:    "ваш сервер ответил редакцией %s",
			Counts:      "инструментов: %d, ресурсов: %d, промптов: %d",
			More:        "есть ещё страницы: %s",
			Capped:      "шаблоны только для первых %d из списков %s (предел консоли)",
			NextPage:    "%s: следующая страница (nextCursor)",
			AnswerTask:  "ответить задаче, которая ждёт ввода",
			Card:        "карточка %s: точка %s, A2A %s, навыков: %d",
			NoEndpoint:  "в карточке нет URL точки JSON-RPC (supportedInterfaces[].url или url)",
			Failed:      "не удалось: %s",
			Doctor: map[string]doctorAdvice{
				"refused":        {"соединение с %s", "там никто не слушает: запустите сервер или исправьте хост и порт в URL"},
				"dns":            {"поиск адреса %s", "такое имя не находится: проверьте хост в URL"},
				"timeout":        {"ожидание ответа от %s", "ответа нет: сервер завис, или его закрывает файрвол"},
				"tlsUnknown":     {"рукопожатие TLS с %s", "сертификат подписан центром, которому здесь не доверяют: назовите его после URL: -cacert /путь/ca.pem"},
				"tlsName":        {"рукопожатие TLS с %s", "сертификат выдан на другое имя: возьмите в URL одно из его имён"},
				"tlsPlain":       {"рукопожатие TLS с %s", "сервер говорит обычным HTTP: напишите в URL http://"},
				"tlsClientCert":  {"рукопожатие TLS с %s", "серверу нужен сертификат клиента, которому он доверяет (взаимный TLS): дайте его с закрытым ключом, -cert ФАЙЛ -key ФАЙЛ после адреса или в настройках TLS; подписать его должен CA, которому верит сервер"},
				"plainToTLS":     {"чтение ответа %s", "сервер говорит TLS: напишите в URL https://"},
				"notFound":       {"%s", "по пути %s у сервера нет точки: укажите в URL путь точки (у серверов MCP это часто /mcp)"},
				"sessionGone":    {"сессия (Mcp-Session-Id)", "404 на запрос с Mcp-Session-Id: сервер не знает этой сессии (она закончилась, или сервер перезапущен); отправьте initialize заново"},
				"method":         {"%s", "точка не принимает %s: сообщения MCP идут методом POST; GET — только для собственного потока сервера, которого может и не быть (405)"},
				"contentType":    {"%s", "415: сервер не принял Content-Type: сообщение MCP или A2A отправляют с Content-Type: application/json"},
				"accept":         {"%s", "406: POST в MCP несёт Accept: application/json, text/event-stream (оба типа)"},
				"noSession":      {"сессия (Mcp-Session-Id)", "400 без Mcp-Session-Id: серверу редакции 2025 сначала нужен initialize, а затем выданный им Mcp-Session-Id в каждом запросе"},
				"version":        {"версия протокола", "сервер отверг MCP-Protocol-Version %s: отправьте редакцию, которой ответил initialize (%s)"},
				"legacy":         {"редакция 2026-07-28", "сервер не говорит на 2026-07-28 (сервер прежней редакции): начните с initialize, шаблоны группы 2025-11-25"},
				"discoverLegacy": {"server/discover", "сервер не знает server/discover: он прежней редакции; начните с initialize"},
				"unsupported":    {"версия протокола", "сервер не поддерживает редакцию запроса; он поддерживает: %s"},
				"auth":           {"авторизация", "401 без resource_metadata: сервер хочет токен, но не говорит, где его взять (сервер MCP присылает WWW-Authenticate: Bearer resource_metadata=\"…\"); впишите токен, которого ждёт ваш сервер, в «Заголовки», например Authorization: Bearer …"},
				"authMeta":       {"авторизация", "401: сервер называет свои метаданные авторизации (%s): получите токен по OAuth (урок 12) и впишите его в «Заголовки» как Authorization: Bearer …"},
				"forbidden":      {"%s", "403: сервер отказал (Origin не разрешён, или у токена нет нужной области): прочитайте WWW-Authenticate и тело ответа"},
				"noise":          {"чтение stdout", "сервер написал в stdout строку не JSON: в stdio stdout несёт только сообщения MCP, по одному в строке; журнал пишите в stderr"},
				"exitEarly":      {"запуск %s", "сервер завершился, не ответив: прочитайте его stderr (в строке и в панели stderr); проверьте команду: путь к программе, интерпретатор (node server.js, python3 server.py), аргументы"},
				"notStarted":     {"запуск %s", "программа не найдена или не запускается: дайте полный путь к ней или интерпретатор перед скриптом"},
				"cardMissing":    {"%s", "по этому URL нет карточки агента: агенты A2A публикуют её в /.well-known/agent-card.json (до 0.3 — /.well-known/agent.json)"},
				"a2aNotFound":    {"%s", "у агента нет точки по пути %s: возьмите URL, который называет его карточка (прочитайте карточку)"},
			},
		}
	}
	return ownText{
		ToStdio:     "the command that starts your server, such as node build/index.js",
		ToMCP:       "your MCP endpoint's URL: http://127.0.0.1:3001/mcp or https://…; for your own CA add -cacert FILE",
		ToA2A:       "your agent's card URL: http://127.0.0.1:9999/.well-known/agent-card.json",
		Headers:     "Headers for every request",
		HeadersHelp: "one a line, such as Authorization: Bearer …; kept for this tab only, added to each request that lacks them; tokens are cut short in the views",
		List:        "Ask what it declares",
		ReadCard:    "Read the card",
		Declared:    "your server declares (%s)",
		Answered:    "your server answered revision %s",
		Counts:      "%d tools, %d resources, %d prompts",
		More:        "more pages: %s",
		Capped:      "templates for the first %d only of: %s (the console's limit)",
		NextPage:    "%s: the next page (nextCursor)",
		AnswerTask:  "answer the task waiting for input",
		Card:        "the card of %s: endpoint %s, A2A %s, %d skills",
		NoEndpoint:  "the card names no JSON-RPC endpoint (supportedInterfaces[].url or url)",
		Failed:      "%s failed",
		Doctor: map[string]doctorAdvice{
			"refused":        {"connecting to %s", "nothing listens there: start your server, or fix the host and port in the URL"},
			"dns":            {"looking up %s", "the name does not resolve: check the host in the URL"},
			"timeout":        {"waiting for %s", "no answer in time: the server is stuck, or a firewall drops the connection"},
			"tlsUnknown":     {"the TLS handshake with %s", "its certificate is signed by an authority not trusted here: name the CA after the URL: -cacert /path/ca.pem"},
			"tlsName":        {"the TLS handshake with %s", "its certificate is for another name: use one of its names in the URL"},
			"tlsPlain":       {"the TLS handshake with %s", "the server speaks plain HTTP: use http:// in the URL"},
			"tlsClientCert":  {"the TLS handshake with %s", "the server wants a client certificate it trusts (mutual TLS): give one with its private key, -cert FILE -key FILE after the address or in the TLS settings; a CA the server trusts must have signed it"},
			"plainToTLS":     {"reading the answer of %s", "the server speaks TLS: use https:// in the URL"},
			"notFound":       {"%s", "the server has no endpoint at %s: put the endpoint's path in the URL (MCP servers often use /mcp)"},
			"sessionGone":    {"the session (Mcp-Session-Id)", "404 to a request with Mcp-Session-Id: the server does not know this session (it ended, or the server restarted); send initialize again"},
			"method":         {"%s", "the endpoint does not take %s: MCP messages go by POST; GET is only for the server's own stream, which a server may not offer (405)"},
			"contentType":    {"%s", "415: the server refused the Content-Type: MCP and A2A messages go with Content-Type: application/json"},
			"accept":         {"%s", "406: an MCP POST says Accept: application/json, text/event-stream (both)"},
			"noSession":      {"the session (Mcp-Session-Id)", "400 without Mcp-Session-Id: a 2025 server wants initialize first, then the Mcp-Session-Id it gives on every request"},
			"version":        {"the protocol version", "your server refused MCP-Protocol-Version %s: send the revision initialize answered (%s)"},
			"legacy":         {"revision 2026-07-28", "your server does not speak 2026-07-28 (a server of an earlier revision): open with initialize, from the 2025-11-25 templates"},
			"discoverLegacy": {"server/discover", "your server does not know server/discover: it speaks an earlier revision; open with initialize"},
			"unsupported":    {"the protocol version", "your server does not support the request's revision; it supports: %s"},
			"auth":           {"authorization", "401 without resource_metadata: the server wants a token but does not say where to get one (an MCP server sends WWW-Authenticate: Bearer resource_metadata=\"…\"); put the token your server expects in Headers, such as Authorization: Bearer …"},
			"authMeta":       {"authorization", "401: the server names its authorization metadata (%s): get a token by the OAuth flow (lesson 12), then put it in Headers as Authorization: Bearer …"},
			"forbidden":      {"%s", "403: the server refused (an Origin it does not allow, or a token without the scope): read WWW-Authenticate and the body"},
			"noise":          {"reading stdout", "your server wrote a line that is not JSON to stdout: on stdio, stdout carries only MCP messages, one a line; write logs to stderr"},
			"exitEarly":      {"starting %s", "your server exited before answering: read its stderr (in the row and in the stderr pane); check the command: the program's path, the interpreter (node server.js, python3 server.py), its arguments"},
			"notStarted":     {"starting %s", "the program was not found or would not start: give its full path, or the interpreter before the script"},
			"cardMissing":    {"%s", "no agent card at this URL: A2A agents publish it at /.well-known/agent-card.json (before 0.3: /.well-known/agent.json)"},
			"a2aNotFound":    {"%s", "the agent has no endpoint at %s: use the URL its card names (read the card)"},
		},
	}
}
