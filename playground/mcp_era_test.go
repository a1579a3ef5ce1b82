package playground

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wirelab/wirelab/protocols/mcp"
)

// TestMCPTemplateGroups: every MCP template is in one of the two eras'
// groups, both targets have both, each group has a label and a note in
// every language, and a 2026-07-28 template is a request that stands
// alone: its _meta names the revision, and over HTTP it goes without a
// session but with the headers that repeat the body.
func TestMCPTemplateGroups(t *testing.T) {
	c, ok := consoleFor("mcp")
	if !ok {
		t.Fatal("no MCP console")
	}
	groups := map[string]map[string]int{} // target -> group -> templates
	// The OAuth flow's two targets have one group of their own, the flow
	// in order; the others have one per era.
	eraTargets := slices.DeleteFunc(slices.Clone(c.Targets), isOAuthFlow)
	for _, tpl := range c.Templates {
		if isOAuthFlow(tpl.Target) {
			if tpl.Group != oauthGroup {
				t.Errorf("template %q (%s) is in group %q, want %s", tpl.Name, tpl.Target, tpl.Group, oauthGroup)
			}
			continue
		}
		if tpl.Group != mcp.LegacyVersion && tpl.Group != mcp.ModernVersion {
			t.Errorf("template %q (%s) is in group %q, want %s or %s", tpl.Name, tpl.Target, tpl.Group, mcp.LegacyVersion, mcp.ModernVersion)
			continue
		}
		if groups[tpl.Target] == nil {
			groups[tpl.Target] = map[string]int{}
		}
		groups[tpl.Target][tpl.Group]++
		if tpl.Group != mcp.ModernVersion {
			continue
		}
		if strings.Contains(tpl.Frame, "Mcp-Session-Id") || strings.Contains(tpl.Frame, `"method":"initialize"`) {
			t.Errorf("2026-07-28 template %q (%s) leans on a session:\n%s", tpl.Name, tpl.Target, tpl.Frame)
		}
		if tpl.Target == "mcp-http" {
			for _, h := range []string{"\nMCP-Protocol-Version: ", "\nMcp-Method: "} {
				if !strings.Contains(tpl.Frame, h) {
					t.Errorf("2026-07-28 template %q has no %s header:\n%s", tpl.Name, strings.TrimSpace(h), tpl.Frame)
				}
			}
		}
	}
	for _, target := range eraTargets {
		for _, g := range []string{mcp.LegacyVersion, mcp.ModernVersion} {
			if groups[target][g] == 0 {
				t.Errorf("%s has no template in group %s", target, g)
			}
		}
	}
	// The group's order is the list's: the session first, as the course
	// teaches it.
	for _, target := range eraTargets {
		var order []string
		for _, tpl := range c.Templates {
			if tpl.Target == target && (len(order) == 0 || order[len(order)-1] != tpl.Group) {
				order = append(order, tpl.Group)
			}
		}
		if diff := cmp.Diff([]string{mcp.LegacyVersion, mcp.ModernVersion}, order); diff != "" {
			t.Errorf("%s: the groups do not come one after the other, the session first (-want +got):\n%s", target, diff)
		}
	}
	for _, l := range allLangs() {
		text := consoleStrings(l)
		for _, g := range []string{mcp.LegacyVersion, mcp.ModernVersion} {
			if tg := text.Groups[g]; !strings.HasPrefix(tg.Label, g) || tg.Note == "" {
				t.Errorf("%s: group %s is %+v, want a label that starts with the revision, and a note", l, g, tg)
			}
		}
		for _, era := range []string{"modern", "session"} {
			if e := text.Eras[era]; e.Tag == "" || e.Title == "" {
				t.Errorf("%s: the era tag %q is %+v, want a tag and a title", l, era, e)
			}
		}
		if !strings.Contains(text.NeedState, "{{requestState}}") {
			t.Errorf("%s: NeedState is %q, without the placeholder it is about", l, text.NeedState)
		}
	}
}

