package solutions

import (
	"embed"
	"io/fs"
)

// files holds every solution's folder. Each is named here, as go:embed
// takes no pattern for "every folder"; TestEmbedded fails when one on
// disk is missing.
//
//go:embed stdio-server http-server grpc-server schema-versions mcp-server mcp-client a2a-client
var files embed.FS

// Files returns the reference solution of an exercise, its files at the
// root of the returned file system, or false if it has none yet. The
// playground shows it to a learner who passed, or who asked to see it.
func Files(id string) (fs.FS, bool) {
	if _, err := fs.Stat(files, id+"/main.go"); err != nil {
		return nil, false
	}
	sub, err := fs.Sub(files, id)
	if err != nil {
		return nil, false
	}
	return sub, true
}
