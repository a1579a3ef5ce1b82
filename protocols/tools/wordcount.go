package tools

import (
	"context"
	"strings"
	"unicode/utf8"
)

type wordCountIn struct {
	Text string `json:"text"`
}

type wordCountOut struct {
	Words int `json:"words"`
	Chars int `json:"chars"`
}

// wordCount counts words (runs of non-space, as strings.Fields splits them)
// and characters (Unicode code points, not bytes: "привет" is 6, not 12).
func wordCount() *Tool {
	return &Tool{
		Definition: Definition{
			Name:        "word_count",
			Description: "Count the words (whitespace-separated) and characters (Unicode code points) in a text.",
			InputSchema: schema(`{
				"type": "object",
				"properties": {
					"text": {"type": "string", "description": "The text to count."}
				},
				"required": ["text"],
				"additionalProperties": false
			}`),
			OutputSchema: schema(`{
				"type": "object",
				"properties": {
					"words": {"type": "integer", "minimum": 0},
					"chars": {"type": "integer", "minimum": 0}
				},
				"required": ["words", "chars"],
				"additionalProperties": false
			}`),
			// 1.1 only reworded the description, so 1.0 callers are still served.
			Version:            "1.1",
			CompatibleVersions: []string{"1.0"},
		},
		Run: typed(func(_ context.Context, in wordCountIn, _ func(Progress)) (wordCountOut, error) {
			return wordCountOut{
				Words: len(strings.Fields(in.Text)),
				Chars: utf8.RuneCountInString(in.Text),
			}, nil
		}),
	}
}
