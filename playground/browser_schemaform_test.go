package playground

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The form beside the MCP console's frame (static/schemaform.js), as
// JavaScript.
const (
	schemaForm     = `document.getElementById("schema-form")`
	schemaFormDump = `"form: " + (` + schemaForm + `.hidden ? "(hidden)" : ` + schemaForm + `.innerText) +
	"\nframe:\n" + document.getElementById("composer").value + "\n" + ` + consoleDump
	composerValue = `document.getElementById("composer").value`
)

// schemaControl is the control of a property's field in the form.
func schemaControl(prop string) string {
	return fmt.Sprintf(`%s.querySelector('.schema-field[data-prop=%q] :is(input, select, textarea)')`, schemaForm, prop)
}

// schemaError is what the form says under a property's field.
func schemaError(prop string) string {
	return fmt.Sprintf(`(%s.querySelector('.schema-field[data-prop=%q] .schema-error')?.textContent ?? "")`, schemaForm, prop)
}

// typeInto replaces what a field of the form holds by typing, as a
// reader would: select it all, then type (keys "" empties it).
func (b *browserTab) typeInto(prop, keys string) {
	b.t.Helper()
	b.click(fmt.Sprintf(`#schema-form .schema-field[data-prop=%q] :is(input, textarea)`, prop))
	b.text("(" + schemaControl(prop) + `.select(), "")`)
	if keys == "" {
		b.keys("\b")
		return
	}
	b.keys(keys)
}

// editFrame changes the frame by hand: edit rewrites it, as typing in
// the composer would, and the composer hears an input event.
func (b *browserTab) editFrame(edit string) {
	b.t.Helper()
	b.text(`(() => {
		const c = document.getElementById("composer");
		c.value = (` + edit + `)(c.value);
		c.dispatchEvent(new Event("input", { bubbles: true }));
		return "";
	})()`)
}

