// Command fix-session-404 is a small MCP server over Streamable HTTP
// (revision 2025-11-25) that keeps sessions: POST /mcp carries one
// JSON-RPC message, DELETE /mcp ends a session. It answers initialize,
// ping and tools/list (with no tools), which is enough to show the
// session rules.
//
// It has one bug, the one README.md describes: find it and fix it.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"sync"
)

type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
}

// server holds the open sessions.
type server struct {
	mu       sync.Mutex // guards sessions
	sessions map[string]bool
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	s := &server{sessions: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", s.post)
	mux.HandleFunc("DELETE /mcp", s.delete)
	log.Printf("listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, mux))
}

func (s *server) post(w http.ResponseWriter, r *http.Request) {
	var msg message
	if err := json.NewDecoder(r.Body).Decode(&msg); err != nil {
		writeError(w, http.StatusBadRequest, nil, -32700, "parse error: "+err.Error())
		return
	}
	if msg.Method == "initialize" {
		id := newSessionID()
		s.mu.Lock()
		s.sessions[id] = true
		s.mu.Unlock()
		w.Header().Set("Mcp-Session-Id", id)
		writeResult(w, msg.ID, map[string]any{
			"protocolVersion": "2025-11-25",
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]string{"name": "fix-session-404", "version": "1.0.0"},
		})
		return
	}
	if !s.session(w, r, msg.ID) {
		return
	}
	switch {
	case msg.ID == nil:
		w.WriteHeader(http.StatusAccepted) // a notification: accepted, no body
	case msg.Method == "ping":
		writeResult(w, msg.ID, map[string]any{})
	case msg.Method == "tools/list":
		writeResult(w, msg.ID, map[string]any{"tools": []any{}})
	default:
		writeError(w, http.StatusOK, msg.ID, -32601, "unknown method "+msg.Method)
	}
}

// delete ends a session: later requests with its id get 404.
func (s *server) delete(w http.ResponseWriter, r *http.Request) {
	if !s.session(w, r, nil) {
		return
	}
	s.mu.Lock()
	delete(s.sessions, r.Header.Get("Mcp-Session-Id"))
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// session checks a request's Mcp-Session-Id. When it is missing or
// unknown, it answers the request and returns false.
func (s *server) session(w http.ResponseWriter, r *http.Request, id json.RawMessage) bool {
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" {
		writeError(w, http.StatusBadRequest, id, -32600, "no Mcp-Session-Id header: send initialize first, then its session id on every request")
		return false
	}
	s.mu.Lock()
	known := s.sessions[sid]
	s.mu.Unlock()
	if !known {
		writeError(w, http.StatusBadRequest, id, -32600, "no session "+sid)
		return false
	}
	return true
}

// newSessionID returns a random session id: visible ASCII, as the
// transport requires, and not guessable.
func newSessionID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func writeResult(w http.ResponseWriter, id json.RawMessage, result any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "result": result})
}

func writeError(w http.ResponseWriter, status int, id json.RawMessage, code int, message string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
}
