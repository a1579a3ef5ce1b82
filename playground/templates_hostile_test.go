package playground

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/playground/wire"
)

// TestHostileTargetLabel: the MCP console offers mcp-hostile under a
// label that says it is hostile on purpose, in each language, and copies
// its frames as a command that starts the hostile server.
func TestHostileTargetLabel(t *testing.T) {
	mux := routes(nil, nil, nil, newConsoleSite(wire.Targets{}, nil), nil, nil)
	for l, want := range map[lang]string{en: "mcp-hostile (hostile on purpose)", ru: "mcp-hostile (враждебный нарочно)"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/console/mcp?lang="+string(l), nil)
		req.RemoteAddr = "127.0.0.1:5000"
		mux.ServeHTTP(rec, req)
		body := rec.Body.String()
		if !strings.Contains(body, `<option value="mcp-hostile">`+want+`</option>`) {
			t.Errorf("/console/mcp?lang=%s: no option %q for mcp-hostile", l, want)
		}
		if got := consoleDataOf(t, body).Commands["mcp-hostile"]; got != "wirelab server mcp --fixtures hostile" {
			t.Errorf("/console/mcp?lang=%s: mcp-hostile's command is %q", l, got)
		}
	}
}
