package cli

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestServeFollowOnDashboard: a student's own wirelab that follows the
// classroom (wirelab serve --follow, real processes on loopback) says it
// is there, and the instructor's dashboard lists the student as
// connected, on their own wirelab, where a page's path would be.
func TestServeFollowOnDashboard(t *testing.T) {
	p := startClassroom(t, t.TempDir(), "--addr", "127.0.0.1:0")
	startWirelab(t, t.TempDir(), regexp.MustCompile(`^wirelab: following the classroom at `),
		"serve", "--no-open", "--addr", "127.0.0.1:0", "--follow", p.joinURLs[0]+"?code="+p.code, "--name", "Ada Lovelace")

	// The first report goes at once; waiting for it is a guard against
	// hanging, not a measurement.
	row := regexp.MustCompile(`(?s)<td>Ada Lovelace</td>\s*<td>\s*<span class="note">on their own wirelab</span>`)
	var body string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, body = fetch(t, "GET", p.instructor, "/classroom?lang=en", nil, ""); row.MatchString(body) {
			break
		}
	}
	if !row.MatchString(body) {
		i := strings.Index(body, "Ada Lovelace")
		t.Fatalf("the dashboard never showed Ada Lovelace on their own wirelab:\n%s", body[max(0, i-200):min(len(body), i+400)])
	}
	if strings.Contains(body, `class="away"`) {
		t.Errorf("the student following from their own wirelab is shown away")
	}
}
