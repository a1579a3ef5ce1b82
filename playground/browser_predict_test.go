package playground

import "testing"

// TestBrowserPredictReply: a reply block written "reply predict" stays
// folded on the lesson page, under a line that asks for a prediction,
// until its frame is sent; then it opens beside the live answer.
func TestBrowserPredictReply(t *testing.T) {
	b := openBrowser(t)
	b.open("/learn/stdio")
	const first = `document.querySelector("details.reply-predict")`
	b.expect("the lesson has a reply to predict, folded", first+` !== null && !`+first+`.open`, `document.body.innerText`)
	b.text(`(() => { ` + first + `.previousElementSibling.querySelector(".frame-send").click(); return ""; })()`)
	b.waitUntil("the reply opens once its frame is sent", first+`.open`, `document.body.innerText`)
	b.expect("the next reply to predict is still folded", `!document.querySelectorAll("details.reply-predict")[1].open`, `document.body.innerText`)
}
