package httpjson

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/wirelab/wirelab/protocols/stdio"
	"github.com/wirelab/wirelab/protocols/tools"
)

// An OpenAPI document is how an HTTP API describes itself to programs:
// code generators, API explorers, and agents that turn each operation into
// a tool. This one is built from the catalogue, so it cannot drift from
// what the server does.
//
// OpenAPI 3.1 describes bodies with JSON Schema 2020-12, the dialect the
// tool schemas are written in, so each tool's input and output schema is
// embedded as it is. The request body of /execute is one schema per tool,
// told apart by the "name" property.

// object is a JSON object under construction. encoding/json writes map
// keys in sorted order, so the document is the same on every run.
type object = map[string]any

// OpenAPI returns the OpenAPI 3.1.0 document describing a server for cat.
// secured says whether the server requires bearer tokens.
func OpenAPI(cat *tools.Catalogue, secured bool) []byte {
	schemas := object{
		"ExecuteResult": executeResultSchema(cat.List()),
		"ErrorResponse": object{
			"type":                 "object",
			"properties":           object{"id": idSchema(), "error": ref("Error")},
			"required":             []string{"error"},
			"additionalProperties": false,
		},
		"Error":      errorSchema(),
		"FieldError": fieldErrorSchema(),
		"ToolList": object{
			"type":       "object",
			"properties": object{"tools": object{"type": "array", "items": ref("Definition")}},
			"required":   []string{"tools"},
		},
		"Definition": definitionSchema(),
	}
	var requests []any
	mapping := object{}
	for _, d := range cat.List() {
		schemas[d.Name+".request"] = requestSchema(d)
		schemas[d.Name+".result"] = d.OutputSchema
		requests = append(requests, ref(d.Name+".request"))
		mapping[d.Name] = "#/components/schemas/" + d.Name + ".request"
	}
	// discriminator is OpenAPI's addition to JSON Schema: it tells code
	// generators which property picks the branch of the oneOf, so they can
	// make one type per tool instead of trying every branch.
	schemas["ExecuteRequest"] = object{
		"oneOf":         requests,
		"discriminator": object{"propertyName": "name", "mapping": mapping},
	}

	components := object{"schemas": schemas}
	doc := object{
		"openapi": "3.1.0",
		"info": object{
			"title":   "wirelab tools over HTTP",
			"version": "1.0",
			"description": "Call a tool with POST /execute; list the tools with GET /tools. " +
				"A tool that ran and failed answers 200 with an error whose code is tool_failed; " +
				"4xx and 5xx mean the request itself could not be carried out.",
		},
		// With no "servers", OpenAPI 3.1 section 4.8.1 says the default is
		// a server with url "/": paths are relative to wherever this
		// document was fetched from, which is the server itself.
		"paths": object{
			"/execute": object{"post": executeOperation(secured)},
			"/tools":   object{"get": toolsOperation(secured)},
		},
		"components": components,
	}
	if secured {
		components["securitySchemes"] = object{
			"bearer": object{
				"type":        "http",
				"scheme":      "bearer",
				"description": "Authorization: Bearer TOKEN (RFC 6750). Some calls need a scope, such as deploy:production.",
			},
		}
		// A top-level requirement applies to every operation listed here.
		// /openapi.json itself is not listed, and stays public.
		doc["security"] = []any{object{"bearer": []string{}}}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("httpjson: encoding the OpenAPI document: %v", err)) // a bug in this file
	}
	return append(b, '\n')
}

func executeOperation(secured bool) object {
	failures := map[int]string{
		http.StatusBadRequest:            "Not a request: not JSON (parse_error), not a request object (invalid_request), or a version the tool does not serve (incompatible_version).",
		http.StatusNotFound:              "No tool by that name (unknown_tool).",
		http.StatusRequestEntityTooLarge: "The body is longer than the server reads (too_large).",
		http.StatusUnsupportedMediaType:  "The body is not sent as application/json (unsupported_media_type).",
		http.StatusUnprocessableEntity:   "The arguments break the tool's input schema (invalid_arguments); error.fields names each broken rule.",
	}
	if secured {
		failures[http.StatusUnauthorized] = unauthorizedText
		failures[http.StatusForbidden] = "The token lacks a scope this call needs (forbidden); error.scope names it."
	}
	// A 200 carries a result, or the error of a tool that ran and failed.
	answered := object{"oneOf": []any{ref("ExecuteResult"), ref("ErrorResponse")}}
	return object{
		"operationId": "execute",
		"summary":     "Call one tool by name",
		"requestBody": object{
			"required": true,
			"content":  jsonContent(ref("ExecuteRequest")),
		},
		"responses": responses("The tool ran: the body has its result, or an error with code tool_failed.", answered, failures),
	}
}