// eraDump describes the console's transcript with each row's era, for a
// failure.
const eraDump = `"transcript:\n" + ([...document.querySelectorAll("#transcript-rows tr.row")].map(tr =>
	"  [" + (tr.dataset.dir || "") + " era=" + (tr.dataset.era || "") + "] " + tr.querySelector(".summary")?.textContent).join("\n") || "  (no rows)")`

// TestBrowserConsoleEras sends, from the MCP console, a 2025-11-25
// session's initialize and a 2026-07-28 request that stands alone, on
// both transports, and reads the tag beside each row: initialize, its
// answer and what follows in the session say "2025-11-25 session", the
// request with _meta and its answer "2026-07-28". On stdio it then runs
// the 2026-07-28 deploy that needs an answer and its retry, whose
// {{requestState}} the page fills from the input_required result.
func TestBrowserConsoleEras(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	en := consoleStrings(en)

	// The template list is grouped by era, and says how each goes.
	groups := b.text(`[...document.querySelectorAll("#template optgroup")].map(g => g.label + ": " + g.children.length).join("\n")`)
	for _, g := range []string{mcp.LegacyVersion, mcp.ModernVersion} {
		if !strings.Contains(groups, en.Groups[g].Label+": ") {
			t.Errorf("the template list has no group %q; it has:\n%s", en.Groups[g].Label, groups)
		}
	}
	if notes := b.text(`document.querySelector(".template-groups")?.innerText ?? ""`); !strings.Contains(notes, en.Groups[mcp.ModernVersion].Note) {
		t.Errorf("the notes under the template list are\n%s\nwant each group's", notes)
	}

	// era is the era tag of the row that names summary, and the row's
	// data-era, "" when there is none.
	era := func(summary string) string {
		return fmt.Sprintf(`(() => {
			const r = [...document.querySelectorAll("#transcript-rows tr.row")].find(r => r.querySelector(".summary")?.textContent.includes(%s));
			return r ? (r.dataset.era || "") + " " + (r.querySelector(".era")?.textContent ?? "") : "no such row";
		})()`, jsString(summary))
	}
	want := map[string]string{
		"session": "session " + en.Eras["session"].Tag,
		"modern":  "modern " + en.Eras["modern"].Tag,
	}
	for _, target := range []string{"mcp-stdio", "mcp-http"} {
		t.Run(target, func(t *testing.T) {
			b.choose("target", target)
			b.click("#clear")
			b.choose("template", "initialize")
			b.click("#send")
			b.waitUntil("the initialize answer is in", messageRows+`.some(r => r.textContent.includes("result (id 1)"))`, eraDump)
			b.choose("template", "tools/call word_count, on its own")
			b.click("#send")
			b.waitUntil("the 2026-07-28 call is answered", messageRows+`.some(r => r.textContent.includes("result (id 23)"))`, eraDump)
			for summary, e := range map[string]string{
				"initialize (id 1)": "session", "result (id 1)": "session",
				"tools/call (id 23)": "modern", "result (id 23)": "modern",
			} {
				if got := b.text(era(summary)); got != want[e] {
					t.Errorf("the row %q is tagged %q, want %q\n%s", summary, got, want[e], b.describe(eraDump))
				}
			}
		})
	}

	// The deploy asks in its result; its retry echoes the requestState
	// the page remembered.
	b.choose("target", "mcp-stdio")
	b.choose("template", "deploy to production (input_required: the server asks in its result)")
	b.click("#send")
	b.waitUntil("the deploy answers input_required", messageRows+`.some(r => r.textContent.includes("result (id 26)"))`, eraDump)
	b.choose("template", "deploy to production again, with inputResponses and requestState")
	if s := b.text(`document.getElementById("composer").value`); strings.Contains(s, "{{requestState}}") || !strings.Contains(s, `"requestState":"ey`) {
		t.Fatalf("the retry's template is\n%s\nwant the requestState of the input_required answer in it", s)
	}
	b.click("#send")
	b.waitUntil("the retry deploys", messageRows+`.some(r => r.dataset.dir === "in" && r.textContent.includes("result (id 27)"))`, eraDump)
	detail := b.text(`(() => {
		const r = [...document.querySelectorAll("#transcript-rows tr.row")].find(r => r.dataset.dir === "in" && r.textContent.includes("result (id 27)"));
		r.click();
		return document.getElementById("detail-body").textContent;
	})()`)
	if !strings.Contains(detail, `"status": "deployed"`) {
		t.Errorf("the retry's answer is\n%s\nwant the deploy's result", detail)
	}
}

