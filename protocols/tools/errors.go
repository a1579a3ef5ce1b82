package tools

import (
	"fmt"
	"strings"
)

// Code names what went wrong with a call. The strings are the ones the
// stdio and HTTP protocols put on the wire.
type Code string

// The codes a [Catalogue.Call] can fail with.
const (
	// Protocol errors: the request itself is wrong.
	CodeUnknownTool         Code = "unknown_tool"
	CodeIncompatibleVersion Code = "incompatible_version"
	CodeForbidden           Code = "forbidden"

	// Tool errors: the request was well formed; the tool refused its
	// arguments or ran and failed.
	CodeInvalidArguments Code = "invalid_arguments"
	CodeToolFailed       Code = "tool_failed"
)

// Error is a failed call, with enough detail for each protocol to report
// it in its own terms.
type Error struct {
	Code    Code
	Tool    string
	Message string

	Fields   []FieldError // CodeInvalidArguments: each broken rule
	Versions []string     // CodeIncompatibleVersion: the versions served
	Scope    Scope        // CodeForbidden: the scope that is missing
}

// FieldError is one schema rule that the arguments break.
type FieldError struct {
	Field   string `json:"field"`   // dotted path into the arguments; "" is the object itself
	Rule    string `json:"rule"`    // the JSON Schema keyword, such as "required" or "type"
	Message string `json:"message"` // what the rule wanted
}

func (f FieldError) String() string {
	if f.Field == "" {
		return fmt.Sprintf("%s (rule %q)", f.Message, f.Rule)
	}
	return fmt.Sprintf("%s: %s (rule %q)", f.Field, f.Message, f.Rule)
}

func (e *Error) Error() string { return e.Message }

// ToolError reports whether the error belongs inside a tool result (the
// tool refused its arguments or failed) rather than being a protocol error.
func (e *Error) ToolError() bool {
	return e.Code == CodeInvalidArguments || e.Code == CodeToolFailed
}

func unknownTool(name string, tools []*Tool) *Error {
	return &Error{
		Code:    CodeUnknownTool,
		Tool:    name,
		Message: fmt.Sprintf("unknown tool %q; this server has: %s", name, names(tools)),
	}
}

func incompatibleVersion(d Definition, asked string) *Error {
	return &Error{
		Code:     CodeIncompatibleVersion,
		Tool:     d.Name,
		Versions: d.Versions(),
		Message: fmt.Sprintf("%s: version %q is not served; served versions: %s",
			d.Name, asked, strings.Join(d.Versions(), ", ")),
	}
}

func invalidArguments(name string, fields []FieldError) *Error {
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = f.String()
	}
	return &Error{
		Code:    CodeInvalidArguments,
		Tool:    name,
		Fields:  fields,
		Message: fmt.Sprintf("%s: invalid arguments: %s", name, strings.Join(parts, "; ")),
	}
}

func forbidden(name string, s Scope) *Error {
	return &Error{
		Code:    CodeForbidden,
		Tool:    name,
		Scope:   s,
		Message: fmt.Sprintf("%s: this call needs the %q scope, which the caller's token does not have", name, s),
	}
}

func toolFailed(name string, err error) *Error {
	return &Error{
		Code:    CodeToolFailed,
		Tool:    name,
		Message: fmt.Sprintf("%s failed: %v", name, err),
	}
}
