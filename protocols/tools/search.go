package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"sort"
	"strings"
	"unicode"
)

//go:embed corpus.json
var corpusJSON []byte

// Note is one of the short notes the search tool searches. MCP also
// serves them as resources.
type Note struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Body  string `json:"body"`
}

// Notes returns the notes, ordered by id.
func Notes() []Note {
	var notes []Note
	if err := json.Unmarshal(corpusJSON, &notes); err != nil {
		panic("tools: corpus.json: " + err.Error()) // embedded at build time
	}
	sort.Slice(notes, func(i, j int) bool { return notes[i].ID < notes[j].ID })
	return notes
}

type searchIn struct {
	Q     string `json:"q"`
	Limit int    `json:"limit"`
}

type hit struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
	Score   int    `json:"score"`
}

type searchOut struct {
	Hits  []hit `json:"hits"`
	Total int   `json:"total"`
}

// defaultSearchLimit is how many hits a search returns when the caller
// does not say; the schema's "default" keyword documents the same number.
const defaultSearchLimit = 3

// search ranks a small embedded corpus of notes about the protocols by how
// often the query's words appear (title words count double). It is
// deterministic: equal scores are ordered by id.
func search() *Tool {
	corpus := Notes()
	return &Tool{
		Definition: Definition{
			Name:        "search",
			Description: "Search wirelab's short notes on tool protocols. Returns the best hits first.",
			InputSchema: schema(`{
				"type": "object",
				"properties": {
					"q": {"type": "string", "minLength": 1, "description": "Words to look for."},
					"limit": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3, "description": "At most this many hits."}
				},
				"required": ["q"],
				"additionalProperties": false
			}`),
			OutputSchema: schema(`{
				"type": "object",
				"properties": {
					"hits": {
						"type": "array",
						"items": {
							"type": "object",
							"properties": {
								"id": {"type": "string"},
								"title": {"type": "string"},
								"snippet": {"type": "string"},
								"score": {"type": "integer"}
							},
							"required": ["id", "title", "snippet", "score"]
						}
					},
					"total": {"type": "integer", "description": "How many notes matched, before the limit."}
				},
				"required": ["hits", "total"],
				"additionalProperties": false
			}`),
			Version: "1.0",
		},
		Run: typed(func(_ context.Context, in searchIn, _ func(Progress)) (searchOut, error) {
			if in.Limit == 0 {
				in.Limit = defaultSearchLimit
			}
			return rank(corpus, in.Q, in.Limit), nil
		}),
	}
}

func rank(corpus []Note, q string, limit int) searchOut {
	terms := words(q)
	out := searchOut{Hits: []hit{}}
	for _, d := range corpus {
		score := 0
		title, body := words(d.Title), words(d.Body)
		for _, t := range terms {
			score += 2*count(title, t) + count(body, t)
		}
		if score > 0 {
			out.Hits = append(out.Hits, hit{ID: d.ID, Title: d.Title, Snippet: firstSentence(d.Body), Score: score})
		}
	}
	sort.Slice(out.Hits, func(i, j int) bool {
		if out.Hits[i].Score != out.Hits[j].Score {
			return out.Hits[i].Score > out.Hits[j].Score
		}
		return out.Hits[i].ID < out.Hits[j].ID
	})
	out.Total = len(out.Hits)
	if len(out.Hits) > limit {
		out.Hits = out.Hits[:limit]
	}
	return out
}

// words lowercases s and splits it into runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

func count(ws []string, t string) int {
	n := 0
	for _, w := range ws {
		if w == t {
			n++
		}
	}
	return n
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}
