package playground

import (
	"encoding/json"

	"github.com/wirelab/wirelab/exercises/frames"
)

// mcpHostileRuns are frames-mcp-hostile's runs: its solution, and the
// classic mistakes its check names, made from the solution's frames:
//
//	0 initialize        3 read_inbox     6 tools/list again
//	1 initialized       4 inbox_stats
//	2 tools/list        5 spell_check
func mcpHostileRuns(sol []frames.Frame) []frameRun {
	cat := func(parts ...[]frames.Frame) []frames.Frame {
		var all []frames.Frame
		for _, p := range parts {
			all = append(all, p...)
		}
		return all
	}
	return []frameRun{
		{name: "pass", frames: sol, failAt: -1},
		// The tools listed twice with no call between: both lists are
		// the same, so no rug pull is seen.
		{name: "fail", failAt: 4, frames: cat(sol[:5], sol[6:])},
		// spell_check called before any list: nothing to compare with.
		{name: "fail-call-first", failAt: 4, frames: cat(sol[:2], sol[5:6], sol[2:5], sol[6:])},
	}
}

// hostileNotice reports whether a line from the mcp-hostile server is a
// notification of its own (notifications/tools/list_changed), which
// answers no request of the frame: it comes before the answer it
// announces.
func hostileNotice(target, line string) bool {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	return target == "mcp-hostile" && json.Unmarshal([]byte(line), &m) == nil && m.Method != "" && m.ID == nil
}
