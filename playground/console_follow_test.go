package playground

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/wirelab/wirelab/playground/course"
	"github.com/wirelab/wirelab/protocols/tools"
)

// The classroom's parts of the console and lesson pages, as the
// playground writes them: who gets the Present toggle, the follower's
// read-only console, the instructor's console beside the student's own,
// the follower's bar, and the lesson's part. The browser tests
// (browser_classroom_test.go) show them working; these say what each
// kind of page is given.

// remoteHost is the address another machine reaches the test's
// playground by.
const remoteHost = "192.0.2.9"

// getPage asks the playground for path as a browser on this machine
// does, or, remote, as one on another machine, and returns the page,
// which must be answered 200.
func getPage(t *testing.T, h http.Handler, path string, remote bool) string {
	t.Helper()
	status, page := getPageStatus(h, path, remote)
	if status != http.StatusOK {
		t.Fatalf("GET %s (remote %v): %d\n%s", path, remote, status, page)
	}
	return page
}

// getPageStatus is getPage for a page of any status.
func getPageStatus(h http.Handler, path string, remote bool) (int, string) {
	r := httptest.NewRequest(http.MethodGet, path, nil)
	r.Host, r.RemoteAddr = "127.0.0.1:8018", "127.0.0.1:50000"
	if remote {
		r.Host, r.RemoteAddr = remoteHost+":8018", "192.0.2.7:50000"
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	body, _ := io.ReadAll(w.Result().Body) // a recorder's body always reads
	return w.Code, string(body)
}

// pageHas reports the elements a page has, by what each looks like.
type pageHas struct {
	Present, Follow, ReadOnly, Try, Own, RoomBar, SendShown bool
	FollowLink                                              string
}

var (
	presentTag  = regexp.MustCompile(`<button[^>]*id="present"`)
	followTag   = regexp.MustCompile(`<input[^>]*id="follow"`)
	composerTag = regexp.MustCompile(`<textarea[^>]*id="composer"[^>]*>`)
	sendTag     = regexp.MustCompile(`<button[^>]*id="send"[^>]*>`)
	roomFollow  = regexp.MustCompile(`<a class="room-follow" href="([^"]*)"`)
)

func consoleHas(page string) pageHas {
	has := pageHas{
		Present:   presentTag.MatchString(page),
		Follow:    followTag.MatchString(page),
		ReadOnly:  strings.Contains(composerTag.FindString(page), "readonly"),
		Try:       strings.Contains(page, `id="try"`),
		Own:       strings.Contains(page, `<iframe id="own-console" src="/console/mcp?embed=1"`),
		RoomBar:   strings.Contains(page, `id="room-bar"`),
		SendShown: !strings.Contains(sendTag.FindString(page), "hidden"),
	}
	if m := roomFollow.FindStringSubmatch(page); m != nil {
		has.FollowLink = strings.ReplaceAll(m[1], "&amp;", "&")
	}
	return has
}

func TestConsoleClassroomParts(t *testing.T) {
	pg := New(tools.New(nil), &Options{Hosts: []string{remoteHost}})
	t.Cleanup(pg.Close)
	for _, c := range []struct {
		name   string
		path   string
		remote bool
		want   pageHas
	}{
		{"the learner's own console: Present, for the hello to show", "/console/mcp", false,
			pageHas{Present: true, SendShown: true}},
		{"a follower's, on this machine: read only, Follow, no Send", "/console/mcp?watch=presenter", false,
			pageHas{Follow: true, ReadOnly: true}},
		{"the instructor's beside the student's own, with try this frame here", "/console/mcp?watch=instructor", false,
			pageHas{Follow: true, ReadOnly: true, Try: true, Own: true}},
		{"embedded, the instructor's has no room for the student's own", "/console/mcp?watch=instructor&embed=1", false,
			pageHas{Follow: true, ReadOnly: true}},
		{"a console from another machine: the follower's bar, with the way to the presenter", "/console/mcp", true,
			pageHas{Present: true, SendShown: true, RoomBar: true, FollowLink: "/console/mcp?watch=presenter"}},
		{"a follower's from another machine: the bar, without the link it is at", "/console/mcp?watch=presenter", true,
			pageHas{Follow: true, ReadOnly: true, RoomBar: true}},
		{"instructor from another machine: not the student's own wirelab, nothing beside", "/console/mcp?watch=instructor", true,
			pageHas{Follow: true, ReadOnly: true, RoomBar: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			page := getPage(t, pg, c.path, c.remote)
			if got := consoleHas(page); !reflect.DeepEqual(got, c.want) {
				t.Errorf("GET %s (remote %v) has\n  %+v\nwant\n  %+v", c.path, c.remote, got, c.want)
			}
		})
	}
}

// TestConsoleDataSaysWhere: the console's script learns from the page's
// data whom it follows, whether it is on this machine and whether the
// session it follows is there, and has the classroom's strings. A
// follower's console for a session the playground does not have is
// answered 404, read only, for the script to say "no such session".
func TestConsoleDataSaysWhere(t *testing.T) {
	pg := New(tools.New(nil), &Options{Hosts: []string{remoteHost}})
	t.Cleanup(pg.Close)
	script := regexp.MustCompile(`(?s)<script id="console-data" type="application/json">(.*?)</script>`)
	for _, c := range []struct {
		path    string
		remote  bool
		status  int
		watch   string
		local   bool
		missing bool
	}{
		{"/console/mcp", false, 200, "", true, false},
		{"/console/mcp?watch=presenter", true, 200, "presenter", false, false},
		{"/console/http?watch=instructor", false, 200, "instructor", true, false},
		{"/console/mcp?watch=9f86d081884c7d659a2feaa0c55ad015", false, 404, "9f86d081884c7d659a2feaa0c55ad015", true, true},
	} {
		status, page := getPageStatus(pg, c.path, c.remote)
		if status != c.status {
			t.Errorf("GET %s: %d, want %d", c.path, status, c.status)
		}
		m := script.FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("GET %s: no console-data", c.path)
		}
		var data consoleData
		if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
			t.Fatalf("GET %s: console-data: %v", c.path, err)
		}
		if data.Watch != c.watch || data.Local != c.local || data.Missing != c.missing {
			t.Errorf("GET %s (remote %v): watch %q, local %v, missing %v; want %q, %v, %v", c.path, c.remote, data.Watch, data.Local, data.Missing, c.watch, c.local, c.missing)
		}
		if has := consoleHas(page); c.watch != "" && (!has.ReadOnly || has.SendShown) {
			t.Errorf("GET %s: a follower's console that is not read only: %+v", c.path, has)
		}
		if data.Text.Follow.Try == "" || data.Text.Follow.NoSession == "" {
			t.Errorf("GET %s: the classroom's strings are missing from the page's data: %+v", c.path, data.Text.Follow)
		}
	}
}

