package tools

import (
	"context"
	"fmt"
)

type weatherIn struct {
	City string `json:"city"`
}

type weatherOut struct {
	City       string  `json:"city"`
	TempC      float64 `json:"temp_c"`
	Conditions string  `json:"conditions"`
}

// weather stands for every tool that depends on a service it does not
// control. Its upstream is always down, so every call is a tool failure:
// the request was fine, the protocol worked, and the tool could not do its
// job. Lessons use it to contrast tool errors with protocol errors.
func weather() *Tool {
	return &Tool{
		Definition: Definition{
			Name:        "weather",
			Description: "Current weather for a city, from an upstream forecast service (which is down: every call fails as a tool error).",
			InputSchema: schema(`{
				"type": "object",
				"properties": {
					"city": {"type": "string", "minLength": 1, "description": "City name, e.g. \"Lisbon\"."}
				},
				"required": ["city"],
				"additionalProperties": false
			}`),
			OutputSchema: schema(`{
				"type": "object",
				"properties": {
					"city": {"type": "string"},
					"temp_c": {"type": "number"},
					"conditions": {"type": "string"}
				},
				"required": ["city", "temp_c", "conditions"],
				"additionalProperties": false
			}`),
			Version: "1.0",
		},
		Run: typed(func(_ context.Context, in weatherIn, _ func(Progress)) (weatherOut, error) {
			return weatherOut{}, fmt.Errorf("upstream forecast service unavailable (HTTP 503 from forecast.invalid) while looking up %q", in.City)
		}),
	}
}