func toolsOperation(secured bool) object {
	failures := map[int]string{}
	if secured {
		failures[http.StatusUnauthorized] = unauthorizedText
	}
	return object{
		"operationId": "listTools",
		"summary":     "List every tool with its schemas and versions",
		"responses":   responses("The catalogue.", ref("ToolList"), failures),
	}
}

const unauthorizedText = "No bearer token, or not a known one (unauthorized); WWW-Authenticate says which."

// responses documents an operation's answers: 200 with its own schema,
// and each failure status with the error body. OpenAPI 3.1 section 4.8.16
// does not expect every possible status to be listed, so the guards that
// only browsers meet (421, and 403 forbidden_origin) and 405 (which no
// documented operation gets) are left out.
func responses(okText string, okSchema any, failures map[int]string) object {
	out := object{
		"200": object{"description": okText, "content": jsonContent(okSchema)},
		"500": object{"description": "A bug in the server (internal).", "content": jsonContent(ref("ErrorResponse"))},
	}
	for status, text := range failures {
		out[strconv.Itoa(status)] = object{"description": text, "content": jsonContent(ref("ErrorResponse"))}
	}
	return out
}

func jsonContent(schema any) object {
	return object{"application/json": object{"schema": schema}}
}

func ref(name string) object { return object{"$ref": "#/components/schemas/" + name} }

func idSchema() object {
	return object{"description": "Any JSON value; the server echoes it unchanged."}
}

// requestSchema is the body that calls one tool: its name as a constant,
// its input schema for args, and the versions it serves.
func requestSchema(d tools.Definition) object {
	return object{
		"type":        "object",
		"description": d.Description,
		"properties": object{
			"id":      idSchema(),
			"name":    object{"const": d.Name},
			"version": object{"type": "string", "enum": d.Versions(), "description": "Omit for the current version."},
			"args":    d.InputSchema,
		},
		"required":             []string{"name"},
		"additionalProperties": false,
	}
}

// executeResultSchema is a successful answer: the result matches one of
// the tools' output schemas. anyOf rather than oneOf, because two tools
// may well return the same shape.
func executeResultSchema(defs []tools.Definition) object {
	var results []any
	for _, d := range defs {
		results = append(results, ref(d.Name+".result"))
	}
	return object{
		"type":                 "object",
		"properties":           object{"id": idSchema(), "result": object{"anyOf": results}},
		"required":             []string{"result"},
		"additionalProperties": false,
	}
}

func errorSchema() object {
	return object{
		"type": "object",
		"properties": object{
			"code": object{"type": "string", "enum": []string{
				stdio.CodeParseError, stdio.CodeInvalidRequest, stdio.CodeTooLarge, stdio.CodeCanceled, stdio.CodeInternal,
				string(tools.CodeUnknownTool), string(tools.CodeIncompatibleVersion), string(tools.CodeForbidden),
				string(tools.CodeInvalidArguments), string(tools.CodeToolFailed),
				CodeNotFound, CodeMethodNotAllowed, CodeUnsupportedMediaType, CodeUnauthorized,
				CodeForbiddenOrigin, CodeMisdirectedRequest,
			}},
			"message":  object{"type": "string"},
			"fields":   object{"type": "array", "items": ref("FieldError"), "description": "invalid_arguments: each broken rule."},
			"versions": object{"type": "array", "items": object{"type": "string"}, "description": "incompatible_version: the versions served."},
			"scope":    object{"type": "string", "description": "forbidden: the scope the token lacks."},
		},
		"required": []string{"code", "message"},
	}
}

func fieldErrorSchema() object {
	return object{
		"type": "object",
		"properties": object{
			"field":   object{"type": "string", "description": "Dotted path into args; empty for args itself."},
			"rule":    object{"type": "string", "description": "The JSON Schema keyword broken."},
			"message": object{"type": "string"},
		},
		"required": []string{"field", "rule", "message"},
	}
}

func definitionSchema() object {
	return object{
		"type": "object",
		"properties": object{
			"name":                object{"type": "string"},
			"description":         object{"type": "string"},
			"input_schema":        object{"type": "object", "description": "JSON Schema 2020-12 for args."},
			"output_schema":       object{"type": "object", "description": "JSON Schema 2020-12 for result."},
			"version":             object{"type": "string"},
			"compatible_versions": object{"type": "array", "items": object{"type": "string"}},
		},
		"required": []string{"name", "description", "input_schema", "output_schema", "version"},
	}
}
