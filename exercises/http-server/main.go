// Command http-server is your tool server over HTTP. README.md says what
// it must do; check your work with
//
//	wirelab grade http-server
//
// README.ru.md — то же, что README.md, по-русски.
//
// The grader starts this program with --addr 127.0.0.1:PORT and sends it
// requests such as
//
//	POST /execute HTTP/1.1
//	Authorization: Bearer reader
//	Content-Type: application/json
//
//	{"name":"word_count","args":{"text":"read the wire"}}
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
)

// request is the body of a call. Over HTTP every answer comes back on the
// exchange that asked for it, so a call needs no id.
type request struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// response is the body of every answer, errors included: exactly one of
// result and error.
type response struct {
	Result any        `json:"result,omitempty"`
	Error  *callError `json:"error,omitempty"`
}

// callError is a call that cannot be carried out: a code for programs, a
// message for people. The HTTP status code goes in the status line.
type callError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()

	// TODO (step 2): the server accepts two bearer tokens, "reader" with
	// no scopes and "ops" with the scope "deploy:production". Keep them in
	// a map from token to scopes, and give execute a way to reach it (a
	// struct with a ServeHTTP method, or a closure).

	mux := http.NewServeMux()
	// Register the path only. A pattern with a method, "POST /execute",
	// makes the mux answer other methods itself, in plain text, not JSON.
	mux.HandleFunc("/execute", execute)
	log.Printf("http-server: listening on http://%s/execute", *addr) // log writes to stderr
	log.Fatal(http.ListenAndServe(*addr, mux))
}

// execute answers one request to /execute. For now it refuses everything.
//
// TODO (step 1): a call is a POST. Answer any other method with 405, an
// Allow: POST header and a method_not_allowed error.
//
// TODO (step 2): read the Authorization header, "Bearer TOKEN". With no
// header, another scheme, or a token you do not know, answer 401 with a
// WWW-Authenticate: Bearer realm="http-server" header. Do this before
// reading the body.
//
// TODO (step 3): decode the body into a request (415 if it is not sent as
// application/json, 400 if it is not JSON), then run the tool: 404 for a
// tool that does not exist, 422 for bad arguments, and 403 when
// deploy_service deploys to production with a token that lacks the
// deploy:production scope. A result goes back with 200.
func execute(w http.ResponseWriter, r *http.Request) {
	reply(w, http.StatusNotImplemented, response{Error: &callError{Code: "not_implemented", Message: "this server does not answer calls yet"}})
}

// reply writes one answer. Keep the order of its lines: WriteHeader sends
// the status line and the headers, so a header set after it is never
// sent. Set other headers (Allow, WWW-Authenticate) before calling reply.
func reply(w http.ResponseWriter, status int, body response) {
	b, err := json.Marshal(body)
	if err != nil {
		log.Printf("http-server: encoding an answer: %v", err)
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"internal","message":"encoding the answer failed"}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
