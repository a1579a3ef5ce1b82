// Command find-the-defect names the one defect of the exercise's
// recording.
//
// The host asked for tools/list (event 6), and the answer (event 7)
// declared an outputSchema for word_count: {words, chars}, both
// required. A tool that declares one promises a result to match: "Servers
// MUST provide structured results that conform to this schema." The
// call to word_count (event 12) was answered in event 14 with the text
// block alone and no structuredContent, so a host that reads the
// structured result gets nothing, and says nothing.
//
// The other suspects are not defects. Event 10, weather's answer, has
// isError: true and no structuredContent either, but an output schema
// binds successful results only: a tool error is reported in content.
// The lines on stderr are the server's logs, which is where logs go.
// And the order of event 14's keys ("id" before "jsonrpc") is a sign
// that something re-encoded the message, not a fault: JSON objects are
// unordered.
package main

import "fmt"

// Event is the number of the event that holds the faulty message: the
// "seq" at the start of its line in recording.jsonl.
const Event = 14

// Defect says what is wrong with that message: one of the codes listed
// in README.md, such as "unknown-id", or "none" if nothing is.
const Defect = "structured-content-missing"

// main prints the answer, the way the grader reads it.
func main() {
	fmt.Println(Event, Defect)
}