// TestLessonClassroomParts: a lesson loads frames.js and has the Present
// toggle; ?follow=1 makes it a follower's, with its status and Follow
// switch; from another machine it has the follower's bar, with the link
// to follow unless it follows; an embedded lesson has no part in a
// classroom.
func TestLessonClassroomParts(t *testing.T) {
	pg := New(tools.New(nil), &Options{Hosts: []string{remoteHost}})
	t.Cleanup(pg.Close)
	for _, c := range []struct {
		path                                         string
		remote                                       bool
		script, present, follow, roomBar, followLink bool
	}{
		{"/learn/mcp-by-hand", false, true, true, false, true, true},
		{"/learn/mcp-by-hand", true, true, true, false, true, true},
		{"/learn/mcp-by-hand?follow=1", true, true, false, true, true, false},
		{"/learn/mcp-by-hand?follow=instructor", false, true, false, true, true, false},
		{"/learn/mcp-by-hand?embed=1", false, true, false, false, false, false},
	} {
		page := getPage(t, pg, c.path, c.remote)
		got := []bool{
			strings.Contains(page, `src="/static/frames.js"`),
			presentTag.MatchString(page),
			followTag.MatchString(page) && strings.Contains(page, `id="follow-status"`),
			strings.Contains(page, `id="room-bar"`),
			strings.Contains(page, `<a class="room-follow" href="/learn/mcp-by-hand?follow=1"`),
		}
		if want := []bool{c.script, c.present, c.follow, c.roomBar, c.followLink}; !reflect.DeepEqual(got, want) {
			t.Errorf("GET %s (remote %v): frames.js, Present, follower's status and switch, bar, follow link: %v, want %v", c.path, c.remote, got, want)
		}
	}
}

// TestLessonViewScript: a lesson without frames still has its part in a
// classroom, so it loads frames.js; embedded, it has none, and loads it
// only for frames.
func TestLessonViewScript(t *testing.T) {
	framed := &course.Lesson{Rendered: course.Rendered{Frames: make([]course.Frame, 1)}}
	for _, c := range []struct {
		embed  bool
		lesson *course.Lesson
		want   bool
	}{
		{false, &course.Lesson{}, true},
		{false, framed, true},
		{true, &course.Lesson{}, false},
		{true, framed, true},
	} {
		v := lessonView(pageView{Embed: c.embed}, c.lesson)
		if got := slices.Contains(v.Scripts, "/static/frames.js"); got != c.want {
			t.Errorf("embed %v, %d frames: frames.js loaded %v, want %v", c.embed, len(c.lesson.Frames), got, c.want)
		}
	}
}

// TestFollowTextBothLanguages: every string of the classroom's parts is
// written in both languages.
func TestFollowTextBothLanguages(t *testing.T) {
	enText, ruText := reflect.ValueOf(followStrings(en)), reflect.ValueOf(followStrings(ru))
	for i := range enText.NumField() {
		name := enText.Type().Field(i).Name
		e, r := enText.Field(i).String(), ruText.Field(i).String()
		if e == "" || r == "" || e == r {
			t.Errorf("followText.%s is %q in English and %q in Russian: want both, and different", name, e, r)
		}
	}
}
