package exercises

import (
	"embed"
	"fmt"
	"io/fs"
)

// instructions holds every exercise's instructions: <id>/README.md in
// English and <id>/README.ru.md in Russian. A new exercise's folder is
// picked up by these patterns without editing them.
//
//go:embed */README.md */README.ru.md
var instructions embed.FS

// starters holds the starter code of the code exercises, which `wirelab
// init` copies into a learner's workspace. go:embed takes no pattern for
// "every folder but grade", so each code exercise's folder is named here;
// TestStartersEmbedded fails when one on disk is missing.
//
//go:embed stdio-server http-server grpc-server schema-versions mcp-server mcp-client mcp-dual mcp-resource-server find-the-defect a2a-client mcp-sdk-server fix-parse-error fix-bad-token-401 fix-unchecked-status fix-agent-card-path stdio-client fix-session-404 mcp-wary-client fix-initialized fix-is-error
var starters embed.FS

// GoVersion is the go line of the go.mod that `wirelab init` writes: the
// one of this repository's go.mod, which TestGoVersion keeps in step.
const GoVersion = "1.26.0"

// Instructions returns an exercise's instructions as markdown, in lang
// ("en" or "ru"; Russian falls back to English while it is missing).
func Instructions(id, lang string) (string, error) {
	if _, ok := ByID(id); !ok {
		return "", fmt.Errorf("unknown exercise %q", id)
	}
	name := id + "/README.md"
	if lang == "ru" {
		if b, err := instructions.ReadFile(id + "/README.ru.md"); err == nil {
			return string(b), nil
		}
	}
	b, err := instructions.ReadFile(name)
	if err != nil {
		return "", fmt.Errorf("exercise %q has no instructions yet", id)
	}
	return string(b), nil
}

// Starter returns the starter files of a code exercise: its Go files and
// instructions, at the root of the returned file system. It reports false
// for frame exercises and for code exercises whose starter is not
// written yet.
func Starter(id string) (fs.FS, bool) {
	e, ok := ByID(id)
	if !ok || e.Kind != Code {
		return nil, false
	}
	if _, err := fs.Stat(starters, id+"/main.go"); err != nil {
		return nil, false
	}
	sub, err := fs.Sub(starters, id)
	if err != nil {
		return nil, false
	}
	return sub, true
}