// TestBrowserFiveWiresModernMCP chooses revision 2026-07-28 in the
// five-wires page's MCP column and runs it: the column shows that
// revision's frame and no session around it, and every call is the one
// POST, answered with the count, so that the whole cost of a call is one
// round trip. Choosing 2025-11-25 again brings the session back.
func TestBrowserFiveWiresModernMCP(t *testing.T) {
	b := openBrowser(t)
	b.open("/five-wires")
	col := `document.getElementById("fw-mcp")`
	shown := col + `.querySelector(".fw-frames:not([hidden])")`
	b.text(`(s => { s.value = ` + jsString(mcp.ModernVersion) + `; s.dispatchEvent(new Event("change")); return ""; })(` + col + `.querySelector("select.fw-era"))`)
	if got := b.text(col + `.dataset.era + " " + ` + shown + `.dataset.era + " " + ` + shown + `.querySelectorAll(".fw-step").length`); got != "2026-07-28 2026-07-28 0" {
		t.Fatalf("after choosing 2026-07-28, the column's era, the frames shown and their steps are %q, want \"2026-07-28 2026-07-28 0\"", got)
	}
	if frame := b.text(shown + `.querySelector(".fw-call").value`); !strings.Contains(frame, "\nMcp-Method: tools/call\n") || strings.Contains(frame, "Mcp-Session-Id") {
		t.Fatalf("the 2026-07-28 frame is\n%s", frame)
	}
	b.click("#fw-mcp .fw-run")
	b.waitUntil("the MCP column is done", col+`.dataset.state === "done" || `+col+`.dataset.state === "failed"`, fiveWiresDump)
	if got := b.text(col + `.dataset.state + " " + ` + col + `.querySelector(".fw-trips").dataset.trips + " " + ` + col + `.querySelector(".fw-cost").dataset.from`); got != "done 1 call" {
		t.Errorf("the 2026-07-28 column ended %q, want \"done 1 call\"\n%s", got, b.describe(fiveWiresDump))
	}
	if back := b.text(col + `.querySelector(".fw-result .fw-back").textContent`); !strings.Contains(back, `"structuredContent":{"words":3,"chars":13}`) || strings.Contains(strings.ToLower(back), "mcp-session-id") {
		t.Errorf("the last call's answer is\n%s\nwant the count, and no session", back)
	}
	if runs := b.text(col + `.querySelector(".fw-wire-spread").dataset.runs`); runs != fmt.Sprint(fiveWiresRuns) {
		t.Errorf("the median is of %s calls, want %d", runs, fiveWiresRuns)
	}
	b.text(`(s => { s.value = ` + jsString(mcp.LegacyVersion) + `; s.dispatchEvent(new Event("change")); return ""; })(` + col + `.querySelector("select.fw-era"))`)
	if got := b.text(col + `.dataset.state + " " + ` + shown + `.querySelectorAll(".fw-step").length + " " + ` + col + `.querySelector(".fw-result .fw-back").textContent.length`); got != "idle 3 0" {
		t.Errorf("after choosing 2025-11-25 again, the column's state, its session steps and the bytes shown are %q, want \"idle 3 0\"", got)
	}
}
