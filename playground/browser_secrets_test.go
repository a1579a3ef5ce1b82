package playground

import (
	"fmt"
	"testing"
)

// TestBrowserSecretsMasked: a frame to the protected MCP server that
// carries a bearer token shows the token cut short in the row's views,
// and whole once "show tokens" is ticked; its hex view is withheld until
// then, since cut bytes are not the bytes that crossed.
func TestBrowserSecretsMasked(t *testing.T) {
	const token = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := openBrowser(t)
	b.open("/console/mcp")
	b.choose("target", "mcp-auth")
	frame := "POST /mcp HTTP/1.1\nContent-Type: application/json\nAuthorization: Bearer " + token + "\n\n" + `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	b.text(fmt.Sprintf(`(() => {
		const c = document.getElementById("composer");
		c.value = %s;
		c.dispatchEvent(new Event("input", { bubbles: true }));
		return "";
	})()`, jsString(frame)))
	b.click("#send")
	b.waitUntil("the 401 is in the transcript", messageRows+`.length >= 2 && `+cell(1, "summary")+`.includes("401")`, consoleDump)

	b.click(fmt.Sprintf(`#transcript-rows tr[data-n="%s"]`, b.text(messageRows+`[0].dataset.n`)))
	detail := `document.getElementById("detail-body").textContent`
	b.click(`.view-tab[data-view="pretty"]`)
	b.expect("the request's pretty view shows the token cut short",
		detail+`.includes("Bearer abcd…(36 chars)") && !`+detail+`.includes("`+token+`")`, detail)
	b.click(`.view-tab[data-view="hex"]`)
	b.expect("the hex view is withheld", `!`+detail+`.startsWith("00000000")`, detail)

	b.click("#reveal-secrets")
	b.expect("with show tokens ticked, the hex view shows the bytes", detail+`.startsWith("00000000")`, detail)
	b.click(`.view-tab[data-view="raw"]`)
	b.expect("and the raw view the whole token", detail+`.includes("Bearer `+token+`")`, detail)
}
