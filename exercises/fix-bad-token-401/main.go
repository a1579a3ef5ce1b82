// Command fix-bad-token-401 is a small HTTP tool server with bearer
// tokens. POST /deploy deploys a service; it needs a token with the
// deploy scope.
//
// It has one bug, the one README.md describes: find it and fix it.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
	"slices"
	"strings"
)

// tokens are the tokens this server knows, with their scopes.
var tokens = map[string][]string{
	"ops-token":    {"deploy"},
	"reader-token": {"read"},
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /deploy", deploy)
	log.Printf("listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, mux))
}

func deploy(w http.ResponseWriter, r *http.Request) {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	scopes, known := tokens[token]
	switch {
	case !strings.EqualFold(scheme, "Bearer") || token == "":
		w.Header().Set("WWW-Authenticate", `Bearer realm="deploy"`)
		writeError(w, http.StatusUnauthorized, "invalid_token", "no bearer token")
		return
	case !known:
		// A token, but a wrong one: access denied.
		w.Header().Set("WWW-Authenticate", `Bearer realm="deploy", error="invalid_token"`)
		writeError(w, http.StatusForbidden, "invalid_token", "unknown token")
		return
	case !slices.Contains(scopes, "deploy"):
		// Known caller, missing permission: 403.
		w.Header().Set("WWW-Authenticate", `Bearer realm="deploy", error="insufficient_scope", scope="deploy"`)
		writeError(w, http.StatusForbidden, "insufficient_scope", "this token may not deploy")
		return
	}
	var in struct {
		Service string `json:"service"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Service == "" {
		writeError(w, http.StatusBadRequest, "bad_request", `the body must be {"service":"..."}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"service": in.Service, "status": "deployed"})
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"code": code, "message": message}})
}
