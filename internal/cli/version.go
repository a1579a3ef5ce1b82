package cli

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version describes this build: the module version (a tag, or a pseudo-
// version from the commit), the commit when known, and the Go release.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "wirelab (unknown build)"
	}
	v := info.Main.Version
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		return fmt.Sprintf("wirelab %s (commit %s%s, %s)", v, rev, dirty, info.GoVersion)
	}
	return fmt.Sprintf("wirelab %s (%s)", v, info.GoVersion)
}

// implVersion is version() without the program's name, for the version
// field of MCP's serverInfo and clientInfo, which sit beside a name.
func implVersion() string { return strings.TrimPrefix(version(), "wirelab ") }