// TestBrowserConsoleSchemaForm: once tools/list has answered, a
// tools/call in the composer gets a form from the tool's inputSchema;
// typing in it rewrites the frame's arguments, an edit of the frame is
// read back into the form, a required field left empty and a value that
// breaks the schema's pattern are said beside their fields, a frame that
// is not JSON turns the form off, and the call sent from the form is
// answered.
func TestBrowserConsoleSchemaForm(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("template", "tools/call word_count")
	if !strings.Contains(b.text(composerValue), `"name":"word_count"`) {
		t.Fatalf("the template put in the composer:\n%s", b.text(composerValue))
	}
	if b.text(`String(`+schemaForm+`.hidden)`) != "true" {
		t.Errorf("a form shows before any tools/list answered\n%s", b.describe(schemaFormDump))
	}

	for _, m := range []struct {
		name string
		id   int // the id of its answer; 0 for a notification
	}{{"initialize", 1}, {"notifications/initialized", 0}, {"tools/list", 2}} {
		b.choose("template", m.name)
		b.click("#send")
		if m.id != 0 {
			b.waitUntil(m.name+" is answered", fmt.Sprintf(`%s.some(r => r.textContent.includes("result (id %d)"))`, messageRows, m.id), consoleDump)
		}
	}

	b.choose("template", "tools/call word_count")
	b.waitUntil("the form shows word_count's argument, as the frame has it",
		`!`+schemaForm+`.hidden && `+schemaControl("text")+`?.value === "read the wire"`, schemaFormDump)
	label := b.text(schemaForm + `.querySelector('.schema-field[data-prop="text"]').innerText`)
	if !strings.Contains(label, "The text to count.") || !strings.Contains(label, "*") {
		t.Errorf("the field of text says %q; want its description and the mark of a required field", label)
	}

	b.typeInto("text", "one two three four")
	b.waitUntil("typing in the form rewrites the frame's arguments",
		composerValue+`.includes('"arguments":{"text":"one two three four"}')`, schemaFormDump)
	b.waitUntil("the form says the arguments are valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)

	b.click("#send")
	b.waitUntil("the call is answered", messageRows+`.some(r => r.textContent.includes("result (id 3)"))`, consoleDump)
	b.text(`(` + messageRows + `.find(r => r.textContent.includes("result (id 3)")).click(), "")`)
	if detail := b.text(`document.getElementById("detail-body").textContent`); !strings.Contains(strings.Join(strings.Fields(detail), ""), `"words":4`) {
		t.Errorf("the answer to the call from the form is\n%s\nwant 4 words", detail)
	}

	b.editFrame(`(f) => f.replace("one two three four", "typed in the frame")`)
	b.expect("an edit of the frame shows in the form",
		schemaControl("text")+`.value === "typed in the frame"`, schemaFormDump)

	b.typeInto("text", "")
	b.waitUntil("the emptied field leaves text out of the frame",
		composerValue+`.includes('"arguments":{}')`, schemaFormDump)
	b.expect("a required field left empty says so beside it",
		schemaError("text")+` === "is required"`, schemaFormDump)

	b.editFrame(`(f) => f.replace('"arguments":{}', '"arguments":{"text":"x"}').slice(0, -1)`)
	b.expect("a frame that is not JSON turns the form off and says why",
		schemaForm+`.querySelector("fieldset").disabled && `+schemaForm+`.querySelector(".schema-note").textContent.includes("not JSON")`, schemaFormDump)
	b.editFrame(`(f) => f + "}"`)
	b.expect("the frame mended, the form is on again and follows it",
		`!`+schemaForm+`.querySelector("fieldset").disabled && `+schemaControl("text")+`.value === "x"`, schemaFormDump)

	// deploy_service's schema has an enum, shown as a list, and a
	// pattern, which the playground's check holds the value to.
	b.choose("template", "deploy to production (the server asks you first)")
	b.waitUntil("the form shows deploy_service's arguments, env as a list",
		schemaControl("env")+`?.tagName === "SELECT" && `+schemaControl("env")+`.selectedOptions[0].text === "production" && `+schemaControl("service")+`.value === "api"`, schemaFormDump)
	b.choose("schema-0-env", "staging")
	b.waitUntil("the choice is in the frame", composerValue+`.includes('"env":"staging"')`, schemaFormDump)
	b.typeInto("service", "API")
	b.waitUntil("the frame has what was typed", composerValue+`.includes('"service":"API"')`, schemaFormDump)
	b.expect("a value against the schema's pattern is said beside its field",
		schemaError("service")+`.includes("must match")`, schemaFormDump)

	// In Russian, after a reload: the tools listed before it still make
	// the form, and the check speaks the page's language.
	b.open("/console/mcp?lang=ru")
	b.choose("template", "tools/call word_count")
	b.waitUntil("the form is back from the history", `!`+schemaForm+`.hidden && `+schemaControl("text")+`?.value === "read the wire"`, schemaFormDump)
	b.typeInto("text", "")
	b.expect("a required field left empty says so in Russian", schemaError("text")+` === "обязательное поле"`, schemaFormDump)
}

// TestBrowserConsoleSchemaFormHTTP: over Streamable HTTP, in 2026-07-28,
// the form writes the request's body and leaves its head alone, and
// Answer on an input_required result writes the whole request again,
// headers and all, with the answer in its body.
func TestBrowserConsoleSchemaFormHTTP(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "mcp-http")
	b.choose("template", "tools/list, on its own")
	b.click("#send")
	b.waitUntil("tools/list is answered", messageRows+`.some(r => r.textContent.includes("result (id 22)"))`, consoleDump)

	b.choose("template", "tools/call word_count, on its own")
	b.waitUntil("the form shows word_count's argument", `!`+schemaForm+`.hidden && `+schemaControl("text")+`?.value === "read the wire"`, schemaFormDump)
	head := b.text(composerValue + `.split("\n\n")[0]`)
	b.typeInto("text", "over the wire")
	b.waitUntil("the body has the new argument", composerValue+`.includes('"arguments":{"text":"over the wire"}')`, schemaFormDump)
	if now := b.text(composerValue + `.split("\n\n")[0]`); now != head {
		t.Errorf("the form changed the request's head\n%s\ninto\n%s", head, now)
	}
	b.waitUntil("the form says the arguments are valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)
	b.click("#send")
	b.waitUntil("the call is answered", messageRows+`.some(r => r.textContent.includes("result (id 23)"))`, consoleDump)

	b.choose("template", "deploy to production (input_required: the server asks in its result)")
	b.click("#send")
	b.answerRow()
	b.waitUntil("Answer writes the request again, answered, with the form beside it",
		composerValue+`.startsWith("POST /mcp HTTP/1.1\n") && `+composerValue+`.includes("Mcp-Name: deploy_service") && `+
			composerValue+`.includes('"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}') && `+
			`!`+schemaForm+`.hidden && `+schemaControl("confirm")+`?.checked`, schemaFormDump)
	b.waitUntil("the form says the answer is valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)
	b.click("#send")
	b.waitUntil("the deploy ran once answered", messageRows+`.some(r => r.textContent.includes('"status":"deployed"') || r.textContent.includes("result (id 27)"))`, schemaFormDump)
}

// answerRow clicks the Answer button of the last row that offers one.
func (b *browserTab) answerRow() {
	b.t.Helper()
	b.waitUntil("a row offers Answer", `document.querySelector("#transcript-rows button.answer") !== null`, consoleDump)
	b.text(`([...document.querySelectorAll("#transcript-rows button.answer")].pop().click(), "")`)
}

// TestBrowserConsoleElicitationForm: deploying to production, the server
// asks for a confirmation, by an elicitation/create request in a
// 2025-11-25 session and in an input_required result in 2026-07-28; in
// both, Answer writes the answer with the form's defaults, the form
// beside it shows the question's requestedSchema, and the answer given
// through the form lets the deploy run.
func TestBrowserConsoleElicitationForm(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")

	for i, name := range []string{"initialize", "notifications/initialized", "deploy to production (the server asks you first)"} {
		b.choose("template", name)
		b.click("#send")
		if i == 0 {
			b.waitUntil("initialize is answered", messageRows+`.some(r => r.textContent.includes("result (id 1)"))`, consoleDump)
		}
	}
	b.answerRow()
	b.waitUntil("the answer has a form from the question's requestedSchema",
		`!`+schemaForm+`.hidden && `+schemaForm+`.querySelector("legend").textContent.includes("elicitation/create") && `+
			schemaControl("confirm")+`?.type === "checkbox" && `+schemaControl("confirm")+`.checked`, schemaFormDump)
	if m := b.text(schemaForm + `.querySelector(".schema-message")?.textContent ?? ""`); !strings.Contains(m, "Go ahead?") {
		t.Errorf("the form shows the question as %q; want the server's message", m)
	}
	b.click("#schema-0-confirm")
	b.waitUntil("unticked, the answer says no", composerValue+`.includes('"content":{"confirm":false}')`, schemaFormDump)
	b.click("#schema-0-confirm")
	b.waitUntil("ticked again, the answer says yes", composerValue+`.includes('"content":{"confirm":true}')`, schemaFormDump)
	// The form settles (the check's verdict under it) before Send moves.
	b.waitUntil("the form says the answer is valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)
	b.click("#send")
	b.waitUntil("the deploy ran once answered",
		messageRows+`.some(r => r.textContent.includes("result (id 11)") && !r.textContent.includes("isError"))`, consoleDump)

	// 2026-07-28: the question comes in the call's result, and Answer
	// writes the call again with the answer in inputResponses.
	b.choose("template", "deploy to production (input_required: the server asks in its result)")
	b.click("#send")
	b.waitUntil("the server asks in its result", messageRows+`.some(r => r.textContent.includes("input_required") || r.textContent.includes("result (id 26)"))`, consoleDump)
	b.answerRow()
	b.waitUntil("Answer writes the call again, answered, with the form beside it",
		composerValue+`.includes('"inputResponses":{"confirm":{"action":"accept","content":{"confirm":true}}}') && `+
			composerValue+`.includes('"requestState":"') && !`+schemaForm+`.hidden && `+schemaControl("confirm")+`?.checked`, schemaFormDump)
	b.click("#schema-0-confirm")
	b.waitUntil("unticked, the answer says no", composerValue+`.includes('"content":{"confirm":false}')`, schemaFormDump)
	b.click("#schema-0-confirm")
	b.waitUntil("ticked again, the answer says yes", composerValue+`.includes('"content":{"confirm":true}')`, schemaFormDump)
	// The form settles (the check's verdict under it) before Send moves.
	b.waitUntil("the form says the answer is valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)
	id := b.text(`String(JSON.parse(` + composerValue + `).id)`)
	b.click("#send")
	b.waitUntil("the deploy ran once answered", fmt.Sprintf(`%s.some(r => r.textContent.includes("result (id %s)") && !r.textContent.includes("input_required"))`, messageRows, id), schemaFormDump)
	b.text(fmt.Sprintf(`(%s.find(r => r.textContent.includes("result (id %s)")).click(), "")`, messageRows, id))
	if detail := b.text(`document.getElementById("detail-body").textContent`); !strings.Contains(detail, "deployed") {
		t.Errorf("the answer to the retry is\n%s\nwant the deploy done", detail)
	}
}

// TestBrowserConsoleElicitationFormFixtures: the elicitations of the
// conformance fixtures (your own stdio server, here wirelab's with them)
// get their forms: defaults prefilled, an enum, a titled enum (oneOf of
// consts with titles) and a legacy one (enumNames) as lists, an array as
// JSON, checked against the items' enum.
func TestBrowserConsoleElicitationFormFixtures(t *testing.T) {
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-stdio")
	b.text(fmt.Sprintf(`(document.getElementById("custom-to").value = %s, "")`, jsString(os.Args[0]+" server mcp --fixtures conformance")))
	b.choose("template", "initialize")
	b.click("#send")
	b.waitUntil("the server answers initialize", messageRows+`.some(r => r.textContent.includes("result (id 1)"))`, consoleDump)
	b.choose("template", "notifications/initialized")
	b.click("#send")

	call := func(id int, tool string) {
		t.Helper()
		b.editFrame(fmt.Sprintf(`() => %s`, jsString(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{}}}`, id, tool))))
		b.click("#send")
		// The question before is answered: the Answer offered is this one's.
		b.answerRow()
		b.waitUntil("the answer has its form", `!`+schemaForm+`.hidden && `+schemaForm+`.querySelector("legend").textContent.includes("elicitation/create")`, schemaFormDump)
	}

	call(5, "test_elicitation_sep1034_defaults")
	if got := b.text(`JSON.stringify(JSON.parse(` + composerValue + `).result.content)`); got != `{"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}` {
		t.Errorf("Answer wrote the content %s; want every default", got)
	}
	b.expect("the form shows the defaults", schemaControl("name")+`.value === "John Doe" && `+schemaControl("age")+`.value === "30" && `+
		schemaControl("score")+`.value === "95.5" && `+schemaControl("status")+`.selectedOptions[0].text === "active" && `+schemaControl("verified")+`.checked`, schemaFormDump)
	b.waitUntil("the form says the answer is valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)
	b.click("#send")
	b.waitUntil("the call is answered", messageRows+`.some(r => r.textContent.includes("result (id 5)"))`, consoleDump)

	call(6, "test_elicitation_sep1330_enums")
	lists := b.text(`["titledSingle", "legacyEnum", "untitledSingle"].map(p => [...` + schemaForm + `.querySelector('.schema-field[data-prop="' + p + '"] select').options].map(o => o.text).slice(1).join(",")).join(" | ")`)
	if want := "First Option,Second Option,Third Option | Option One,Option Two,Option Three | option1,option2,option3"; lists != want {
		t.Errorf("the lists offer %q, want %q", lists, want)
	}
	b.choose("schema-0-titledSingle", "Second Option")
	b.waitUntil("a titled choice writes its const", composerValue+`.includes('"titledSingle":"value2"')`, schemaFormDump)
	b.typeInto("untitledMulti", `["option1"]`)
	b.waitUntil("an array typed as JSON goes into the frame", composerValue+`.includes('"untitledMulti":["option1"]')`, schemaFormDump)
	b.typeInto("untitledMulti", `["nope"]`)
	b.expect("an item not in the enum is said beside its field",
		schemaError("untitledMulti")+`.includes("must be one of")`, schemaFormDump)
	b.typeInto("untitledMulti", `["no`)
	b.expect("a JSON field that is not JSON says so, and the frame keeps the last JSON",
		schemaError("untitledMulti")+`.includes("not JSON") && `+composerValue+`.includes('"untitledMulti":["nope"]')`, schemaFormDump)
}

// TestBrowserOwnMCPSchemaForm: @modelcontextprotocol/server-everything
// over stdio, a server wirelab did not write: a tool called through the
// form built from its inputSchema, and its elicitation, whose schema has
// every kind of field MCP elicitation allows, answered through the form:
// inputs that fit each format, defaults prefilled, titled enums as lists,
// a wrong email said beside its field.
func TestBrowserOwnMCPSchemaForm(t *testing.T) {
	node, index := everything(t)
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "custom-stdio")
	b.setTo(node + " " + index + " stdio")
	for _, m := range []struct {
		name string
		id   int // the id of its answer; 0 for a notification
	}{{"initialize", 1}, {"notifications/initialized", 0}, {"tools/list", 2}} {
		b.choose("template", m.name)
		b.click("#send")
		if m.id != 0 {
			b.waitUntil(m.name+" is answered", rowHas("in", fmt.Sprintf("result (id %d)", m.id)), ownDump)
		}
	}

	b.setComposer(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{}}}`)
	b.waitUntil("echo's form shows", `!`+schemaForm+`.hidden && `+schemaControl("message")+` !== null`, schemaFormDump)
	b.typeInto("message", "through the form")
	b.waitUntil("the form wrote the argument", composerValue+`.includes('"arguments":{"message":"through the form"}')`, schemaFormDump)
	b.waitUntil("the form says the arguments are valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)
	b.click("#send")
	b.waitUntil("the tool echoes", saved("Echo: through the form"), ownDump)

	b.setComposer(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"trigger-elicitation-request","arguments":{}}}`)
	b.click("#send")
	b.answerRow()
	b.waitUntil("the answer has its form", `!`+schemaForm+`.hidden && `+schemaControl("email")+` !== null`, schemaFormDump)
	types := b.text(`["name", "check", "email", "homepage", "birthdate", "integer", "untitledSingleSelectEnum", "titledSingleSelectEnum", "legacyTitledEnum", "untitledMultipleSelectEnum"].map(p => p + ":" + (` +
		schemaForm + `.querySelector('.schema-field[data-prop="' + p + '"] :is(input, select, textarea)')?.type ?? "none")).join(" ")`)
	if want := "name:text check:checkbox email:email homepage:url birthdate:date integer:number untitledSingleSelectEnum:select-one titledSingleSelectEnum:select-one legacyTitledEnum:select-one untitledMultipleSelectEnum:textarea"; types != want {
		t.Errorf("the fields are\n%s\nwant\n%s", types, want)
	}
	b.expect("the defaults are prefilled", schemaControl("firstLine")+`.value === "It was a dark and stormy night." && `+schemaControl("integer")+`.value === "42" && `+
		schemaControl("titledSingleSelectEnum")+`.selectedOptions[0].text === "Superman" && `+schemaControl("legacyTitledEnum")+`.selectedOptions[0].text === "Cats" && `+
		schemaControl("untitledMultipleSelectEnum")+`.value === '["Guitar"]'`, schemaFormDump)

	b.typeInto("name", "Ada")
	b.typeInto("email", "ada at example")
	b.expect("a wrong email is said beside its field", schemaError("email")+`.includes("email")`, schemaFormDump)
	b.typeInto("email", "ada@example.com")
	b.text(`((c) => (c.value = "1990-05-17", c.dispatchEvent(new Event("input", { bubbles: true })), ""))(` + schemaControl("birthdate") + `)`)
	b.choose(b.text(schemaControl("titledSingleSelectEnum")+`.id`), "Wonder Woman")
	b.waitUntil("the answer holds what the form was given", composerValue+`.includes('"name":"Ada"') && `+composerValue+`.includes('"email":"ada@example.com"') && `+
		composerValue+`.includes('"birthdate":"1990-05-17"') && `+composerValue+`.includes('"titledSingleSelectEnum":"hero-3"')`, schemaFormDump)
	b.waitUntil("the form says the answer is valid",
		schemaForm+`.querySelector(".schema-status").textContent.includes("valid against the schema")`, schemaFormDump)
	b.click("#send")
	b.waitUntil("the server took the answer", saved("Email: ada@example.com"), ownDump)
}
