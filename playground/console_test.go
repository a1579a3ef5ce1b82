package playground

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/wirelab/wirelab/playground/wire"
	"github.com/wirelab/wirelab/protocols/a2a"
	"github.com/wirelab/wirelab/protocols/grpctool"
	"github.com/wirelab/wirelab/protocols/httpjson"
	"github.com/wirelab/wirelab/protocols/mcp"
	"github.com/wirelab/wirelab/protocols/oauth"
	"github.com/wirelab/wirelab/protocols/tools"
)

// liveServers starts the reference HTTP (open, and with the bearer
// tokens of AuthTokens), gRPC, MCP and A2A servers on loopback, with the
// guards wirelab serve gives them (Host and Origin must name this
// machine), and says where they are.
func liveServers(t *testing.T) wire.Targets {
	t.Helper()
	cat := tools.New(&tools.Options{DeployStep: time.Millisecond})
	api := httptest.NewServer(httpjson.NewServer(cat, &httpjson.ServerOptions{Loopback: true}))
	t.Cleanup(api.Close)
	tokens, err := tools.ParseTokens(AuthTokens())
	if err != nil {
		t.Fatal(err)
	}
	authAPI := httptest.NewServer(httpjson.NewServer(cat, &httpjson.ServerOptions{Tokens: tokens, Loopback: true}))
	t.Cleanup(authAPI.Close)
	mcpHandler := mcp.NewServer(cat, &mcp.ServerOptions{Version: "test"}).HTTPHandler(&mcp.HTTPOptions{Loopback: true})
	mcpSrv := httptest.NewServer(mcpHandler)
	t.Cleanup(func() { mcpHandler.Close(); mcpSrv.Close() })
	agent := a2a.NewServer(&a2a.Options{Tools: cat, Loopback: true})
	agentSrv := httptest.NewServer(agent)
	t.Cleanup(func() { agent.Close(); agentSrv.Close() })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpctool.NewServer(cat, nil)
	// Ends at Stop, in the cleanup.
	go g.Serve(ln)
	t.Cleanup(g.Stop)
	issuer, resource := oauthServers(t, cat)
	return wire.Targets{HTTPURL: api.URL, HTTPAuthURL: authAPI.URL, GRPCAddr: ln.Addr().String(), MCPURL: mcpSrv.URL + mcp.Endpoint, A2AURL: agentSrv.URL,
		OAuthURL: issuer, MCPAuthURL: resource}
}

// oauthServers starts the teaching authorization server and an MCP
// server that wants its tokens, as wirelab serve does, and returns the
// issuer and the MCP endpoint (the resource).
func oauthServers(t *testing.T, cat *tools.Catalogue) (issuer, resource string) {
	t.Helper()
	asSrv := httptest.NewUnstartedServer(nil)
	rsSrv := httptest.NewUnstartedServer(nil)
	issuer = "http://" + asSrv.Listener.Addr().String()
	resource = "http://" + rsSrv.Listener.Addr().String() + mcp.Endpoint
	// Tokens for any resource, as in wirelab serve: a lesson shows the MCP
	// server refusing one issued for another.
	asSrv.Config.Handler = oauth.NewServer(oauth.Options{Issuer: issuer, Loopback: true})
	rs := mcp.NewServer(cat, &mcp.ServerOptions{Version: "test"}).HTTPHandler(&mcp.HTTPOptions{Loopback: true, Verifier: mcp.NewVerifier(issuer, resource, nil)})
	rsSrv.Config.Handler = rs
	asSrv.Start()
	rsSrv.Start()
	t.Cleanup(func() { rs.Close(); rsSrv.Close(); asSrv.Close() })
	return issuer, resource
}

// isOAuthFlow says whether target is one of the two the OAuth flow
// crosses between.
func isOAuthFlow(target string) bool { return target == "oauth" || target == "mcp-auth" }

// targetHosts maps each HTTP target to the host:port its frames name.
func targetHosts(t *testing.T, targets wire.Targets) map[string]string {
	t.Helper()
	hosts := map[string]string{}
	for target, base := range map[string]string{"http": targets.HTTPURL, "http-auth": targets.HTTPAuthURL, "mcp-http": targets.MCPURL, "a2a": targets.A2AURL,
		"oauth": targets.OAuthURL, "mcp-auth": targets.MCPAuthURL} {
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		hosts[target] = u.Host
	}
	return hosts
}

