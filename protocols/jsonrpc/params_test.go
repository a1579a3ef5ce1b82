package jsonrpc

import (
	"encoding/json"
	"testing"
)

// TestParamsProblem: a member of the wrong type is named by its path,
// with the JSON type wanted and the one sent.
func TestParamsProblem(t *testing.T) {
	type part struct {
		Text *string `json:"text"`
		Raw  []byte  `json:"raw"`
	}
	type params struct {
		ID      string `json:"id"`
		Limit   *int   `json:"limit"`
		Ratio   float64
		On      bool           `json:"on"`
		Parts   []part         `json:"parts"`
		Headers map[string]int `json:"headers"`
	}
	tests := []struct{ params, want string }{
		{`{"id":5}`, `"id" must be a string, not a number`},
		{`{"id":{}}`, `"id" must be a string, not an object`},
		{`{"limit":"10"}`, `"limit" must be an integer, not a string`},
		{`{"limit":1.5}`, `"limit" must be an integer, not 1.5`},
		{`{"Ratio":"x"}`, `"Ratio" must be a number, not a string`},
		{`{"on":"yes"}`, `"on" must be true or false, not a string`},
		{`{"parts":"x"}`, `"parts" must be an array, not a string`},
		{`{"parts":[{"text":5}]}`, `"parts.text" must be a string, not a number`},
		{`{"parts":[{"raw":5}]}`, `"parts.raw" must be a string of base64, not a number`},
		{`{"parts":[5]}`, `"parts" must be an object, not a number`},
		{`{"headers":{"a":true}}`, `"headers" must be an integer, not a boolean`},
		{`[1]`, `"params" must be an object, not an array`},
		{`{"parts":[{"raw":"!"}]}`, `illegal base64 data at input byte 0`},
	}
	for _, tt := range tests {
		t.Run(tt.params, func(t *testing.T) {
			var p params
			err := json.Unmarshal([]byte(tt.params), &p)
			if err == nil {
				t.Fatal("decoded without an error")
			}
			if got := ParamsProblem(err); got != tt.want {
				t.Errorf("ParamsProblem = %s\nwant            %s", got, tt.want)
			}
		})
	}
}
