package tapcheck

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/protocols/jsonrpc"
)

// The revision a session speaks. 2025-11-25, lifecycle: "If the server
// supports the requested protocol version, it MUST respond with the same
// version. Otherwise, the server MUST respond with another protocol
// version it supports. [...] If the client does not support the version
// in the server's response, it SHOULD disconnect." A server cannot
// support what is no revision; and 2026-07-28 has no initialize: "An
// initialize request selects legacy semantics [...] as specified by the
// negotiated legacy protocol version."

// codeUnsupportedVersion is 2026-07-28's UnsupportedProtocolVersionError,
// whose data lists the versions the server supports.
const codeUnsupportedVersion = -32022

// versionAnswer is an answer to initialize, kept until the host's next
// message shows whether the host went on in the revision answered.
type versionAnswer struct {
	event           int
	asked, answered string
	finding         int // the index of its version-unknown finding, or -1
}

// isSessionRevision reports whether v is a revision of MCP that opens a
// session with initialize.
func isSessionRevision(v string) bool {
	switch v {
	case "2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25":
		return true
	}
	return false
}

// isRevision reports whether v is a revision of MCP.
func isRevision(v string) bool { return isSessionRevision(v) || v == EraModern }

// versionAnswered judges the revision a server answered initialize with;
// cv.initialized is still the one the host asked for.
func (c *checker) versionAnswered(e tap.Event, answered string, cv *conversation) {
	asked := cv.initialized
	switch {
	case answered == EraModern:
		c.find("version-unknown", e.Seq, "initialize answered with protocolVersion %q, a revision that has no initialize and no sessions",
			"на initialize ответили protocolVersion %q, а в этой редакции нет ни initialize, ни сессий", answered)
	case !isSessionRevision(answered):
		echoed := phrase{}
		if answered == asked {
			echoed = phrase{" (the host's own, echoed)", " (повтор того, что просил хост)"}
		}
		c.find("version-unknown", e.Seq, "initialize answered with protocolVersion %q, which is no MCP revision%s",
			"на initialize ответили protocolVersion %q, а такой редакции MCP нет%s", answered, echoed)
	case answered == asked || asked == "":
		return // agreed, or the host asked for nothing to differ from
	default:
		cv.answered = &versionAnswer{event: e.Seq, asked: asked, answered: answered, finding: -1}
		return
	}
	cv.answered = &versionAnswer{event: e.Seq, asked: asked, answered: answered, finding: len(c.report.Findings) - 1}
}

// hostWentOn takes the host's first message after an answer to
// initialize that named a revision other than the one asked for: the
// host went on in it, unless the message asks again.
func (c *checker) hostWentOn(e tap.Event, msg jsonrpc.Message, cv *conversation) {
	a := cv.answered
	cv.answered = nil
	if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "initialize" {
		return
	}
	if a.finding >= 0 {
		f := &c.report.Findings[a.finding]
		f.Detail += fmt.Sprintf("; the host went on in it (event %d) instead of disconnecting", e.Seq)
		f.DetailRU += fmt.Sprintf("; хост продолжил в ней (событие %d), а не отключился", e.Seq)
		c.amended = append(c.amended, a.finding)
		return
	}
	c.find("version-changed", a.event, "the host asked for %s, the server answered %s, and the host went on in it (event %d)",
		"хост просил %s, сервер ответил %s, и хост продолжил в ней (событие %d)", a.asked, a.answered, e.Seq)
}

// discovered checks the revisions a 2026-07-28 server/discover result
// lists.
func (c *checker) discovered(e tap.Event, result json.RawMessage) {
	var r struct {
		SupportedVersions []string `json:"supportedVersions"`
	}
	if json.Unmarshal(result, &r) == nil {
		c.versionsListed(e, phrase{"server/discover lists in supportedVersions", "server/discover называет в supportedVersions"}, r.SupportedVersions)
	}
}

// unsupportedVersion checks the revisions an UnsupportedProtocolVersion
// error lists as supported: the host retries with one of them.
func (c *checker) unsupportedVersion(e tap.Event, rpcErr *jsonrpc.Error) {
	var data struct {
		Supported []string `json:"supported"`
	}
	if rpcErr.Code == codeUnsupportedVersion && json.Unmarshal(rpcErr.Data, &data) == nil {
		what := phrase{fmt.Sprintf("error %d lists in supported", rpcErr.Code), fmt.Sprintf("ошибка %d называет в supported", rpcErr.Code)}
		c.versionsListed(e, what, data.Supported)
	}
}

// versionsListed finds, in one finding, the versions of a list that are
// no revision.
func (c *checker) versionsListed(e tap.Event, what phrase, versions []string) {
	var bad []string
	for _, v := range versions {
		if !isRevision(v) {
			bad = append(bad, fmt.Sprintf("%q", v))
		}
	}
	if len(bad) == 0 {
		return
	}
	list := strings.Join(bad, ", ")
	no := phrase{"which is no MCP revision", "а такой редакции MCP нет"}
	if len(bad) > 1 {
		no = phrase{"which are no MCP revisions", "а таких редакций MCP нет"}
	}
	c.find("version-unknown", e.Seq, "%s %s, %s", "%s %s, %s", what, list, no)
}