var (
	// What static/wire.js (WireKnown) reads for the OAuth flow's
	// placeholders: each from the body of an answer, and the code from
	// the Location of the redirect after Allow.
	oauthLearned = []struct {
		name string
		re   *regexp.Regexp
	}{
		{"{{resource}}", regexp.MustCompile(`"resource":\s*"([^"]+)"`)},
		{"{{client_id}}", regexp.MustCompile(`"client_id":\s*"([^"]+)"`)},
		{"{{csrf}}", regexp.MustCompile(`name="csrf" value="([^"]+)"`)},
		{"{{access_token}}", regexp.MustCompile(`"access_token":\s*"([^"]+)"`)},
	}
	oauthCode = regexp.MustCompile(`(?im)^location:\s*\S*[?&]code=([^&\s]+)`)
)

// learnOAuth is WireKnown.learn for the OAuth flow's placeholders: text
// is what came back, a head or a body or both.
func learnOAuth(known map[string]string, text string) {
	if m := oauthCode.FindStringSubmatch(text); m != nil {
		if v, err := url.QueryUnescape(m[1]); err == nil {
			known["{{code}}"] = v
		}
	}
	for _, l := range oauthLearned {
		if m := l.re.FindStringSubmatch(text); m != nil {
			known[l.name] = m[1]
		}
	}
}

var (
	sessionHeader = regexp.MustCompile(`(?i)Mcp-Session-Id: *(\S+)`)
	taskID        = regexp.MustCompile(`"task":\{"id":"([^"]+)"`)
	// requestState is what static/wire.js (WireKnown) reads from an MCP
	// input_required answer for {{requestState}}.
	requestState = regexp.MustCompile(`"requestState":"([^"]+)"`)
)

// TestConsoleTemplates sends every template of every console, in the
// order the composer lists them, to the reference servers, filling in the
// placeholders the way the page does, and looks for each template's
// expected answer.
func TestConsoleTemplates(t *testing.T) {
	targets := liveServers(t)
	_, srv := startHub(t, targets)
	hosts := targetHosts(t, targets)
	for _, c := range consoles() {
		runs := c.Targets
		if slices.Contains(runs, "oauth") {
			// The OAuth flow crosses between its two targets, each taking
			// what an earlier answer of the other gave: one run, in order.
			runs = append(slices.DeleteFunc(slices.Clone(runs), isOAuthFlow), "oauth flow")
		}
		for _, target := range runs {
			t.Run(c.Slug+"/"+target, func(t *testing.T) {
				conn := dial(t, srv)
				fill := strings.NewReplacer() // placeholders known so far
				vars := map[string]string{}
				var id int64
				for _, tpl := range c.Templates {
					if tpl.Target != target && (target != "oauth flow" || !isOAuthFlow(tpl.Target)) {
						continue
					}
					vars["{{host}}"] = hosts[tpl.Target]
					var pairs []string
					for k, v := range vars {
						pairs = append(pairs, k, v)
					}
					fill = strings.NewReplacer(pairs...)
					id++
					send(t, conn, wire.Command{Op: "send", ID: id, Target: tpl.Target, Frame: fill.Replace(tpl.Frame)})
					answer := awaitAnswer(t, conn, id, tpl.Target, fill.Replace(tpl.Expect))
					if m := sessionHeader.FindStringSubmatch(answer); m != nil {
						vars["{{session}}"] = m[1]
					}
					// As static/wire.js reads {{task}}: an A2A task's id, else
					// a "taskId" (an A2A 0.3 answer's, or an MCP task's).
					if m := taskID.FindStringSubmatch(answer); m != nil {
						vars["{{task}}"] = m[1]
					} else if m := taskIDField.FindStringSubmatch(answer); m != nil {
						vars["{{task}}"] = m[1]
					}
					if m := requestState.FindStringSubmatch(answer); m != nil {
						vars["{{requestState}}"] = m[1]
					}
					learnOAuth(vars, answer)
					if tpl.Expect != "" && !strings.Contains(answer, fill.Replace(tpl.Expect)) {
						t.Errorf("template %q (%s): the answer has no %q:\n%s", tpl.Name, tpl.Group, tpl.Expect, answer)
					}
				}
			})
		}
	}
}

