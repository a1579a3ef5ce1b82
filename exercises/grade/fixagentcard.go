package grade

import (
	"net/http"
	"strings"
)

// FixAgentCardPath grades the fix-agent-card-path exercise: an A2A
// agent's card, given with one bug, that must be served where A2A 1.0
// clients look for it.
func FixAgentCardPath() *Grader {
	return &Grader{
		Exercise: "fix-agent-card-path",
		Stages: []Stage{
			{Name: "serves its card at agent-card.json", Run: fixCardPath},
			{Name: "names the address it listens on", Run: fixCardURL},
		},
	}
}

const (
	hintCardPath = `A2A 0.3 renamed the card's well-known path: clients now ask for /.well-known/agent-card.json, and a card served only at the old /.well-known/agent.json is never found. Serve it at the new path (and at the old one too, if older clients matter).`
	hintCardURL  = `The card's supportedInterfaces[].url is where clients send their messages, so it must be an address they can reach: build it from the request's Host (or a flag), not from a constant written for one machine.`
)

// wantCard is the card as far as the grader checks it.
const wantCard = `{"name":"<string>","supportedInterfaces":[{"url":"<string>","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"skills":"<any>"}`

func fixCardPath(t *T) error {
	return httpRun(t, []HTTPCall{{
		What: "the Agent Card at its well-known path", Method: http.MethodGet, Path: "/.well-known/agent-card.json",
		Status: http.StatusOK, Want: wantCard, HintFor: map[int]string{http.StatusNotFound: hintCardPath},
	}})
}

func fixCardURL(t *T) error {
	p, addr, err := t.StartServer()
	if err != nil {
		return err
	}
	want := `{"supportedInterfaces":[{"url":"http://` + addr + `/"}]}`
	err = p.ExpectHTTP(addr, HTTPCall{
		What: "the Agent Card's interface URL", Method: http.MethodGet, Path: "/.well-known/agent-card.json",
		Status: http.StatusOK, Want: want, Hint: hintCardURL,
	})
	return hidePort(err, addr)
}

// hidePort replaces a listening address in a failure with
// 127.0.0.1:PORT, so that reports are the same from one run to the
// next.
func hidePort(err error, addr string) error {
	if f, ok := err.(*Failure); ok {
		hide := func(s string) string { return strings.ReplaceAll(s, addr, "127.0.0.1:PORT") }
		f.Summary, f.SummaryRU, f.Sent, f.Expected, f.Stderr = hide(f.Summary), hide(f.SummaryRU), hide(f.Sent), hide(f.Expected), hide(f.Stderr)
		if f.Offset == nil {
			f.Got = hide(f.Got)
		}
	}
	return err
}
