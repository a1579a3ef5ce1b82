package frames

import (
	"encoding/json"
	"strings"
)

// frames-a2a-task: read the Agent Card, send a message the agent cannot
// finish without asking (the task stops in input-required), answer in the
// same task by sending its taskId, and follow that task to completed.
// Both revisions of the protocol count: 1.0 writes states as
// TASK_STATE_INPUT_REQUIRED, 0.3 as input-required.

// cardPath is where an A2A agent publishes its card; oldCardPath is
// where revisions before 0.3 put it.
const (
	cardPath    = "/.well-known/agent-card.json"
	oldCardPath = "/.well-known/agent.json"
)

// taskState is a state some task reached in an answer.
type taskState struct {
	task     string
	state    string // normalized: "input-required", "completed", ...
	question string // the agent's words with the state, if any
}

// sendMethods are the methods that send a message, in both revisions.
var sendMethods = []string{"SendMessage", "SendStreamingMessage", "message/send", "message/stream"}

// a2aSend is a message the learner sent, read from a request.
type a2aSend struct {
	taskID string
	text   string
}

// readSend reads the message of a send request; ok is false for any
// other request.
func readSend(x exchange) (a2aSend, bool) {
	var req struct {
		Method string `json:"method"`
		Params struct {
			Message struct {
				TaskID string `json:"taskId"`
				Parts  []struct {
					Text string `json:"text"`
				} `json:"parts"`
			} `json:"message"`
		} `json:"params"`
	}
	if x.method != "POST" || json.Unmarshal([]byte(x.body), &req) != nil || !contains(sendMethods, req.Method) {
		return a2aSend{}, false
	}
	var words []string
	for _, p := range req.Params.Message.Parts {
		words = append(words, p.Text)
	}
	return a2aSend{taskID: req.Params.Message.TaskID, text: strings.Join(words, " ")}, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// states finds every task state in an exchange's answer: any object with
// a status holding a state is a task (its id) or a status update (its
// taskId), in either revision.
func (x exchange) states() []taskState {
	var out []taskState
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if st, ok := v["status"].(map[string]any); ok {
				if state, ok := st["state"].(string); ok {
					id, _ := v["taskId"].(string)
					if id == "" {
						id, _ = v["id"].(string)
					}
					out = append(out, taskState{task: id, state: normalState(state), question: statusText(st)})
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	for _, raw := range x.messages() {
		var v any
		if json.Unmarshal(raw, &v) == nil {
			walk(v)
		}
	}
	return out
}

// normalState writes a state as 0.3 does: TASK_STATE_INPUT_REQUIRED
// becomes input-required.
func normalState(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(s, "TASK_STATE_")), "_", "-")
}

// statusText is the text of a status's message, if it has one.
func statusText(status map[string]any) string {
	msg, _ := status["message"].(map[string]any)
	parts, _ := msg["parts"].([]any)
	var words []string
	for _, p := range parts {
		if p, ok := p.(map[string]any); ok {
			if t, ok := p["text"].(string); ok {
				words = append(words, t)
			}
		}
	}
	return strings.Join(words, " ")
}

// rpcFailure is the JSON-RPC error of an answer, or nil.
func (x exchange) rpcFailure() *rpcError {
	for _, e := range readAll(x.messages()) {
		if e.Error != nil {
			return e.Error
		}
	}
	return nil
}

// lastState is the latest state of task among states, or "".
func lastState(states []taskState, task string) (string, string) {
	state, question := "", ""
	for _, s := range states {
		if s.task == task {
			state, question = s.state, s.question
		}
	}
	return state, question
}

func checkA2ATask(events []Event) []Step {
	xs := httpExchanges(events, "a2a")
	cardName := text("Read the Agent Card at "+cardPath, "Прочитайте Agent Card по адресу "+cardPath)
	askName := text("Send a message the agent needs more information for: the task stops in input-required",
		"Отправьте сообщение, для которого агенту не хватит информации: задача остановится в input-required")
	endName := text("Answer in the same task, with its taskId, and follow it to completed",
		"Ответьте в той же задаче, передав её taskId, и доведите её до completed")

	// Step 1: the card.
	card := -1
	detail := text("Nothing has been sent to the a2a target yet. Open the A2A console (/console/a2a).",
		"На цель a2a пока ничего не отправлено. Откройте A2A-консоль (/console/a2a).")
	if len(xs) > 0 {
		detail = text("No GET of %s yet: the card says what the agent can do before you ask it anything.",
			"GET %s ещё не было: карточка говорит, что умеет агент, до того как его о чём-то просить.", cardPath)
	}
	for i, x := range xs {
		if x.method == "GET" && x.path == cardPath && x.status == 200 {
			card = i
			break
		}
		switch x.path {
		case oldCardPath:
			detail = text("%s is where revisions before 0.3 kept the card; it now lives at %s.",
				"%s — адрес карточки в редакциях до 0.3; теперь она лежит по адресу %s.", oldCardPath, cardPath)
		case cardPath:
			detail = text("%s %s got %s.", "%s %s: %s.", x.method, cardPath, x.outcome())
		}
	}
	if card < 0 {
		return []Step{missing(cardName, detail), waiting(askName), waiting(endName)}
	}
	var c struct {
		Skills []struct {
			ID string `json:"id"`
		} `json:"skills"`
	}
	json.Unmarshal([]byte(xs[card].rbody), &c)
	var skills []string
	for _, s := range c.Skills {
		skills = append(skills, s.ID)
	}
	steps := []Step{done(cardName, text("GET %s: 200; the card lists the skills %s.", "GET %s: 200; в карточке навыки: %s.",
		cardPath, strings.Join(skills, ", ")))}

	// Step 2: a task that asks a question.
	asked, task, question := -1, "", ""
	detail = text("No message sent since the card.", "После карточки сообщений не было.")
	for i := card + 1; i < len(xs) && asked < 0; i++ {
		if send, ok := readSend(xs[i]); !ok || send.taskID != "" {
			continue // not a message, or one that goes on with an earlier task
		}
		for _, s := range xs[i].states() {
			if s.state == "input-required" {
				asked, task, question = i, s.task, s.question
				break
			}
		}
		if states := xs[i].states(); asked < 0 && len(states) > 0 {
			last := states[len(states)-1]
			detail = text("Your message made task %s, which went to %s: the agent had all it needed, or could not help. Ask for something it must ask you about first.",
				"Ваше сообщение создало задачу %s, и она перешла в состояние %s: агенту хватило сведений или он не смог помочь. Попросите о том, о чём ему придётся сначала переспросить.", last.task, last.state)
		} else if e := xs[i].rpcFailure(); asked < 0 && e != nil {
			detail = text("The message got a JSON-RPC error %d (%s).", "Ответ на сообщение: ошибка JSON-RPC %d (%s).", e.Code, short(e.Message))
		}
	}
	if asked < 0 {
		return append(steps, missing(askName, detail), waiting(endName))
	}
	steps = append(steps, done(askName, text("Task %s stopped in input-required; the agent asks: %q", "Задача %s остановилась в input-required; агент спрашивает: %q",
		task, question)))

	// Step 3: the answer, in the same task, followed to completed.
	detail = text("No answer to task %s yet. Send a message that carries \"taskId\": %q.",
		"Ответа в задаче %s пока нет. Отправьте сообщение с \"taskId\": %q.", task, task)
	answered := false
	var seen []taskState
	for _, x := range xs[asked+1:] {
		seen = append(seen, x.states()...)
		send, ok := readSend(x)
		switch {
		case ok && send.taskID == task:
			answered = true
		case ok && send.taskID == "" && !answered:
			if states := x.states(); len(states) > 0 {
				last := states[len(states)-1]
				detail = text("Your answer %q went without a taskId, so it started a new task, %s, which went to %s. Send it with \"taskId\": %q.",
					"Ваш ответ %q ушёл без taskId, поэтому начал новую задачу %s, и та перешла в состояние %s. Отправьте его с \"taskId\": %q.", short(send.text), last.task, last.state, task)
			}
		case ok && !answered:
			if e := x.rpcFailure(); e != nil {
				detail = text("Your answer named task %s and got a JSON-RPC error %d (%s). The waiting task is %s.",
					"Ваш ответ указал задачу %s и получил ошибку JSON-RPC %d (%s). Ждёт ответа задача %s.", send.taskID, e.Code, short(e.Message), task)
			}
		}
		if !answered {
			continue
		}
		state, words := lastState(seen, task)
		if state == "completed" {
			return append(steps, done(endName, text("Task %s went on with your answer and reached completed: %s",
				"Задача %s продолжилась с вашим ответом и дошла до completed: %s", task, short(words))))
		}
		if state != "" {
			detail = text("Task %s is %s now. Follow it until it is completed: stream the answer, or ask with GetTask.",
				"Задача %s сейчас в состоянии %s. Следите за ней до completed: получайте ответ потоком или спрашивайте GetTask.", task, state)
		}
	}
	return append(steps, missing(endName, detail))
}

func a2aTaskSolution() []Frame {
	post := func(body string) string {
		return "POST / HTTP/1.1\nHost: {{host}}\nA2A-Version: 1.0\nContent-Type: application/json\n\n" + body
	}
	return []Frame{
		{Target: "a2a", Text: "GET " + cardPath + " HTTP/1.1\nHost: {{host}}\n\n"},
		{Target: "a2a", Text: post(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"deploy api-gateway"}]}}}`)},
		{Target: "a2a", Text: post(`{"jsonrpc":"2.0","id":2,"method":"SendStreamingMessage","params":{"message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"staging"}],"taskId":"{{task}}"}}}`)},
	}
}
