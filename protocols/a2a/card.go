package a2a

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"

	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// cardMaxAge is how long a client may keep the card without asking
// again. The card changes only when the server restarts with other
// options, so a few minutes is safe; the ETag makes asking again cheap.
const cardMaxAge = "max-age=300"

// Card is the agent's card as a caller that reached the server at host
// sees it. One URL serves both revisions, so the card lists the same
// endpoint twice, once per protocolVersion: a 1.0 client picks the first,
// and a 0.3 client reads the url, protocolVersion and preferredTransport
// that CardJSON adds.
func (s *Server) Card(host string) AgentCard {
	url := "http://" + host + Endpoint
	yes, no := true, false
	card := AgentCard{
		Name:        "wirelab agent",
		Description: "A deterministic agent for learning A2A: it counts words, searches notes, deploys services (asking which environment first) and fails or refuses on purpose. No model, no network.",
		SupportedInterfaces: []AgentInterface{
			{URL: url, ProtocolBinding: "JSONRPC", ProtocolVersion: Version10},
			{URL: url, ProtocolBinding: "JSONRPC", ProtocolVersion: Version03},
		},
		Provider:           &AgentProvider{Organization: "wirelab", URL: "https://github.com/wirelab/wirelab"},
		Version:            s.version,
		Capabilities:       AgentCapabilities{Streaming: &yes, PushNotifications: &no, ExtendedAgentCard: &no},
		DefaultInputModes:  inputModes,
		DefaultOutputModes: outputModes,
		Skills: []AgentSkill{
			{ID: "count", Name: "Count words", Tags: []string{"text", "completes"},
				Description: "Counts the words and characters of a text; the task completes at once with a data artifact.",
				Examples:    []string{"count read the wire"}},
			{ID: "search", Name: "Search notes", Tags: []string{"search", "completes"},
				Description: "Searches the course's notes; the task completes with the matches as an artifact.",
				Examples:    []string{"search streaming"}},
			{ID: "deploy", Name: "Deploy a service", Tags: []string{"deploy", "input-required", "streaming", "cancelable"},
				Description: "Asks which environment (input-required), then deploys step by step, streaming progress and the log in chunks; cancel it midway to see canceled. Production needs a token with the deploy:production scope (auth-required).",
				Examples:    []string{"deploy api-gateway", "deploy api-gateway to staging"}},
			{ID: "weather", Name: "Weather (always fails)", Tags: []string{"fails"},
				Description: "Its upstream service is down, so the task fails: a tool failure, not a protocol error.",
				Examples:    []string{"weather Oslo"}},
		},
	}
	if card.Version == "" {
		card.Version = "dev"
	}
	if s.tokens.Enabled() {
		// Every call needs a token. (CardJSON writes the requirement
		// in the 0.3 form only, because of a bug in the Go SDK's 1.0
		// card reader.)
		card.SecuritySchemes = map[string]SecurityScheme{
			"bearer": {HTTPAuthSecurityScheme: &HTTPAuthSecurityScheme{Scheme: "Bearer",
				Description: "a token given to the server with --token; deploy:production scope for production deploys"}},
		}
		card.SecurityRequirements = []SecurityRequirement{{Schemes: map[string]StringList{"bearer": {List: []string{}}}}}
	}
	return card
}

// serveCard serves the card with caching headers: Cache-Control says how
// long to keep it, and the ETag lets a client ask "has it changed?" with
// If-None-Match and get 304 Not Modified, without a body, if not.
func (s *Server) serveCard(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		httpError(w, r, http.StatusMethodNotAllowed, jsonrpc.CodeInvalidRequest, "the agent card is read with GET")
		return
	}
	body, err := CardJSON(s.Card(r.Host))
	if err != nil {
		httpError(w, r, http.StatusInternalServerError, jsonrpc.CodeInternalError, err.Error())
		return
	}
	sum := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(sum[:8]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", cardMaxAge)
	h.Set("Vary", "Host") // the card names the host it was reached at
	for _, tag := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if t := strings.TrimSpace(tag); t == etag || t == "W/"+etag || t == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	body = append(body, '\n')
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}
