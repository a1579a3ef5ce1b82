package cli

import (
	"strings"
	"testing"
)

// TestA2AConversation is the lesson's A2A conversation with the real
// binary: the client reads the card, "deploy api-gateway" stops at
// input-required with the agent's question and a hint naming the task,
// and the answer "staging", streamed in the same task, ends completed
// with the deployment artifact.
func TestA2AConversation(t *testing.T) {
	url := startServer(t, "a2a", "server", "a2a", "--addr", "127.0.0.1:0")

	code, stdout, stderr := exe(t, "", "client", "a2a", "--url", url, "deploy api-gateway")
	if code != 0 || !strings.Contains(stdout, "input-required: Deploy api-gateway to which environment: staging or production?") {
		t.Fatalf("deploy: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "A2A 1.0 at "+url+"/") {
		t.Errorf("the client should say it speaks 1.0, as the card offers; stderr:\n%s", stderr)
	}
	fields := strings.Fields(stdout)
	if len(fields) < 2 || fields[0] != "task" {
		t.Fatalf("first line should name the task: %q", stdout)
	}
	id := fields[1]
	if !strings.Contains(stderr, "--task "+id) {
		t.Errorf("stderr should say how to answer in task %s:\n%s", id, stderr)
	}

	code, stdout, stderr = exe(t, "", "client", "a2a", "--url", url, "--stream", "--task", id, "staging")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if code != 0 || lines[len(lines)-1] != "completed: Deployed api-gateway to staging." {
		t.Fatalf("answer: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{`artifact "deploy log" = "build image: done\n"`, `artifact "deploy log" += "deployed\n"`, `artifact "deployment" = {"service":"api-gateway","env":"staging"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stream lacks %s:\n%s", want, stdout)
		}
	}
}

// TestA2AClientOutcomes checks the exit codes and the 0.3 path: a
// completed task exits 0, failed and canceled exit 1, an error from the
// agent exits 2 and says which.
func TestA2AClientOutcomes(t *testing.T) {
	url := startServer(t, "a2a", "server", "a2a", "--addr", "127.0.0.1:0")

	code, stdout, stderr := exe(t, "", "client", "a2a", "--url", url, "--a2a-version", "0.3", "--stream", "count read the wire")
	if code != 0 || !strings.Contains(stdout, `{"words":3,"chars":13}`) || !strings.Contains(stderr, "A2A 0.3") {
		t.Errorf("count over 0.3: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if code, stdout, _ = exe(t, "", "client", "a2a", "--url", url, "weather Oslo"); code != exitToolError || !strings.Contains(stdout, "failed: ") {
		t.Errorf("weather: exit %d, want %d\n%s", code, exitToolError, stdout)
	}

	_, stdout, _ = exe(t, "", "client", "a2a", "--url", url, "deploy web")
	id := strings.Fields(stdout)[1]
	if code, stdout, _ = exe(t, "", "client", "a2a", "--url", url, "--cancel", id); code != exitToolError || !strings.Contains(stdout, "canceled") {
		t.Errorf("cancel: exit %d, want %d\n%s", code, exitToolError, stdout)
	}
	code, _, stderr = exe(t, "", "client", "a2a", "--url", url, "--cancel", id)
	if code != exitProtocol || !strings.Contains(stderr, "-32002") {
		t.Errorf("cancel again: exit %d, want %d and TaskNotCancelable\n%s", code, exitProtocol, stderr)
	}
	if code, _, stderr = exe(t, "", "client", "a2a", "--url", url); code != exitUsage {
		t.Errorf("no message: exit %d, want %d\n%s", code, exitUsage, stderr)
	}
}
