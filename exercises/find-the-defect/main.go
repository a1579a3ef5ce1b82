// Command find-the-defect is your answer to the exercise: which message
// of recording.jsonl breaks the protocol, and what is wrong with it.
// Read the recording (README.md says how), fill in the two constants,
// and run `wirelab grade find-the-defect`.
// README.ru.md — то же, что README.md, по-русски.
package main

import "fmt"

// Event is the number of the event that holds the faulty message: the
// "seq" at the start of its line in recording.jsonl.
const Event = 0

// Defect says what is wrong with that message: one of the codes listed
// in README.md, such as "unknown-id", or "none" if nothing is.
const Defect = ""

// main prints the answer, the way the grader reads it.
func main() {
	fmt.Println(Event, Defect)
}
