package playground

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// badMCPServer is a Streamable HTTP MCP server (2026-07-28, one
// self-contained request at a time) that misbehaves on purpose: it
// declares 1,000 tools, the first with an inputSchema that is not JSON
// Schema; its tool "garbage" answers with a body that says it is JSON
// and is not; its tool "cut" starts an event stream and drops the
// connection in the middle of an event; its tool "fine" answers well.
func badMCPServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "not JSON", http.StatusBadRequest)
			return
		}
		answer := func(result string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
		}
		switch {
		case req.Method == "server/discover":
			answer(`{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"serverInfo":{"name":"bad","version":"1"},"resultType":"complete"}`)
		case req.Method == "tools/list":
			tools := []string{`{"name":"broken_schema","inputSchema":{"type":12}}`}
			for i := 1; i < 1000; i++ {
				tools = append(tools, fmt.Sprintf(`{"name":"t%04d","inputSchema":{"type":"object"}}`, i))
			}
			answer(`{"tools":[` + strings.Join(tools, ",") + `],"resultType":"complete"}`)
		case req.Params.Name == "garbage":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `this is not {json`)
		case req.Params.Name == "cut":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",")
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler) // the connection goes, mid-event
		default:
			answer(`{"content":[{"type":"text","text":"all good"}],"resultType":"complete"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestBrowserOwnMCPBadServer: a server that declares an enormous tool
// list, a schema that is not JSON Schema, answers garbage and closes a
// stream mid-event: the console shows what came, marks what is wrong,
// names its limit, and goes on working.
func TestBrowserOwnMCPBadServer(t *testing.T) {
	srv := badMCPServer(t)
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-http")
	b.setTo(srv.URL + "/mcp")
	b.choose("template", "server/discover (revisions and capabilities)")
	b.click("#send")
	b.waitUntil("the revision it answered is said", `document.getElementById("own-status").textContent.includes("2026-07-28")`, ownDump)

	b.text(`(document.getElementById("own-declared").click(), "")`)
	b.waitUntil("the limit is named", `document.getElementById("own-status").textContent.includes("the first 200 only of: tools")`, ownDump)
	if n := b.text(`String(document.querySelectorAll("#template optgroup[data-own] option").length)`); n != "200" {
		t.Errorf("%s declared templates from a list of 1,000 tools, want the limit, 200", n)
	}

	b.chooseOwn("tools/call broken_schema")
	b.waitUntil("the form says the schema is not JSON Schema", `document.getElementById("schema-form").textContent.includes("not valid JSON Schema")`, ownDump+` + "\nform: " + document.getElementById("schema-form").textContent`)

	call := func(id int, name string) string {
		return "POST /mcp HTTP/1.1\nHost: {{host}}\nAccept: application/json, text/event-stream\nContent-Type: application/json\nMCP-Protocol-Version: 2026-07-28\nMcp-Method: tools/call\nMcp-Name: " + name + "\n\n" +
			fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`, id, name)
	}
	b.setComposer(call(60, "garbage"))
	b.click("#send")
	b.waitUntil("the answer is marked as not JSON", rowHas("in", "200 OK · not JSON"), ownDump)
	b.text(`(` + messageRows + `.filter(r => r.dataset.dir === "in").pop().click(), "")`)
	b.click(`.view-tab[data-view="raw"]`)
	b.expect("its bytes are shown as they came", `document.getElementById("detail-body").textContent.includes("this is not {json")`, ownDump)

	b.setComposer(call(61, "cut"))
	b.click("#send")
	b.waitUntil("the cut stream is said", `[...document.querySelectorAll("#transcript-rows tr.row")].some(r => /unexpected EOF|cut|closed/.test(r.textContent) && r.textContent.includes("reading"))`, ownDump)

	b.setComposer(call(62, "fine"))
	b.click("#send")
	b.waitUntil("the console goes on working", saved(`all good`), ownDump)
}
