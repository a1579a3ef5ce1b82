package playground

import (
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/wirelab/wirelab/protocols/grpctool"
	toolsv1 "github.com/wirelab/wirelab/protocols/grpctool/tools/v1"
)

// TestBrowserConsoleGRPCClientCert: a server that requires a client
// certificate is called with its CA only, and the refusal asks for one;
// then with a client certificate and key pasted on the page: the "to" names them as grpcurl does (-cacert,
// -cert, -key), the grpcurl line has them with files for the uploads,
// the call succeeds, and the key is nowhere on the page after it was
// uploaded.
func TestBrowserConsoleGRPCClientCert(t *testing.T) {
	b := openBrowser(t)
	certs, err := grpctool.NewCerts()
	if err != nil {
		t.Fatal(err)
	}
	serverTLS, err := certs.ServerTLS(true)
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer(grpc.Creds(credentials.NewTLS(serverTLS)))
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
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	to := `document.getElementById("custom-to").value`
	dump := `"status: " + document.getElementById("grpc-status").textContent + "\nto: " + ` + to
	set := func(id, value, event string) {
		b.text(fmt.Sprintf(`(e => (e.value = %s, e.dispatchEvent(new Event(%s)), ""))(document.getElementById(%s))`, jsString(value), jsString(event), jsString(id)))
	}
	b.open("/console/grpc")
	b.choose("target", "custom-grpc")
	set("custom-to", "localhost:"+port, "change")
	b.choose("grpc-security", "TLS, pasted CA")
	set("grpc-capem", string(certs.CA), "change")
	b.waitUntil("the pasted CA is named in the target", `/ -cacert upload:[0-9a-f]{16}/.test(`+to+`)`, dump)
	b.expect("the client certificate's choice is offered with TLS", `!document.getElementById("grpc-client-label").hidden`, dump)
	b.run("uploading the .proto", chromedp.SetUploadFiles(chromedp.CSS("#grpc-files"), []string{proto}))
	b.waitUntil("the server's methods are templates", `[...document.querySelectorAll("#template optgroup option")].some(o => o.textContent === "tools.v1.ToolServer/ExecuteTool")`, dump)

	// Without a client certificate the server refuses the connection,
	// and the refusal says what to give; the connection doctor names
	// the step beside it, in the page's words.
	frame := "tools.v1.ToolServer/ExecuteTool\n" + `{"toolName":"word_count","arguments":{"text":"hello"}}`
	set("composer", frame, "input")
	b.click("#send")
	b.waitUntil("the refusal asks for a client certificate", `[...document.querySelectorAll("#transcript-rows tr.row-refused")].some(r => r.textContent.includes("sent no client certificate") && r.textContent.includes("-cert FILE -key FILE"))`, consoleDump)
	b.waitUntil("the doctor names the handshake and mutual TLS", `[...document.querySelectorAll("#transcript-rows tr.row-refused .doctor")].some(d => d.textContent.includes("the TLS handshake with localhost:") && d.textContent.includes("mutual TLS"))`, consoleDump)

	b.choose("grpc-client", "pasted, with its key")
	b.expect("the textarea for the certificate and key is shown", `!document.getElementById("grpc-certpem").hidden && document.getElementById("grpc-certfile").hidden`, dump)
	set("grpc-certpem", string(certs.ClientCert)+string(certs.ClientKey), "change")
	b.waitUntil("the pasted certificate is named as -cert and -key", `/ -cert (upload:[0-9a-f]{16}) -key \1/.test(`+to+`)`, dump)
	b.expect("the textarea is emptied", `document.getElementById("grpc-certpem").value === ""`, dump)
	if line := b.text(`document.getElementById("copy-out").textContent`); !strings.Contains(line, "grpcurl -cacert ca.pem -cert client.pem -key client.pem ") {
		t.Errorf("the grpcurl line: %q", line)
	}
	b.click("#send")
	b.waitUntil("the server answers over mutual TLS", messageRows+`.some(r => r.dataset.dir === "in" && r.textContent.includes("OK"))`, consoleDump)
	key := string(certs.ClientKey[40:80])
	if b.text(fmt.Sprintf(`String(document.documentElement.outerHTML.includes(%s) || [...document.querySelectorAll("input, textarea")].some(e => e.value.includes(%s)))`, jsString(key), jsString(key))) != "false" {
		t.Error("the private key is still on the page")
	}

	// Back to none: -cert and -key leave the "to".
	b.choose("grpc-client", "none")
	if got := b.text(to); strings.Contains(got, "-cert") || strings.Contains(got, "-key") {
		t.Errorf("with no client certificate the target reads %q", got)
	}
}
