package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

type deployIn struct {
	Service string `json:"service"`
	Env     string `json:"env"`
}

type deployOut struct {
	Service string `json:"service"`
	Env     string `json:"env"`
	Status  string `json:"status"`
	URL     string `json:"url"`
	Steps   int    `json:"steps"`
}

// deployService simulates a slow action with side effects: it takes a
// moment, reports progress after each step, stops when its context ends,
// and needs a stronger permission for production than for staging.
func deployService(step time.Duration) *Tool {
	// What the simulated deployment pretends to do, in order.
	deploySteps := []string{"build image", "push image", "roll out", "health check"}
	return &Tool{
		Definition: Definition{
			Name:        "deploy_service",
			Description: "Deploy a service to staging or production (simulated). Reports progress; production needs the deploy:production scope.",
			InputSchema: schema(`{
				"type": "object",
				"properties": {
					"service": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,39}$", "description": "Service name: lowercase letters, digits and dashes."},
					"env": {"type": "string", "enum": ["staging", "production"]}
				},
				"required": ["service", "env"],
				"additionalProperties": false
			}`),
			OutputSchema: schema(`{
				"type": "object",
				"properties": {
					"service": {"type": "string"},
					"env": {"type": "string", "enum": ["staging", "production"]},
					"status": {"type": "string", "const": "deployed"},
					"url": {"type": "string"},
					"steps": {"type": "integer"}
				},
				"required": ["service", "env", "status", "url", "steps"],
				"additionalProperties": false
			}`),
			// 2.0 made env a required enum; 1.0 callers that sent any
			// string, or none, would now be refused, so 1.0 is not listed
			// as compatible.
			Version: "2.0",
		},
		Needs: func(raw json.RawMessage) []Scope {
			var in deployIn
			if json.Unmarshal(raw, &in) == nil && in.Env == "production" {
				return []Scope{ScopeDeployProduction}
			}
			return nil
		},
		Run: typed(func(ctx context.Context, in deployIn, progress func(Progress)) (deployOut, error) {
			t := time.NewTimer(step)
			defer t.Stop()
			for i, what := range deploySteps {
				select {
				case <-ctx.Done():
					return deployOut{}, fmt.Errorf("deploy of %s to %s stopped during %q: %w", in.Service, in.Env, what, ctx.Err())
				case <-t.C:
				}
				progress(Progress{Done: i + 1, Total: len(deploySteps), Message: what})
				t.Reset(step)
			}
			host := in.Service + ".example.test"
			if in.Env == "staging" {
				host = in.Service + ".staging.example.test"
			}
			return deployOut{
				Service: in.Service,
				Env:     in.Env,
				Status:  "deployed",
				URL:     "https://" + host,
				Steps:   len(deploySteps),
			}, nil
		}),
	}
}
