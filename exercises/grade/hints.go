package grade

// Hints for the classic mistakes. Each names the mistake and the fix in
// a sentence or two; graders attach them where the mistake shows, and
// CompareJSON and the Process methods detect several by themselves.
const (
	// HintStdoutLogs: a line on stdout that is not a message.
	HintStdoutLogs = `stdout carries only protocol messages, one JSON object per line. Write logs, banners and debug prints to stderr: log.New(os.Stderr, "", 0), or fmt.Fprintln(os.Stderr, ...).`

	// HintIndented: a message spread over several lines.
	HintIndented = `One message per line: json.MarshalIndent (or an Encoder with SetIndent) spreads a message over several lines. Use json.Marshal and write a single "\n" after it.`

	// HintNoNewline: the answer's bytes arrived, but never its newline.
	HintNoNewline = `The answer never ended with "\n", so a client reading lines is still waiting for it. Write a newline after every message, and call Flush if you write through a bufio.Writer.`

	// HintJSONTags: "Name" instead of "name".
	HintJSONTags = "The keys are capitalized: encoding/json uses the Go field names unless a field has a tag. Give every field that goes on the wire a tag, such as `json:\"name\"`."

	// HintCamelCase: "input_schema" instead of "inputSchema".
	HintCamelCase = "MCP's keys are camelCase (inputSchema, protocolVersion, isError). A tag such as `json:\"input_schema\"` makes a different key, which the client does not know."

	// HintNotification: an answer to a message that had no id.
	HintNotification = `A message without an id is a notification: nothing answers it, not even with an error, and an answer with a null or missing id confuses the client. Handle it without writing anything.`

	// HintIDType: 1 came back as "1", or the reverse.
	HintIDType = `The id must come back exactly as it was sent: a number stays a number and a string stays a string. Keep it as a json.RawMessage and copy it into the answer.`

	// HintIDChanged: a numeric id that went through a float64.
	HintIDChanged = `The id came back as a different number: decoded into a float64 (or an interface{}), a large number loses digits and is written differently. Keep the id as a json.RawMessage and copy it into the answer.`

	// HintOmitempty: "error":null next to a result, or "id":null.
	HintOmitempty = "The answer has a key it should not have, set to null. Add `omitempty` to that field's tag: a nil pointer, slice, map, interface or json.RawMessage is then left out."

	// HintScanner: the line over 64 KiB that ends a bufio.Scanner loop.
	HintScanner = `bufio.Scanner gives up on a line longer than 64 KiB by default, and a "for scanner.Scan()" loop then simply ends. Call scanner.Buffer(make([]byte, 64*1024), 1<<20) before the loop, or read with bufio.Reader's ReadBytes('\n'); and check scanner.Err() after it.`

	// HintToolErrorAsProtocolError: a JSON-RPC error where a result with
	// isError belongs.
	HintToolErrorAsProtocolError = `The tool ran, or refused its arguments: that is a tool error, a normal result with "isError": true and the reason in a text block, so that the model can read it and try again. JSON-RPC errors are for requests that are themselves wrong: an unknown method or tool, params of the wrong shape.`

	// HintProtocolErrorAsToolError: a result with isError where the
	// request itself was wrong.
	HintProtocolErrorAsToolError = `This request is wrong in itself (an unknown tool or method), which is a bug in the client, not a failure of a tool: answer with a JSON-RPC error (-32602 for an unknown tool, -32601 for an unknown method) and no result.`

	// HintSkippedLine: a line that got no answer at all.
	HintSkippedLine = `Every request needs an answer, even one that cannot be parsed, or the client waits for it forever. Answer a line that is not JSON with a parse error (JSON-RPC: code -32700 and "id": null) and go on reading.`

	// HintEOF: the program did not finish when its input ended.
	HintEOF = `When stdin reaches end of file the client is done: finish the message in progress and return from main, which exits with status 0. End of input is not an error.`

	// HintStopsReading: the program's stdin is full.
	HintStopsReading = `The program stopped reading its stdin, so the grader's writes could not go through. Keep reading stdin in a loop for as long as it is open.`

	// HintNoModule: a folder built outside any Go module.
	HintNoModule = "The folder is not inside a Go module. Run `wirelab init DIR` to write a workspace with a go.mod, and put the exercise's folder in it."

	// HintNoDir: the exercise's folder is not there.
	HintNoDir = "Write the starter code with `wirelab init DIR`, then grade from DIR or with --dir DIR: DIR holds one folder per exercise."

	// HintAddr: a server exercise that never listened where it was told.
	HintAddr = `A server exercise listens on the address given with --addr (flag.String("addr", "127.0.0.1:8080", ...), then net.Listen or http.ListenAndServe on it). The grader picks a free port and waits until it accepts connections.`
)
