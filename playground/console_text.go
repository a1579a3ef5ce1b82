package playground

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
	Answer       string    `json:"answer"`
	Fixed        string    `json:"fixed"`
	CopyAs       string    `json:"copyAs"`
	Connected    string    `json:"connected"`
	Closed       string    `json:"closed"`
	Watching     string    `json:"watchingSession"`
	Earlier      string    `json:"earlier"`
	NoBytes      string    `json:"noBytes"`
	You          string    `json:"you"` // the learner's lifeline in the sequence diagram
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
			Answer:       "Ответить",
			Fixed:        "исправлен",
			CopyAs:       "Копировать как %s",
			Connected:    "подключено",
			Closed:       "соединение закрыто; следующая отправка подключит заново (серверы stdio стартуют заново)",
			Watching:     "только просмотр: сессия %s",
			Earlier:      "— выше: до перезагрузки страницы —",
			NoBytes:      "байтов этого вызова здесь нет: байты вызова gRPC приходят с его записью, вместе с ответом",
			You:          "вы",
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
		Answer:       "Answer",
		Fixed:        "fixed",
		CopyAs:       "Copy as %s",
		Connected:    "connected",
		Closed:       "the connection closed; the next send reconnects (stdio servers start afresh)",
		Watching:     "watching session %s, read only",
		Earlier:      "— above: before the page was reloaded —",
		NoBytes:      "no bytes of this call here: a gRPC call's bytes come with its capture, in the answer",
		You:          "you",
	}
}
