package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wirelab/wirelab/protocols/tools"
)

// agent is the deterministic agent behind the server: no model and no
// network. It reads the first word of the caller's first message and
// uses the shared tool catalogue, and its skills are chosen so that a
// task can reach every state:
//
//	count TEXT       completed at once, with an artifact
//	search WORDS     completed at once, with an artifact
//	deploy SERVICE   input-required (which environment?), then working,
//	                 with progress and the deploy log streamed in chunks,
//	                 then completed; cancelable midway; auth-required for
//	                 production without the deploy:production scope
//	weather CITY     failed (the upstream service is down)
//	anything else    rejected
type agent struct {
	cat    *tools.Catalogue
	now    func() time.Time
	lastID atomic.Int64 // numbers the ids of the agent's messages and artifacts
}

// run takes a task one step further after a message from the caller: to
// completion, or until it needs the caller again. allow says which scopes
// the caller holds (nil: all). When ctx ends (the task was canceled) it
// stops; the canceler has already set the state.
func (a *agent) run(ctx context.Context, s *store, id string, allow func(tools.Scope) bool) {
	t, err := s.get(id)
	if err != nil {
		return
	}
	verb, rest, _ := strings.Cut(strings.TrimSpace(firstText(t.History, RoleUser)), " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(verb) {
	case "count":
		a.callTool(ctx, s, t, "word_count", map[string]any{"text": rest})
	case "search":
		a.callTool(ctx, s, t, "search", map[string]any{"q": rest})
	case "weather":
		a.callTool(ctx, s, t, "weather", map[string]any{"city": rest})
	case "deploy":
		a.deploy(ctx, s, t, rest, allow)
	default:
		a.setState(s, t, StateRejected, fmt.Sprintf(
			"I can count (count TEXT), search notes (search WORDS), deploy (deploy SERVICE) and check the weather (weather CITY); I do not know how to %q.", verb))
	}
}

// callTool runs one tool and finishes the task with its result as an
// artifact, or fails it with the tool's error.
func (a *agent) callTool(ctx context.Context, s *store, t Task, name string, args map[string]any) {
	a.setState(s, t, StateWorking, "")
	raw, _ := json.Marshal(args)
	out, err := a.cat.Call(ctx, tools.Request{Name: name, Args: raw}, nil)
	if err != nil {
		a.setState(s, t, StateFailed, err.Error())
		return
	}
	a.addArtifact(s, t, Artifact{ArtifactID: a.newID("artifact"), Name: name + " result", Parts: []Part{DataPart(out)}}, false, true)
	a.setState(s, t, StateCompleted, "")
}

// deploy asks for the environment if the caller did not say, checks the
// caller may deploy there, then deploys, streaming each step.
func (a *agent) deploy(ctx context.Context, s *store, t Task, service string, allow func(tools.Scope) bool) {
	env := ""
	for _, m := range t.History {
		for _, w := range strings.Fields(strings.ToLower(textOf(m))) {
			if w == "staging" || w == "production" {
				env = w
			}
		}
	}
	words := strings.Fields(service)
	if len(words) == 0 {
		a.setState(s, t, StateRejected, `say which service to deploy: "deploy SERVICE", e.g. "deploy api-gateway"`)
		return
	}
	service = words[0]
	if env == "" {
		a.setState(s, t, StateInputRequired, fmt.Sprintf("Deploy %s to which environment: staging or production?", service))
		return
	}
	req := tools.Request{Name: "deploy_service", Args: fmt.Appendf(nil, `{"service":%q,"env":%q}`, service, env)}
	for _, scope := range a.cat.Needs(req) {
		if allow != nil && !allow(scope) {
			a.setState(s, t, StateAuthRequired, fmt.Sprintf(
				"Deploying to %s needs a token with the %s scope. Send your answer again with such a token, in this task.", env, scope))
			return
		}
	}
	a.setState(s, t, StateWorking, fmt.Sprintf("Deploying %s to %s.", service, env))
	logID := a.newID("artifact")
	first := true
	out, err := a.cat.Call(ctx, req, &tools.CallOptions{Allow: allow, Progress: func(p tools.Progress) {
		a.setState(s, t, StateWorking, fmt.Sprintf("%s (%d/%d)", p.Message, p.Done, p.Total))
		// The log grows one line per step: the first chunk creates the
		// artifact, the others are appended to it.
		a.addArtifact(s, t, Artifact{ArtifactID: logID, Name: "deploy log", Parts: []Part{TextPart(p.Message + ": done\n")}}, !first, false)
		first = false
	}})
	switch {
	case errors.Is(err, context.Canceled), ctx.Err() != nil:
		return // canceled: the canceler set the state
	case err != nil:
		a.setState(s, t, StateFailed, err.Error())
		return
	}
	a.addArtifact(s, t, Artifact{ArtifactID: logID, Name: "deploy log", Parts: []Part{TextPart("deployed\n")}}, true, true)
	a.addArtifact(s, t, Artifact{ArtifactID: a.newID("artifact"), Name: "deployment", Parts: []Part{DataPart(out)}}, false, true)
	a.setState(s, t, StateCompleted, fmt.Sprintf("Deployed %s to %s.", service, env))
}

// setState moves the task to a state, with a message from the agent if
// text is not empty, and publishes the change.
func (a *agent) setState(s *store, t Task, state TaskState, text string) {
	s.update(t.ID, func(task *Task) []StreamResponse {
		now := a.now().UTC()
		task.Status = TaskStatus{State: state, Timestamp: &now}
		if text != "" {
			m := Message{MessageID: a.newID("msg"), ContextID: task.ContextID, TaskID: task.ID, Role: RoleAgent, Parts: []Part{TextPart(text)}}
			task.Status.Message = &m
			task.History = append(task.History, m)
		}
		return []StreamResponse{{StatusUpdate: &TaskStatusUpdateEvent{TaskID: task.ID, ContextID: task.ContextID, Status: task.Status}}}
	})
}

// addArtifact adds an artifact to the task, or, with appendParts, adds
// its parts to the artifact with the same id; lastChunk says it is whole.
func (a *agent) addArtifact(s *store, t Task, art Artifact, appendParts, lastChunk bool) {
	s.update(t.ID, func(task *Task) []StreamResponse {
		found := false
		for i := range task.Artifacts {
			if task.Artifacts[i].ArtifactID == art.ArtifactID && appendParts {
				task.Artifacts[i].Parts = append(append([]Part(nil), task.Artifacts[i].Parts...), art.Parts...)
				found = true
			}
		}
		if !found {
			task.Artifacts = append(task.Artifacts, art)
		}
		return []StreamResponse{{ArtifactUpdate: &TaskArtifactUpdateEvent{
			TaskID: task.ID, ContextID: task.ContextID, Artifact: art, Append: appendParts, LastChunk: lastChunk}}}
	})
}

func (a *agent) newID(kind string) string { return fmt.Sprintf("%s-%d", kind, a.lastID.Add(1)) }

// firstText is the text of the first message from role.
func firstText(history []Message, role Role) string {
	for _, m := range history {
		if m.Role == role {
			return textOf(m)
		}
	}
	return ""
}

// textOf joins a message's text parts.
func textOf(m Message) string {
	var b strings.Builder
	for _, p := range m.Parts {
		if p.Text != nil {
			b.WriteString(*p.Text)
		}
	}
	return b.String()
}
