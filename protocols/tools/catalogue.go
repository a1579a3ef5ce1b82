package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// DefaultDeployStep is how long each of deploy_service's four steps takes:
// long enough to watch progress and to cancel midway, short enough not to
// bore anyone.
const DefaultDeployStep = 250 * time.Millisecond

// Options configures a [Catalogue]. A nil *Options means the defaults.
type Options struct {
	// DeployStep is the duration of each simulated deploy step.
	// Zero means DefaultDeployStep.
	DeployStep time.Duration
}

// Catalogue is the set of tools a server offers. It is safe for
// concurrent use: after New it is never modified.
type Catalogue struct {
	tools      []*Tool
	byName     map[string]*Tool
	validators map[string]*validator
}

// New returns the catalogue of wirelab's tools.
func New(opts *Options) *Catalogue {
	step := DefaultDeployStep
	if opts != nil && opts.DeployStep > 0 {
		step = opts.DeployStep
	}
	c, err := NewFrom(wordCount(), search(), deployService(step), weather())
	if err != nil {
		panic(err) // the built-in schemas are part of this package
	}
	return c
}

// NewFrom builds a catalogue from any tools, compiling their input schemas.
func NewFrom(tools ...*Tool) (*Catalogue, error) {
	c := &Catalogue{
		byName:     make(map[string]*Tool),
		validators: make(map[string]*validator),
	}
	for _, t := range tools {
		if _, dup := c.byName[t.Name]; dup {
			return nil, fmt.Errorf("tools: %q defined twice", t.Name)
		}
		v, err := compile(t.Name, t.InputSchema)
		if err != nil {
			return nil, err
		}
		c.tools = append(c.tools, t)
		c.byName[t.Name] = t
		c.validators[t.Name] = v
	}
	return c, nil
}

// List returns every tool's definition, in a stable order.
func (c *Catalogue) List() []Definition {
	defs := make([]Definition, len(c.tools))
	for i, t := range c.tools {
		defs[i] = t.Definition
	}
	return defs
}

// Lookup returns a tool's definition by name.
func (c *Catalogue) Lookup(name string) (Definition, bool) {
	t, ok := c.byName[name]
	if !ok {
		return Definition{}, false
	}
	return t.Definition, true
}

// Needs returns the scopes a call needs beyond a valid token: for
// deploy_service, deploy:production when env is production. Arguments
// that break the input schema need nothing here; Call refuses them.
func (c *Catalogue) Needs(req Request) []Scope {
	t, ok := c.byName[req.Name]
	if !ok || t.Needs == nil {
		return nil
	}
	args := req.Args
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	if fields, err := c.validators[t.Name].check(args); err != nil || len(fields) > 0 {
		return nil
	}
	return t.Needs(args)
}

// Call checks a request and runs the tool; the package comment lists the
// checks in order. The result is the tool's output as JSON. A failure is an
// [*Error], or the context's error if ctx ended first.
func (c *Catalogue) Call(ctx context.Context, req Request, opts *CallOptions) (json.RawMessage, error) {
	if opts == nil {
		opts = &CallOptions{}
	}
	t, ok := c.byName[req.Name]
	if !ok {
		return nil, unknownTool(req.Name, c.tools)
	}
	if !t.Serves(req.Version) {
		return nil, incompatibleVersion(t.Definition, req.Version)
	}
	args := req.Args
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	fields, err := c.validators[t.Name].check(args)
	if err != nil {
		return nil, err
	}
	if len(fields) > 0 {
		return nil, invalidArguments(t.Name, fields)
	}
	if t.Needs != nil && opts.Allow != nil {
		for _, s := range t.Needs(args) {
			if !opts.Allow(s) {
				return nil, forbidden(t.Name, s)
			}
		}
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(Progress) {}
	}
	out, err := t.Run(ctx, args, progress)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return nil, ctxErr
		}
		return nil, toolFailed(t.Name, err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("%s: encoding result: %w", t.Name, err)
	}
	return b, nil
}