// awaitAnswer reads the events of one frame until the answer holds want,
// or the exchange ends, and returns everything that came back. A stdio
// frame has no end of its own: with nothing to want (a notification), it
// returns once the frame has gone out.
func awaitAnswer(t *testing.T, conn *websocket.Conn, id int64, target, want string) string {
	t.Helper()
	var got strings.Builder
	conn.SetReadDeadline(time.Now().Add(patience))
	defer conn.SetReadDeadline(time.Time{})
	stdio := target == "stdio" || target == "mcp-stdio" || target == "mcp-hostile"
	for {
		var ev wire.Event
		if err := conn.ReadJSON(&ev); err != nil {
			t.Fatalf("frame %d: %v; so far:\n%s", id, err, got.String())
		}
		switch {
		case ev.Op == "error" && ev.ID == id:
			got.WriteString("refused: " + ev.Message)
			return got.String()
		case ev.Dir == "out" && ev.ID == id && stdio && want == "":
			return got.String()
		case ev.Dir == "in" && (ev.ID == id || stdio) && ev.Kind != "raw":
			got.WriteString(ev.Text)
		case ev.Dir == "note" && ev.ID == id && ev.Kind == "end":
			return got.String()
		}
		if want != "" && strings.Contains(got.String(), want) {
			return got.String()
		}
		if ev.Kind == "grpc" && ev.ID == id {
			return got.String()
		}
	}
}

// TestConsolePages renders the console list and every console in both
// languages: each console carries its templates, for each of its targets,
// and the addresses of the live servers in its data.
func TestConsolePages(t *testing.T) {
	targets := wire.Targets{HTTPURL: "http://127.0.0.1:8019", GRPCAddr: "127.0.0.1:8020", MCPURL: "http://127.0.0.1:8021/mcp", A2AURL: "http://127.0.0.1:8022"}
	mux := routes(nil, nil, nil, newConsoleSite(targets, nil), nil, nil) // the consoles' routes are served, the rest unused
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		req.RemoteAddr = "127.0.0.1:5000"
		mux.ServeHTTP(rec, req)
		return rec
	}
	if rec := get("/console"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/console/" {
		t.Errorf("/console: %d to %q, want a redirect to /console/", rec.Code, rec.Header().Get("Location"))
	}
	list := get("/console/").Body.String()
	for _, c := range consoles() {
		if !strings.Contains(list, `href="/console/`+c.Slug+`"`) {
			t.Errorf("the console list has no link to %s", c.Slug)
		}
	}
	for _, c := range consoles() {
		for _, l := range allLangs() {
			rec := get("/console/" + c.Slug + "?lang=" + string(l))
			if rec.Code != http.StatusOK {
				t.Fatalf("/console/%s: %d", c.Slug, rec.Code)
			}
			body := rec.Body.String()
			if !strings.Contains(body, `lang="`+string(l)+`"`) {
				t.Errorf("/console/%s?lang=%s is not in %s", c.Slug, l, l)
			}
			if !strings.Contains(body, consoleStrings(l).Transcript) {
				t.Errorf("/console/%s?lang=%s lacks its %s strings", c.Slug, l, l)
			}
			data := consoleDataOf(t, body)
			for _, target := range c.Targets {
				n := 0
				for _, tpl := range data.Templates {
					if tpl.Target == target {
						n++
					}
				}
				if n == 0 {
					t.Errorf("/console/%s offers no template for %s", c.Slug, target)
				}
			}
			if data.Bases["mcp-http"] != targets.MCPURL || data.Bases["grpc"] != targets.GRPCAddr {
				t.Errorf("/console/%s: bases %v, want the live servers", c.Slug, data.Bases)
			}
			for _, asset := range []string{`<script type="module" src="/static/console.js">`, `href="/static/console.css"`} {
				if !strings.Contains(body, asset) {
					t.Errorf("/console/%s does not load %s", c.Slug, asset)
				}
			}
			// console.js imports the modules it uses: the page lists
			// only its entry.
			for _, imported := range []string{"/static/wire.js", "/static/transcript.js", "/static/sequence.js"} {
				if strings.Contains(body, imported) {
					t.Errorf("/console/%s lists %s, which console.js imports", c.Slug, imported)
				}
			}
		}
	}
	if rec := get("/console/nope"); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "nope") {
		t.Errorf("/console/nope: %d, want 404 naming it", rec.Code)
	}
	if body := get("/console/mcp?watch=abc").Body.String(); consoleDataOf(t, body).Watch != "abc" {
		t.Errorf("a console opened with ?watch= does not follow that session")
	}
}

// consoleDataOf reads the data a console page gives its script.
func consoleDataOf(t *testing.T, page string) consoleData {
	t.Helper()
	_, rest, ok := strings.Cut(page, `<script id="console-data" type="application/json">`)
	if !ok {
		t.Fatalf("the page has no console-data script:\n%s", page)
	}
	text, _, _ := strings.Cut(rest, "</script>")
	var d consoleData
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		t.Fatalf("console-data: %v", err)
	}
	return d
}
