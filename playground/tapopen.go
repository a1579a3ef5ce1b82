package playground

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/wirelab/wirelab/internal/tap"
	"github.com/wirelab/wirelab/playground/wire"
)

// MaxRecordingFile bounds a recording opened here: what a session keeps
// for the consoles that follow it is 16 MiB of events, so a larger file
// could not be shown whole anyway; wirelab tap check reads one of any
// size.
const MaxRecordingFile = 16 << 20

// maxRecordingForm is the most a form that carries a recording may be:
// the file, its part's headers and the boundaries around it.
const maxRecordingForm = MaxRecordingFile + 64<<10

// errTooBig is why a recording past MaxRecordingFile is refused.
var errTooBig = fmt.Errorf("the file is larger than %d MiB, the most the playground opens; wirelab tap check FILE reads it whole", MaxRecordingFile>>20)

// openRecording serves POST /taps/open: a recording, the file wirelab tap
// --record writes, opened read only as a tap's session (Hub.OpenRecording)
// that the console of its protocol follows. The file comes as the part
// "recording" of a form (the /taps page), or as the whole body, named by
// ?name= (wirelab tap open). A page's form is answered by going to the
// console, or by the taps page again saying why the file did not open; a
// program that accepts JSON gets {"id": ..., "console": ...} or
// {"error": ...}.
//
// The playground's door has checked Host and Origin, as for every
// request (loopback.Site): a page of another site cannot post here. A
// classroom's door lets no follower post here either (classroom.go). And
// only this machine may open one: a recording is shown to everyone who
// follows it, and kept in memory.
func openRecording(hub *wire.Hub) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		form := strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data")
		fail := func(status int, err error) {
			if form {
				showTaps(w, r, hub, status, err.Error())
				return
			}
			jsonError(w, status, err.Error())
		}
		if hub == nil {
			fail(http.StatusServiceUnavailable, errors.New("this playground has no engine to open a recording in"))
			return
		}
		if !wire.IsLocalPeer(r) {
			fail(http.StatusForbidden, errors.New("a recording is opened from this machine only"))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxRecordingForm)
		name, data, err := recordingFile(r, form)
		var tooBig *http.MaxBytesError
		switch {
		case errors.Is(err, errTooBig), errors.As(err, &tooBig):
			fail(http.StatusRequestEntityTooLarge, errTooBig)
			return
		case err != nil:
			fail(http.StatusBadRequest, err)
			return
		}
		events, err := tap.Read(bytes.NewReader(data))
		if err != nil {
			fail(http.StatusBadRequest, fmt.Errorf("%s: %w", name, err))
			return
		}
		info, err := hub.OpenRecording(name, events)
		if err != nil {
			fail(http.StatusServiceUnavailable, err)
			return
		}
		console := tapHref(info)
		if form {
			http.Redirect(w, r, console, http.StatusSeeOther)
			return
		}
		writeJSON(w, http.StatusCreated, map[string]string{"id": info.ID, "console": console})
	}
}

// recordingFile reads the recording out of the request: the form's part
// "recording", or the body. It reads at most MaxRecordingFile bytes of
// it, and returns errTooBig for a longer one.
func recordingFile(r *http.Request, form bool) (name string, data []byte, err error) {
	body, name := io.Reader(r.Body), r.URL.Query().Get("name")
	if form {
		mr, err := r.MultipartReader()
		if err != nil {
			return "", nil, fmt.Errorf("reading the form: %w", err)
		}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				return "", nil, errors.New("the form has no file: choose a recording")
			}
			if err != nil {
				return "", nil, fmt.Errorf("reading the form: %w", err)
			}
			if part.FormName() == "recording" {
				body, name = part, part.FileName()
				break
			}
		}
	}
	data, err = io.ReadAll(io.LimitReader(body, MaxRecordingFile+1))
	if err != nil {
		return "", nil, fmt.Errorf("reading the recording: %w", err)
	}
	if len(data) > MaxRecordingFile {
		return "", nil, errTooBig
	}
	// A name is only shown: the path a browser or a program sent is
	// not this machine's business.
	name = filepath.Base(filepath.FromSlash(strings.ReplaceAll(name, `\`, "/")))
	if name == "." || name == "/" || name == "" {
		name = "recording"
	}
	return name, data, nil
}
