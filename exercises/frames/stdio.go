package frames

import (
	"encoding/json"
	"strings"

	"github.com/wirelab/wirelab/exercises"
)

// frames-stdio-errors: the stdio server answers every line, even a
// broken one, and keeps serving. Three kinds of line matter: one that is
// not JSON, one whose keys a Go struct without JSON tags would write
// ("Name", "Args"), and a good call afterwards.

// stdioAnswer is a stdio server's answer line, read.
type stdioAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func readStdioAnswer(l line) (stdioAnswer, bool) {
	var a stdioAnswer
	if !l.answered || json.Unmarshal([]byte(l.answer), &a) != nil {
		return stdioAnswer{}, false
	}
	return a, true
}

// capitalKey returns a key of the line that is a request key spelled
// with capitals ("Name" for "name"), or "".
func capitalKey(text string) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &obj) != nil {
		return ""
	}
	for k := range obj {
		switch lower := strings.ToLower(k); {
		case k == lower:
		case lower == "id", lower == "name", lower == "args", lower == "version":
			return k
		}
	}
	return ""
}

// callsWordCount reports whether the line asks for word_count, with the
// keys spelled as the protocol spells them.
func callsWordCount(text string) bool {
	var req struct {
		Name string `json:"name"`
	}
	return json.Unmarshal([]byte(text), &req) == nil && req.Name == "word_count" && capitalKey(text) == ""
}

func (a stdioAnswer) describe() exercises.Text {
	if a.Error != nil {
		return text("the error %s (%s)", "ошибка %s (%s)", a.Error.Code, short(a.Error.Message))
	}
	return text("the result %s", "результат %s", short(string(a.Result)))
}

func checkStdioErrors(events []Event) []Step {
	lines := stdioLines(events, "stdio")
	steps := make([]Step, 0, 3)

	// Step 1: a line that is not JSON, answered with parse_error.
	name := text("Send a line that is not JSON: the server answers it with parse_error",
		"Отправьте строку, которая не JSON: сервер ответит на неё parse_error")
	parsed := -1
	detail := text("Every line so far was valid JSON. Type one that is not JSON at all.",
		"Пока все строки были корректным JSON. Введите строку, которая вообще не JSON.")
	for i, l := range lines {
		if json.Valid([]byte(l.text)) {
			continue
		}
		a, ok := readStdioAnswer(l)
		switch {
		case ok && a.Error != nil && a.Error.Code == "parse_error":
			parsed = i
		case !l.answered:
			detail = text("The line %q has no answer yet. If the server was restarted, send it again.",
				"На строку %q ответа пока нет. Если сервер перезапускался, отправьте её ещё раз.", short(l.text))
		default:
			detail = text("The line %q was answered with %s, not parse_error.",
				"На строку %q пришёл ответ: %s, а не parse_error.", short(l.text), a.describe())
		}
		if parsed >= 0 {
			break
		}
	}
	if parsed >= 0 {
		steps = append(steps, done(name, text("%q was answered with parse_error, and the server kept reading.",
			"На %q пришёл ответ parse_error, и сервер продолжил читать.", short(lines[parsed].text))))
	} else {
		steps = append(steps, missing(name, detail))
	}

	// Step 2: "Name" instead of "name", answered with an error.
	name = text(`Send JSON with the key "Name" instead of "name": the server answers it with an error`,
		`Отправьте JSON с ключом "Name" вместо "name": сервер ответит ошибкой`)
	capital := -1
	detail = text(`No line so far had a key spelled with a capital, such as "Name". That is what a Go struct without JSON tags sends.`,
		`Пока ни в одной строке не было ключа с заглавной буквы, вроде "Name". Именно так пишет структура Go без JSON-тегов.`)
	for i, l := range lines {
		key := capitalKey(l.text)
		if key == "" {
			continue
		}
		a, ok := readStdioAnswer(l)
		if ok && a.Error != nil {
			capital = i
			steps = append(steps, done(name, text(`The key %q was refused with %s: the server does not guess what was meant.`,
				`Ключ %q отклонён: %s. Сервер не угадывает, что имелось в виду.`, key, a.describe())))
			break
		}
		if !l.answered {
			detail = text("The line %q has no answer yet. If the server was restarted, send it again.",
				"На строку %q ответа пока нет. Если сервер перезапускался, отправьте её ещё раз.", short(l.text))
		} else {
			detail = text("The line %q was answered with %s.", "На строку %q пришёл ответ: %s.", short(l.text), a.describe())
		}
	}
	if capital < 0 {
		steps = append(steps, missing(name, detail))
	}

	// Step 3: a good word_count after both bad lines.
	name = text("Then call word_count correctly: the server still serves, and answers with a result",
		"Затем правильно вызовите word_count: сервер по-прежнему работает и отвечает результатом")
	if parsed < 0 || capital < 0 {
		return append(steps, waiting(name))
	}
	after := max(lines[parsed].seq, lines[capital].seq)
	detail = text("No word_count call since the bad lines. Send one to see that the server kept serving.",
		"После плохих строк вызова word_count ещё не было. Отправьте его и убедитесь, что сервер продолжает работать.")
	for _, l := range lines {
		if l.seq <= after || !callsWordCount(l.text) {
			continue
		}
		a, ok := readStdioAnswer(l)
		if ok && a.Error == nil && a.Result != nil {
			return append(steps, done(name, text("After the bad lines, word_count answered with %s.",
				"После плохих строк word_count ответил: %s.", a.describe())))
		}
		if ok {
			detail = text(`word_count was answered with %s. Check the arguments: {"text": "..."} under "args".`,
				`На word_count пришёл ответ: %s. Проверьте аргументы: {"text": "..."} внутри "args".`, a.describe())
		}
	}
	return append(steps, missing(name, detail))
}

func stdioErrorsSolution() []Frame {
	return []Frame{
		{Target: "stdio", Text: "hello"},
		{Target: "stdio", Text: `{"id":1,"Name":"word_count","Args":{"text":"read the wire"}}`},
		{Target: "stdio", Text: `{"id":2,"name":"word_count","args":{"text":"read the wire"}}`},
	}
}
