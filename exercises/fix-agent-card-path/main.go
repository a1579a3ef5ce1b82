// Command fix-agent-card-path serves the Agent Card of an A2A agent: the
// JSON document that says who the agent is, where to send it messages
// and what it can do.
//
// It has one bug, the one README.md describes: find it and fix it.
// README.ru.md — то же, что README.md, по-русски.
package main

import (
	"encoding/json"
	"flag"
	"log"
	"net/http"
)

type agentCard struct {
	Name                string           `json:"name"`
	Description         string           `json:"description"`
	Version             string           `json:"version"`
	SupportedInterfaces []agentInterface `json:"supportedInterfaces"`
	Capabilities        struct{}         `json:"capabilities"`
	DefaultInputModes   []string         `json:"defaultInputModes"`
	DefaultOutputModes  []string         `json:"defaultOutputModes"`
	Skills              []agentSkill     `json:"skills"`
}

type agentInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
}

type agentSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	flag.Parse()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent.json", card)
	log.Printf("listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, mux))
}

// card writes the Agent Card. Its URL is built from the Host the client
// used, so the card is right wherever the agent listens.
func card(w http.ResponseWriter, r *http.Request) {
	c := agentCard{
		Name:        "word-counter",
		Description: "Counts the words in a text.",
		Version:     "1.0.0",
		SupportedInterfaces: []agentInterface{
			{URL: "http://" + r.Host + "/", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"},
		},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills: []agentSkill{
			{ID: "count", Name: "Count words", Description: "Counts the words and characters of a text.", Tags: []string{"text"}},
		},
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(c)
}
