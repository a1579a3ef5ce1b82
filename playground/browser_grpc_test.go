package playground

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"google.golang.org/grpc"

	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// echoTools is a learner's own ToolServer, served without reflection:
// ExecuteTool answers with the arguments it was sent, as its result.
type echoTools struct {
	toolsv1.UnimplementedToolServerServer
}

func (echoTools) ExecuteTool(_ context.Context, req *toolsv1.ExecuteToolRequest) (*toolsv1.ExecuteToolResponse, error) {
	return &toolsv1.ExecuteToolResponse{Result: req.GetArguments()}, nil
}

// TestBrowserConsoleOwnGRPC: a gRPC server without reflection is
// reached through its .proto, uploaded from the page; its methods become
// templates with every field at its zero value; a JSON object typed in a
// bytes field is shown under the frame as the base64 it is sent as, and
// the server gets those bytes.
func TestBrowserConsoleOwnGRPC(t *testing.T) {
	b := openBrowser(t)
	s := grpc.NewServer()
	toolsv1.RegisterToolServerServer(s, echoTools{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Serve returns when Stop closes the listener.
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	proto, err := filepath.Abs("../protocols/grpctool/tools/v1/tools.proto")
	if err != nil {
		t.Fatal(err)
	}

	status := `document.getElementById("grpc-status").textContent`
	dump := `"status: " + ` + status + ` + "\nto: " + document.getElementById("custom-to").value`
	b.open("/console/grpc")
	b.choose("target", "custom-grpc")
	b.text(fmt.Sprintf(`(e => (e.value = %s, e.dispatchEvent(new Event("change")), ""))(document.getElementById("custom-to"))`, jsString(ln.Addr().String())))
	b.waitUntil("the page says the server has no reflection", status+`.includes("offers no reflection")`, dump)

	b.run("uploading the .proto", chromedp.SetUploadFiles(chromedp.CSS("#grpc-files"), []string{proto}))
	b.waitUntil("the upload is named in the target", `/ -proto upload:[0-9a-f]{16}$/.test(document.getElementById("custom-to").value)`, dump)
	b.waitUntil("the server's methods are templates", `[...document.querySelectorAll("#template optgroup option")].some(o => o.textContent === "tools.v1.ToolServer/ExecuteTool")`, dump)
	if got := b.text(status); !strings.HasPrefix(got, "3 methods, from proto tools.proto") {
		t.Errorf("the status reads %q", got)
	}
	b.choose("template", "tools.v1.ToolServer/ExecuteTool")
	if got, want := b.text(`document.getElementById("composer").value`), "tools.v1.ToolServer/ExecuteTool\n{\n  \"toolName\": \"\",\n  \"version\": \"\",\n  \"arguments\": \"\"\n}"; got != want {
		t.Errorf("the template's frame is\n%s\nwant\n%s", got, want)
	}

	// A JSON object in the bytes field: fine, and its base64 is shown.
	frame := "tools.v1.ToolServer/ExecuteTool\n" + `{"toolName":"word_count","arguments":{"text":"hello"}}`
	b.text(fmt.Sprintf(`(e => (e.value = %s, e.dispatchEvent(new Event("input")), ""))(document.getElementById("composer"))`, jsString(frame)))
	checkDump := `document.getElementById("check").textContent + " | " + document.getElementById("grpc-bytes").textContent`
	b.expect("the check passes", `document.getElementById("check").className === "check ok"`, checkDump)
	b.expect("the base64 to be sent is shown", `!document.getElementById("grpc-bytes").hidden && document.getElementById("grpc-bytes").textContent.includes("eyJ0ZXh0IjoiaGVsbG8ifQ==")`, checkDump)
	b.click("#send")
	b.waitUntil("the server answers with the bytes it got", messageRows+`.some(r => r.dataset.dir === "in" && r.textContent.includes("OK"))`, consoleDump)
	b.click(fmt.Sprintf(`#transcript-rows tr[data-n="%s"]`, b.text(messageRows+`.find(r => r.dataset.dir === "in").dataset.n`)))
	b.click(`.view-tab[data-view="pretty"]`)
	if got := b.text(`document.getElementById("detail-body").textContent`); !strings.Contains(got, `{"result":"eyJ0ZXh0IjoiaGVsbG8ifQ=="}`) {
		t.Errorf("the answer's dump does not hold the echoed bytes:\n%s", got)
	}

	// Anything else in a bytes field: the check says what the field takes.
	b.text(fmt.Sprintf(`(e => (e.value = %s, e.dispatchEvent(new Event("input")), ""))(document.getElementById("composer"))`, jsString("tools.v1.ToolServer/ExecuteTool\n"+`{"arguments":"hello world"}`)))
	b.expect("the check explains bytes fields", `document.getElementById("check").textContent.includes("arguments is a bytes field")`, checkDump)
}
